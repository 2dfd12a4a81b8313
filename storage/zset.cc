#include "storage/zset.h"

#include <malloc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace kv {

int LexRange::Compare(Bound ab, std::string_view a, Bound bb, std::string_view b) {
  if (ab != Bound::kValue && ab == bb) return 0;
  if (ab == Bound::kMin || bb == Bound::kMax) return -1;
  if (ab == Bound::kMax || bb == Bound::kMin) return 1;
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

double ListPackScore(ListPackValue v) {
  if (v.is_int) return static_cast<double>(v.num);
  // zzlStrtod: at most 127 bytes of the text.
  char buf[128];
  const size_t n = std::min(v.str.size(), sizeof(buf) - 1);
  std::memcpy(buf, v.str.data(), n);
  buf[n] = '\0';
  return std::strtod(buf, nullptr);
}

bool ScoreAsInteger(double score, int64_t* out) {
  if (score < static_cast<double>(-INT64_MAX / 2) || score > static_cast<double>(INT64_MAX / 2)) {
    return false;
  }
  const auto ll = static_cast<int64_t>(score);
  if (static_cast<double>(ll) != score) return false;
  *out = ll;
  return true;
}

size_t FormatScore(double score, char* buf, size_t len) {
  int n;
  int64_t ll;
  if (std::isnan(score)) {
    n = std::snprintf(buf, len, "nan");
  } else if (std::isinf(score)) {
    n = std::snprintf(buf, len, "%s", score < 0 ? "-inf" : "inf");
  } else if (score == 0) {
    n = std::snprintf(buf, len, "%s", std::signbit(score) ? "-0" : "0");
  } else if (ScoreAsInteger(score, &ll)) {
    n = std::snprintf(buf, len, "%lld", static_cast<long long>(ll));
  } else {
    n = std::snprintf(buf, len, "%.17g", score);
  }
  return n < 0 ? 0 : static_cast<size_t>(n);
}

// ---- Iterator ----

std::string_view ZSet::Iterator::member(char (&buf)[ListPackValue::kIntBufSize]) const {
  if (lp_ != nullptr) return lp_->Get(eptr_).ToString(buf);
  return (*it_)->member();
}

double ZSet::Iterator::score() const {
  if (lp_ != nullptr) return ListPackScore(lp_->Get(sptr_));
  return (*it_)->score();
}

void ZSet::Iterator::Next() {
  if (lp_ == nullptr) return it_.Next();
  eptr_ = lp_->Next(sptr_);
  sptr_ = eptr_ != ListPack::npos ? lp_->Next(eptr_) : ListPack::npos;
}

void ZSet::Iterator::Prev() {
  if (lp_ == nullptr) return it_.Prev();
  sptr_ = lp_->Prev(eptr_);
  eptr_ = sptr_ != ListPack::npos ? lp_->Prev(sptr_) : ListPack::npos;
}

// ---- Life cycle ----

ZSet::ZSet(bool big) : lp_() {
  if (big) {
    auto b = std::make_unique<Big>();
    lp_.~ListPack();
    SetBig(std::move(b));
  }
}

ZSet::~ZSet() {
  FreeBig();
  lp_.~ListPack();
}

void ZSet::FreeBig() {
  Big* b = big();
  if (b == nullptr) return;
  b->tree.Clear([](ScoredMember* m) { ScoredMember::Free(m); });
  b->index.Clear();
  delete b;
  new (&lp_) ListPack();
}

bool ZSet::ReleaseSome(size_t budget) {
  Big* b = big();
  if (b == nullptr) return true;
  // The index only points at the members (freed with the tree): its table goes last.
  if (!b->tree.ReleaseSome(budget, [](ScoredMember* m) { ScoredMember::Free(m); })) return false;
  if (!b->index.ReleaseSome(budget)) return false;
  delete b;
  new (&lp_) ListPack();
  return true;
}

size_t ZSet::size() const { return is_listpack() ? lp_.size() / 2 : big()->tree.size(); }

std::unique_ptr<Aggregate> ZSet::Clone() const {
  const Big* b = big();
  if (b == nullptr) return std::make_unique<ZSet>(lp_.Clone());
  auto copy = std::make_unique<ZSet>(true);
  copy->big()->index.Reserve(size());
  for (auto it = b->tree.begin(); it.valid(); it.Next()) {
    copy->AddNew((*it)->score(), (*it)->member());
  }
  return copy;
}

size_t ZSet::AllocatedBytes(size_t samples) const {
  const Big* b = big();
  if (b == nullptr) return lp_.allocated();
  size_t bytes =
      malloc_usable_size(const_cast<Big*>(b)) + b->tree.NodeBytes() + b->index.TableBytes();
  const size_t n = b->tree.size();
  size_t measured = 0, member_bytes = 0;
  for (auto it = b->tree.begin(); it.valid() && (samples == 0 || measured < samples); it.Next()) {
    member_bytes += (*it)->allocated();
    ++measured;
  }
  if (measured == n) return bytes + member_bytes;
  return bytes + static_cast<size_t>(static_cast<double>(member_bytes) / measured * n);
}

// ---- Listpack form (t_zset.c's zzl* functions) ----

ListPack::Pos ZSet::ListPackFind(std::string_view member, double* score) const {
  ListPack::Pos eptr = lp_.First();
  if (eptr == ListPack::npos) return eptr;
  eptr = lp_.Find(eptr, member, 1);
  if (eptr != ListPack::npos && score != nullptr) *score = ListPackScore(lp_.Get(lp_.Next(eptr)));
  return eptr;
}

void ZSet::ListPackInsertAt(ListPack::Pos eptr, std::string_view member, double score) {
  int64_t ll;
  const bool is_long = ScoreAsInteger(score, &ll);
  char buf[64];
  const size_t len = is_long ? 0 : FormatScore(score, buf, sizeof buf);
  if (eptr == ListPack::npos) {
    lp_.Append(member);
    if (is_long) {
      lp_.AppendInteger(ll);
    } else {
      lp_.Append({buf, len});
    }
    return;
  }
  const ListPack::Pos sptr = lp_.Insert(eptr, member, ListPack::Where::kBefore);
  if (is_long) {
    lp_.InsertInteger(sptr, ll, ListPack::Where::kAfter);
  } else {
    lp_.Insert(sptr, {buf, len}, ListPack::Where::kAfter);
  }
}

void ZSet::ListPackInsert(std::string_view member, double score) {
  ListPack::Pos eptr = lp_.First();
  while (eptr != ListPack::npos) {
    const ListPack::Pos sptr = lp_.Next(eptr);
    const double s = ListPackScore(lp_.Get(sptr));
    if (s > score) return ListPackInsertAt(eptr, member, score);
    if (s == score) {
      char buf[ListPackValue::kIntBufSize];
      if (lp_.Get(eptr).ToString(buf).compare(member) > 0) {
        return ListPackInsertAt(eptr, member, score);
      }
    }
    eptr = lp_.Next(sptr);
  }
  ListPackInsertAt(ListPack::npos, member, score);
}

bool ZSet::ListPackIsInRange(const ScoreRange& range) const {
  if (range.Empty()) return false;
  const ListPack::Pos last = lp_.Seek(-1);
  if (last == ListPack::npos) return false;
  if (!range.GteMin(ListPackScore(lp_.Get(last)))) return false;
  return range.LteMax(ListPackScore(lp_.Get(lp_.Seek(1))));
}

bool ZSet::ListPackIsInLexRange(const LexRange& range) const {
  if (range.Empty()) return false;
  const ListPack::Pos last = lp_.Seek(-2);
  if (last == ListPack::npos) return false;
  char buf[ListPackValue::kIntBufSize];
  if (!range.GteMin(lp_.Get(last).ToString(buf))) return false;
  return range.LteMax(lp_.Get(lp_.Seek(0)).ToString(buf));
}

// ---- Big form ----

bool ZSet::BigIsInRange(const ScoreRange& range) const {
  const ScoreTree& tree = big()->tree;
  if (range.Empty() || tree.empty()) return false;
  if (!range.GteMin((*tree.last())->score())) return false;
  return range.LteMax((*tree.begin())->score());
}

bool ZSet::BigIsInLexRange(const LexRange& range) const {
  const ScoreTree& tree = big()->tree;
  if (range.Empty() || tree.empty()) return false;
  if (!range.GteMin((*tree.last())->member())) return false;
  return range.LteMax((*tree.begin())->member());
}

void ZSet::AddNew(double score, std::string_view member) {
  ScoredMember* m = ScoredMember::Make(score, member);
  Big* b = big();
  b->index.Insert(m);
  b->tree.Insert(m);
}

// ---- Common API ----

bool ZSet::Score(std::string_view member, double* score) const {
  if (is_listpack()) return ListPackFind(member, score) != ListPack::npos;
  const ScoredMember* m = big()->index.Find(member);
  if (m == nullptr) return false;
  *score = m->score();
  return true;
}

bool ZSet::Add(double score, std::string_view member, int flags, int* out, double* newscore,
               const Limits& limits) {
  const bool incr = flags & kAddIncr;
  const bool nx = flags & kAddNx;
  const bool xx = flags & kAddXx;
  const bool gt = flags & kAddGt;
  const bool lt = flags & kAddLt;
  *out = 0;
  if (std::isnan(score)) {
    *out = kOutNan;
    return false;
  }
  if (is_listpack()) {
    double cur;
    const ListPack::Pos eptr = ListPackFind(member, &cur);
    if (eptr != ListPack::npos) {
      if (nx) {
        *out |= kOutNop;
        return true;
      }
      if (incr) {
        score += cur;
        if (std::isnan(score)) {
          *out |= kOutNan;
          return false;
        }
      }
      if ((lt && score >= cur) || (gt && score <= cur)) {
        *out |= kOutNop;
        return true;
      }
      if (newscore != nullptr) *newscore = score;
      if (score != cur) {
        ListPackDelete(eptr);
        ListPackInsert(member, score);
        *out |= kOutUpdated;
      }
      return true;
    }
    if (xx) {
      *out |= kOutNop;
      return true;
    }
    if (size() + 1 > limits.max_listpack_entries || member.size() > limits.max_listpack_value ||
        !lp_.SafeToAdd(member.size())) {
      ConvertToBig();
    } else {
      ListPackInsert(member, score);
      if (newscore != nullptr) *newscore = score;
      *out |= kOutAdded;
      return true;
    }
  }
  Big* b = big();
  ScoredMember* m = b->index.Find(member);
  if (m != nullptr) {
    if (nx) {
      *out |= kOutNop;
      return true;
    }
    const double cur = m->score();
    if (incr) {
      score += cur;
      if (std::isnan(score)) {
        *out |= kOutNan;
        return false;
      }
    }
    if ((lt && score >= cur) || (gt && score <= cur)) {
      *out |= kOutNop;
      return true;
    }
    if (newscore != nullptr) *newscore = score;
    if (score != cur) {
      b->tree.Erase(cur, member);
      m->set_score(score);
      b->tree.Insert(m);
      *out |= kOutUpdated;
    }
    return true;
  }
  if (xx) {
    *out |= kOutNop;
    return true;
  }
  AddNew(score, member);
  *out |= kOutAdded;
  if (newscore != nullptr) *newscore = score;
  return true;
}

bool ZSet::Remove(std::string_view member) {
  if (is_listpack()) {
    const ListPack::Pos eptr = ListPackFind(member, nullptr);
    if (eptr == ListPack::npos) return false;
    ListPackDelete(eptr);
    return true;
  }
  Big* b = big();
  ScoredMember* m = b->index.Erase(member);
  if (m == nullptr) return false;
  b->tree.Erase(m->score(), member);
  ScoredMember::Free(m);
  return true;
}

bool ZSet::Rank(std::string_view member, bool reverse, size_t* rank, double* score) const {
  const size_t n = size();
  if (is_listpack()) {
    size_t r = 0;
    for (ListPack::Pos eptr = lp_.First(); eptr != ListPack::npos;) {
      const ListPack::Pos sptr = lp_.Next(eptr);
      if (lp_.Equals(eptr, member)) {
        *rank = reverse ? n - 1 - r : r;
        if (score != nullptr) *score = ListPackScore(lp_.Get(sptr));
        return true;
      }
      ++r;
      eptr = lp_.Next(sptr);
    }
    return false;
  }
  const Big* b = big();
  const ScoredMember* m = b->index.Find(member);
  if (m == nullptr) return false;
  const size_t r = b->tree.Rank(m->score(), member);
  *rank = reverse ? n - 1 - r : r;
  if (score != nullptr) *score = m->score();
  return true;
}

ZSet::Iterator ZSet::Seek(size_t rank) const {
  Iterator it;
  if (!is_listpack()) {
    it.it_ = big()->tree.Seek(rank);
    return it;
  }
  it.lp_ = &lp_;
  if (rank >= size()) return it;
  it.eptr_ = lp_.Seek(static_cast<long>(2 * rank));
  it.sptr_ = lp_.Next(it.eptr_);
  return it;
}

ZSet::Iterator ZSet::FirstInRange(const ScoreRange& range) const {
  Iterator it;
  if (is_listpack()) {
    it.lp_ = &lp_;
    if (!ListPackIsInRange(range)) return it;
    for (ListPack::Pos eptr = lp_.First(); eptr != ListPack::npos;) {
      const ListPack::Pos sptr = lp_.Next(eptr);
      const double score = ListPackScore(lp_.Get(sptr));
      if (range.GteMin(score)) {
        if (range.LteMax(score)) {
          it.eptr_ = eptr;
          it.sptr_ = sptr;
        }
        return it;
      }
      eptr = lp_.Next(sptr);
    }
    return it;
  }
  if (!BigIsInRange(range)) return it;
  size_t rank;
  ScoreTree::Iterator t = big()->tree.LowerBound(
      [&](const ScoreTree::Key& k) { return !range.GteMin(k.score); }, &rank);
  if (t.valid() && range.LteMax((*t)->score())) it.it_ = t;
  return it;
}

ZSet::Iterator ZSet::LastInRange(const ScoreRange& range) const {
  Iterator it;
  if (is_listpack()) {
    it.lp_ = &lp_;
    if (!ListPackIsInRange(range)) return it;
    for (ListPack::Pos eptr = lp_.Seek(-2); eptr != ListPack::npos;) {
      const ListPack::Pos sptr = lp_.Next(eptr);
      const double score = ListPackScore(lp_.Get(sptr));
      if (range.LteMax(score)) {
        if (range.GteMin(score)) {
          it.eptr_ = eptr;
          it.sptr_ = sptr;
        }
        return it;
      }
      const ListPack::Pos prev_score = lp_.Prev(eptr);
      eptr = prev_score != ListPack::npos ? lp_.Prev(prev_score) : ListPack::npos;
    }
    return it;
  }
  if (!BigIsInRange(range)) return it;
  const size_t upto =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.score); });
  if (upto == 0) return it;
  ScoreTree::Iterator t = big()->tree.Seek(upto - 1);
  if (range.GteMin((*t)->score())) it.it_ = t;
  return it;
}

ZSet::Iterator ZSet::FirstInLexRange(const LexRange& range) const {
  Iterator it;
  char buf[ListPackValue::kIntBufSize];
  if (is_listpack()) {
    it.lp_ = &lp_;
    if (!ListPackIsInLexRange(range)) return it;
    for (ListPack::Pos eptr = lp_.First(); eptr != ListPack::npos;) {
      const std::string_view m = lp_.Get(eptr).ToString(buf);
      if (range.GteMin(m)) {
        if (range.LteMax(m)) {
          it.eptr_ = eptr;
          it.sptr_ = lp_.Next(eptr);
        }
        return it;
      }
      eptr = lp_.Next(lp_.Next(eptr));
    }
    return it;
  }
  if (!BigIsInLexRange(range)) return it;
  size_t rank;
  ScoreTree::Iterator t = big()->tree.LowerBound(
      [&](const ScoreTree::Key& k) { return !range.GteMin(k.member()); }, &rank);
  if (t.valid() && range.LteMax((*t)->member())) it.it_ = t;
  return it;
}

ZSet::Iterator ZSet::LastInLexRange(const LexRange& range) const {
  Iterator it;
  char buf[ListPackValue::kIntBufSize];
  if (is_listpack()) {
    it.lp_ = &lp_;
    if (!ListPackIsInLexRange(range)) return it;
    for (ListPack::Pos eptr = lp_.Seek(-2); eptr != ListPack::npos;) {
      const std::string_view m = lp_.Get(eptr).ToString(buf);
      if (range.LteMax(m)) {
        if (range.GteMin(m)) {
          it.eptr_ = eptr;
          it.sptr_ = lp_.Next(eptr);
        }
        return it;
      }
      const ListPack::Pos prev_score = lp_.Prev(eptr);
      eptr = prev_score != ListPack::npos ? lp_.Prev(prev_score) : ListPack::npos;
    }
    return it;
  }
  if (!BigIsInLexRange(range)) return it;
  const size_t upto =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.member()); });
  if (upto == 0) return it;
  ScoreTree::Iterator t = big()->tree.Seek(upto - 1);
  if (range.GteMin((*t)->member())) it.it_ = t;
  return it;
}

size_t ZSet::RankOfFirstInRange(const ScoreRange& range) const {
  return big()->tree.CountBefore([&](const ScoreTree::Key& k) { return !range.GteMin(k.score); });
}

size_t ZSet::RankOfFirstInLexRange(const LexRange& range) const {
  return big()->tree.CountBefore(
      [&](const ScoreTree::Key& k) { return !range.GteMin(k.member()); });
}

size_t ZSet::CountInRange(const ScoreRange& range) const {
  Iterator it = FirstInRange(range);
  if (!it.valid()) return 0;
  if (is_listpack()) {
    size_t count = 0;
    for (; it.valid() && range.LteMax(it.score()); it.Next()) ++count;
    return count;
  }
  const size_t lo = RankOfFirstInRange(range);
  const size_t hi =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.score); });
  return hi > lo ? hi - lo : 0;
}

size_t ZSet::CountInLexRange(const LexRange& range) const {
  Iterator it = FirstInLexRange(range);
  if (!it.valid()) return 0;
  if (is_listpack()) {
    size_t count = 0;
    char buf[ListPackValue::kIntBufSize];
    for (; it.valid() && range.LteMax(it.member(buf)); it.Next()) ++count;
    return count;
  }
  const size_t lo = RankOfFirstInLexRange(range);
  const size_t hi =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.member()); });
  return hi > lo ? hi - lo : 0;
}

size_t ZSet::DeleteRangeByRank(size_t start, size_t end) {
  const size_t num = end - start + 1;
  if (is_listpack()) {
    lp_.DeleteRange(static_cast<long>(2 * start), 2 * num);
    return num;
  }
  Big* b = big();
  b->tree.EraseRange(start, num, [&](ScoredMember* m) {
    b->index.Erase(m->member());
    ScoredMember::Free(m);
  });
  return num;
}

size_t ZSet::DeleteRangeByScore(const ScoreRange& range) {
  if (is_listpack()) {
    size_t num = 0;
    Iterator it = FirstInRange(range);
    ListPack::Pos eptr = it.valid() ? it.eptr_ : ListPack::npos;
    while (eptr != ListPack::npos) {
      const ListPack::Pos sptr = lp_.Next(eptr);
      if (sptr == ListPack::npos || !range.LteMax(ListPackScore(lp_.Get(sptr)))) break;
      eptr = lp_.DeleteFrom(eptr, 2);
      ++num;
    }
    return num;
  }
  const size_t lo = RankOfFirstInRange(range);
  const size_t hi =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.score); });
  if (hi <= lo) return 0;
  return DeleteRangeByRank(lo, hi - 1);
}

size_t ZSet::DeleteRangeByLex(const LexRange& range) {
  if (is_listpack()) {
    size_t num = 0;
    Iterator it = FirstInLexRange(range);
    ListPack::Pos eptr = it.valid() ? it.eptr_ : ListPack::npos;
    char buf[ListPackValue::kIntBufSize];
    while (eptr != ListPack::npos) {
      if (lp_.Next(eptr) == ListPack::npos || !range.LteMax(lp_.Get(eptr).ToString(buf))) break;
      eptr = lp_.DeleteFrom(eptr, 2);
      ++num;
    }
    return num;
  }
  const size_t lo = RankOfFirstInLexRange(range);
  const size_t hi =
      big()->tree.CountBefore([&](const ScoreTree::Key& k) { return range.LteMax(k.member()); });
  if (hi <= lo) return 0;
  return DeleteRangeByRank(lo, hi - 1);
}

void ZSet::ConvertToBig() {
  if (!is_listpack()) return;
  auto big = std::make_unique<Big>();
  big->index.Reserve(size());
  char buf[ListPackValue::kIntBufSize];
  for (ListPack::Pos eptr = lp_.First(); eptr != ListPack::npos;) {
    const ListPack::Pos sptr = lp_.Next(eptr);
    ScoredMember* m = ScoredMember::Make(ListPackScore(lp_.Get(sptr)), lp_.Get(eptr).ToString(buf));
    big->index.Insert(m);
    big->tree.Insert(m);
    eptr = lp_.Next(sptr);
  }
  lp_.~ListPack();
  SetBig(std::move(big));
}

void ZSet::ConvertToListPackIfNeeded(size_t maxelelen, size_t totelelen, const Limits& limits) {
  const Big* b = big();
  if (b == nullptr) return;
  if (size() > limits.max_listpack_entries || maxelelen > limits.max_listpack_value ||
      totelelen > ListPack::kMaxSafetySize) {
    return;
  }
  // The listpack is built aside (the word holds the Big until it is freed), then takes its place.
  ZSet small{ListPack()};
  for (auto it = b->tree.begin(); it.valid(); it.Next()) {
    small.ListPackInsertAt(ListPack::npos, (*it)->member(), (*it)->score());
  }
  FreeBig();
  lp_ = std::move(small.lp_);
}

uint64_t ZSet::Scan(uint64_t cursor, size_t count,
                    absl::FunctionRef<void(std::string_view member, double score)> fn) const {
  return big()->index.Scan(cursor, count, [&](ScoredMember* m) { fn(m->member(), m->score()); });
}

void ZSet::ForEach(absl::FunctionRef<void(std::string_view member, double score)> fn) const {
  char buf[ListPackValue::kIntBufSize];
  for (Iterator it = Seek(0); it.valid(); it.Next()) fn(it.member(buf), it.score());
}

bool ZSet::Check() const {
  if (is_listpack()) return lp_.size() % 2 == 0;
  const Big* b = big();
  if (!b->tree.Check() || !b->index.Check()) return false;
  if (b->tree.size() != b->index.size()) return false;
  for (auto it = b->tree.begin(); it.valid(); it.Next()) {
    if (b->index.Find((*it)->member()) != *it) return false;
  }
  return true;
}

}  // namespace kv
