#include "storage/stream.h"

#include <malloc.h>

#include <algorithm>
#include <string>
#include <utility>

namespace kv {
namespace {

constexpr int64_t kFlagNone = 0;
constexpr int64_t kFlagDeleted = 1;     // STREAM_ITEM_FLAG_DELETED
constexpr int64_t kFlagSameFields = 2;  // STREAM_ITEM_FLAG_SAMEFIELDS

// A listpack element that the stream wrote as an integer (counts, flags, deltas). A string that
// is a canonical integer is stored as one, so this holds for everything the stream writes.
int64_t IntAt(const ListPack& lp, ListPack::Pos p) {
  const ListPackValue v = lp.Get(p);
  if (v.is_int) return v.num;
  int64_t n = 0;
  ListPack::StringToInt64(v.str, &n);
  return n;
}

// The position of the first entry after the master entry, or npos.
ListPack::Pos FirstEntry(const ListPack& lp, int64_t* master_fields) {
  ListPack::Pos p = lp.Next(lp.Next(lp.First()));  // count, deleted, num-fields
  *master_fields = IntAt(lp, p);
  p = lp.Next(p);
  for (int64_t i = 0; i < *master_fields; ++i) p = lp.Next(p);
  return lp.Next(p);  // past the master terminator
}

// One entry's header read at its flags position `p`.
struct EntryHeader {
  int64_t flags;
  StreamId id;
  int64_t num_fields;
  ListPack::Pos fields;  // first field (or value with SAMEFIELDS)
};

EntryHeader ReadEntry(const ListPack& lp, ListPack::Pos p, StreamId master, int64_t master_fields) {
  EntryHeader h;
  h.flags = IntAt(lp, p);
  p = lp.Next(p);
  h.id.ms = master.ms + static_cast<uint64_t>(IntAt(lp, p));
  p = lp.Next(p);
  h.id.seq = master.seq + static_cast<uint64_t>(IntAt(lp, p));
  p = lp.Next(p);
  if (h.flags & kFlagSameFields) {
    h.num_fields = master_fields;
  } else {
    h.num_fields = IntAt(lp, p);
    p = lp.Next(p);
  }
  h.fields = p;
  return h;
}

// The flags position of the entry after the one whose header is `h`, or npos.
ListPack::Pos AfterEntry(const ListPack& lp, const EntryHeader& h) {
  int64_t skip = (h.flags & kFlagSameFields) ? h.num_fields : h.num_fields * 2;
  ListPack::Pos p = h.fields;
  while (skip-- > 0) p = lp.Next(p);
  return lp.Next(p);  // past lp-count
}

// The last entry's id of a node (lpGetEdgeStreamID with first = 0); false when it has none.
bool LastIdInNode(const ListPack& lp, StreamId master, StreamId* id) {
  ListPack::Pos p = lp.Last();
  int64_t lp_count = IntAt(lp, p);
  if (lp_count == 0) return false;
  while (lp_count-- > 0) p = lp.Prev(p);
  p = lp.Next(p);
  id->ms = master.ms + static_cast<uint64_t>(IntAt(lp, p));
  p = lp.Next(p);
  id->seq = master.seq + static_cast<uint64_t>(IntAt(lp, p));
  return true;
}

}  // namespace

bool StreamId::Incr() {
  if (seq == UINT64_MAX) {
    if (ms == UINT64_MAX) {
      ms = seq = 0;
      return false;
    }
    ++ms;
    seq = 0;
  } else {
    ++seq;
  }
  return true;
}

bool StreamId::Decr() {
  if (seq == 0) {
    if (ms == 0) {
      ms = seq = UINT64_MAX;
      return false;
    }
    --ms;
    seq = UINT64_MAX;
  } else {
    --seq;
  }
  return true;
}

std::string StreamId::ToString() const {
  std::string s = std::to_string(ms);
  s += '-';
  s += std::to_string(seq);
  return s;
}

// ---- Consumer groups ----

StreamConsumer* StreamGroup::FindConsumer(std::string_view name) {
  auto it = consumers.find(name);
  return it == consumers.end() ? nullptr : it->second.get();
}

StreamConsumer* StreamGroup::CreateConsumer(std::string_view name, int64_t now_ms) {
  auto c = std::make_unique<StreamConsumer>();
  c->name.assign(name);
  c->seen_time = now_ms;
  StreamConsumer* raw = c.get();
  consumers.emplace(std::string(name), std::move(c));
  return raw;
}

size_t StreamGroup::DeleteConsumer(StreamConsumer* c) {
  const size_t pending = c->pel.size();
  for (StreamId id : c->pel) pel.erase(id);
  consumers.erase(c->name);
  return pending;
}

void StreamGroup::Deliver(StreamId id, StreamConsumer* c, int64_t now_ms) {
  auto [it, inserted] = pel.try_emplace(id);
  StreamNack& nack = it->second;
  if (!inserted) nack.consumer->pel.erase(id);
  nack.consumer = c;
  nack.delivery_time = now_ms;
  nack.delivery_count = 1;
  c->pel.insert(id);
}

bool StreamGroup::Ack(StreamId id) {
  auto it = pel.find(id);
  if (it == pel.end()) return false;
  it->second.consumer->pel.erase(id);
  pel.erase(it);
  return true;
}

void StreamGroup::Reassign(StreamNack& nack, StreamId id, StreamConsumer* to) {
  if (nack.consumer == to) return;
  nack.consumer->pel.erase(id);
  nack.consumer = to;
  to->pel.insert(id);
}

StreamGroup* Stream::FindGroup(std::string_view name) {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : it->second.get();
}

StreamGroup* Stream::CreateGroup(std::string_view name, StreamId last_id, int64_t entries_read) {
  if (groups_.contains(name)) return nullptr;
  auto g = std::make_unique<StreamGroup>();
  g->last_id = last_id;
  g->entries_read = entries_read;
  StreamGroup* raw = g.get();
  groups_.emplace(std::string(name), std::move(g));
  return raw;
}

bool Stream::DestroyGroup(std::string_view name) {
  auto it = groups_.find(name);
  if (it == groups_.end()) return false;
  groups_.erase(it);
  return true;
}

// ---- Entries ----

void Stream::Append(StreamId id, std::span<const std::string_view> fv, const NodeLimits& limits) {
  const int64_t num_fields = static_cast<int64_t>(fv.size() / 2);
  size_t total_len = 0;
  for (std::string_view s : fv) total_len += s.size();

  ListPack* lp = nodes_.empty() ? nullptr : &nodes_.rbegin()->second;
  if (lp != nullptr) {
    size_t max_bytes = limits.max_bytes;
    if (max_bytes == 0 || max_bytes > kMaxListPackSize) max_bytes = kMaxListPackSize;
    bool new_node = lp->bytes() + total_len >= max_bytes;
    if (!new_node && limits.max_entries != 0) {
      const ListPack::Pos p = lp->First();
      // Live and deleted entries both count.
      new_node = IntAt(*lp, p) + IntAt(*lp, lp->Next(p)) >= limits.max_entries;
    }
    if (new_node) {
      lp->ShrinkToFit();
      lp = nullptr;
    }
  }

  int64_t flags = kFlagNone;
  StreamId master;
  if (lp == nullptr) {
    master = id;
    lp = &nodes_.emplace_hint(nodes_.end(), id, ListPack())->second;
    lp->AppendInteger(1);  // live entries: the one being added
    lp->AppendInteger(0);  // deleted entries
    lp->AppendInteger(num_fields);
    for (int64_t i = 0; i < num_fields; ++i) lp->Append(fv[i * 2]);
    lp->AppendInteger(0);  // master terminator
    flags |= kFlagSameFields;
  } else {
    master = nodes_.rbegin()->first;
    ListPack::Pos p = lp->First();
    p = lp->ReplaceInteger(p, IntAt(*lp, p) + 1);
    p = lp->Next(lp->Next(p));
    const int64_t master_fields = IntAt(*lp, p);
    p = lp->Next(p);
    if (master_fields == num_fields) {
      int64_t i = 0;
      for (; i < master_fields; ++i, p = lp->Next(p)) {
        if (!lp->Get(p).Equals(fv[i * 2])) break;
      }
      if (i == master_fields) flags |= kFlagSameFields;
    }
  }

  const bool same = flags & kFlagSameFields;
  lp->AppendInteger(flags);
  lp->AppendInteger(static_cast<int64_t>(id.ms - master.ms));
  lp->AppendInteger(static_cast<int64_t>(id.seq - master.seq));
  if (!same) lp->AppendInteger(num_fields);
  for (int64_t i = 0; i < num_fields; ++i) {
    if (!same) lp->Append(fv[i * 2]);
    lp->Append(fv[i * 2 + 1]);
  }
  lp->AppendInteger(num_fields + 3 + (same ? 0 : num_fields + 1));  // lp-count

  ++length_;
  ++entries_added_;
  last_id_ = id;
  if (length_ == 1) first_id_ = id;
}

bool Stream::Delete(StreamId id) {
  auto it = nodes_.upper_bound(id);
  if (it == nodes_.begin()) return false;
  --it;
  ListPack& lp = it->second;
  int64_t master_fields = 0;
  ListPack::Pos p = FirstEntry(lp, &master_fields);
  while (p != ListPack::npos) {
    const EntryHeader h = ReadEntry(lp, p, it->first, master_fields);
    if (h.id > id) return false;
    if (h.id == id) {
      if (h.flags & kFlagDeleted) return false;
      lp.ReplaceInteger(p, h.flags | kFlagDeleted);
      ListPack::Pos c = lp.First();
      const int64_t live = IntAt(lp, c);
      if (live == 1) {
        nodes_.erase(it);
      } else {
        c = lp.ReplaceInteger(c, live - 1);
        c = lp.Next(c);
        lp.ReplaceInteger(c, IntAt(lp, c) + 1);
      }
      --length_;
      if (length_ == 0) {
        first_id_ = {};
      } else if (id == first_id_) {
        EdgeId(true, &first_id_);
      }
      return true;
    }
    p = AfterEntry(lp, h);
  }
  return false;
}

int64_t Stream::Trim(const TrimArgs& args) {
  if (args.strategy == TrimStrategy::kNone) return 0;
  const bool by_len = args.strategy == TrimStrategy::kMaxLen;
  const uint64_t maxlen = static_cast<uint64_t>(args.maxlen);
  int64_t deleted = 0;
  auto it = nodes_.begin();
  while (it != nodes_.end()) {
    if (by_len && length_ <= maxlen) break;
    ListPack& lp = it->second;
    const int64_t entries = IntAt(lp, lp.First());
    if (args.limit != 0 && deleted + entries > args.limit) break;

    bool remove_node;
    if (by_len) {
      remove_node = length_ - static_cast<uint64_t>(entries) >= maxlen;
    } else {
      StreamId last;
      LastIdInNode(lp, it->first, &last);
      remove_node = last < args.minid;
    }
    if (remove_node) {
      it = nodes_.erase(it);
      length_ -= static_cast<uint64_t>(entries);
      deleted += entries;
      continue;
    }
    if (args.approx) break;

    // Mark entries deleted inside this node, from its start.
    int64_t master_fields = 0;
    ListPack::Pos p = FirstEntry(lp, &master_fields);
    int64_t deleted_here = 0;
    while (p != ListPack::npos) {
      const EntryHeader h = ReadEntry(lp, p, it->first, master_fields);
      const bool stop = by_len ? length_ <= maxlen : h.id >= args.minid;
      if (stop) break;
      if (!(h.flags & kFlagDeleted)) {
        // Rewriting the flags keeps their size (1 and 3 are both one-byte integers).
        lp.ReplaceInteger(p, h.flags | kFlagDeleted);
        ++deleted_here;
        --length_;
      }
      p = AfterEntry(lp, ReadEntry(lp, p, it->first, master_fields));
    }
    deleted += deleted_here;
    ListPack::Pos c = lp.First();
    c = lp.ReplaceInteger(c, entries - deleted_here);
    c = lp.Next(c);
    lp.ReplaceInteger(c, IntAt(lp, c) + deleted_here);
    break;
  }
  if (length_ == 0) {
    first_id_ = {};
  } else if (deleted != 0) {
    EdgeId(true, &first_id_);
  }
  return deleted;
}

bool Stream::Contains(StreamId id) const {
  Iterator it(*this, id, id, false);
  StreamId found;
  int64_t n;
  return it.Next(&found, &n);
}

bool Stream::EdgeId(bool first, StreamId* id) const {
  Iterator it(*this, {}, StreamId::Max(), !first);
  int64_t n;
  return it.Next(id, &n);
}

// ---- Iteration ----

Stream::Iterator::Iterator(const Stream& s, StreamId start, StreamId end, bool rev)
    : s_(s), start_(start), end_(end), rev_(rev) {
  const auto& nodes = s.nodes_;
  if (!rev) {
    // The node holding `start`: the last whose master id is <= start, else the first.
    auto ub = nodes.upper_bound(start);
    node_ = ub == nodes.begin() ? ub : std::prev(ub);
  } else {
    auto ub = nodes.upper_bound(end);
    if (ub == nodes.begin()) {
      done_ = true;
    } else {
      node_ = std::prev(ub);
    }
  }
}

int64_t Stream::Iterator::IntAt(ListPack::Pos p) const { return kv::IntAt(*lp_, p); }

bool Stream::Iterator::EnterNode() {
  const auto& nodes = s_.nodes_;
  if (!started_) {
    started_ = true;
    if (node_ == nodes.end()) return false;
  } else if (!rev_) {
    if (node_ == nodes.end() || ++node_ == nodes.end()) return false;
  } else {
    if (node_ == nodes.begin()) return false;
    --node_;
  }
  lp_ = &node_->second;
  master_id_ = node_->first;
  ListPack::Pos p = lp_->Next(lp_->Next(lp_->First()));
  master_fields_count_ = IntAt(p);
  master_fields_ = lp_->Next(p);
  return true;
}

ListPack::Pos Stream::Iterator::FirstInNode() const {
  if (!rev_) {
    ListPack::Pos p = master_fields_;
    for (int64_t i = 0; i < master_fields_count_; ++i) p = lp_->Next(p);
    return lp_->Next(p);
  }
  ListPack::Pos p = lp_->Last();
  int64_t lp_count = IntAt(p);
  if (lp_count == 0) return ListPack::npos;
  while (lp_count-- > 0) p = lp_->Prev(p);
  return p;
}

bool Stream::Iterator::Next(StreamId* id, int64_t* num_fields) {
  while (!done_) {
    ListPack::Pos p;
    if (lp_ == nullptr) {
      if (!EnterNode()) {
        done_ = true;
        return false;
      }
      p = FirstInNode();
    } else if (!rev_) {
      EntryHeader h{
          same_fields_ ? kFlagSameFields : kFlagNone, {}, entry_num_fields_, entry_fields_};
      p = AfterEntry(*lp_, h);
    } else {
      p = lp_->Prev(entry_);  // the previous entry's lp-count, or the master terminator
      int64_t lp_count = IntAt(p);
      if (lp_count == 0) {
        p = ListPack::npos;
      } else {
        while (lp_count-- > 0) p = lp_->Prev(p);
      }
    }
    if (p == ListPack::npos) {
      lp_ = nullptr;
      continue;
    }
    const EntryHeader h = ReadEntry(*lp_, p, master_id_, master_fields_count_);
    entry_ = p;
    entry_fields_ = h.fields;
    entry_num_fields_ = h.num_fields;
    same_fields_ = h.flags & kFlagSameFields;
    if (h.flags & kFlagDeleted) continue;
    if (!rev_) {
      if (h.id < start_) continue;
      if (h.id > end_) break;
    } else {
      if (h.id > end_) continue;
      if (h.id < start_) break;
    }
    *id = h.id;
    *num_fields = h.num_fields;
    field_cursor_ = h.fields;
    master_field_cursor_ = master_fields_;
    return true;
  }
  done_ = true;
  return false;
}

void Stream::Iterator::NextField(ListPackValue* field, ListPackValue* value) {
  if (same_fields_) {
    *field = lp_->Get(master_field_cursor_);
    master_field_cursor_ = lp_->Next(master_field_cursor_);
  } else {
    *field = lp_->Get(field_cursor_);
    field_cursor_ = lp_->Next(field_cursor_);
  }
  *value = lp_->Get(field_cursor_);
  field_cursor_ = lp_->Next(field_cursor_);
}

// ---- Groups' read counters ----

bool Stream::RangeHasTombstones(StreamId start, StreamId end) const {
  if (length_ == 0 || max_deleted_id_.IsZero()) return false;
  if (first_id_ > max_deleted_id_) return false;
  return start <= max_deleted_id_ && max_deleted_id_ <= end;
}

int64_t Stream::EstimateDistanceFromFirstEver(StreamId id) const {
  if (entries_added_ == 0) return 0;
  if (length_ == 0 && id <= last_id_) return static_cast<int64_t>(entries_added_);
  if (id == last_id_) return static_cast<int64_t>(entries_added_);
  if (id > last_id_) return StreamGroup::kInvalidEntriesRead;
  if (max_deleted_id_.IsZero() || max_deleted_id_ < first_id_) {
    if (id < first_id_) return static_cast<int64_t>(entries_added_ - length_);
    if (id == first_id_) return static_cast<int64_t>(entries_added_ - length_ + 1);
  }
  return StreamGroup::kInvalidEntriesRead;
}

void Stream::AdvanceGroup(StreamGroup& g, StreamId id) const {
  if (g.entries_read != StreamGroup::kInvalidEntriesRead &&
      !RangeHasTombstones(id, StreamId::Max())) {
    ++g.entries_read;
  } else if (entries_added_ != 0) {
    g.entries_read = EstimateDistanceFromFirstEver(id);
  }
  g.last_id = id;
}

std::optional<int64_t> Stream::GroupLag(const StreamGroup& g) const {
  if (entries_added_ == 0) return 0;
  if (g.entries_read != StreamGroup::kInvalidEntriesRead &&
      !RangeHasTombstones(g.last_id, StreamId::Max())) {
    return static_cast<int64_t>(entries_added_) - g.entries_read;
  }
  const int64_t read = EstimateDistanceFromFirstEver(g.last_id);
  if (read == StreamGroup::kInvalidEntriesRead) return std::nullopt;
  return static_cast<int64_t>(entries_added_) - read;
}

// ---- Aggregate ----

std::unique_ptr<Aggregate> Stream::Clone() const {
  auto c = std::make_unique<Stream>();
  for (const auto& [id, lp] : nodes_) c->nodes_.emplace_hint(c->nodes_.end(), id, lp.Clone());
  c->length_ = length_;
  c->last_id_ = last_id_;
  c->first_id_ = first_id_;
  c->max_deleted_id_ = max_deleted_id_;
  c->entries_added_ = entries_added_;
  for (const auto& [name, g] : groups_) {
    StreamGroup* ng = c->CreateGroup(name, g->last_id, g->entries_read);
    for (const auto& [cname, consumer] : g->consumers) {
      StreamConsumer* nc = ng->CreateConsumer(cname, consumer->seen_time);
      nc->pel = consumer->pel;
    }
    for (const auto& [id, nack] : g->pel) {
      StreamNack& n = ng->pel[id];
      n.delivery_time = nack.delivery_time;
      n.delivery_count = nack.delivery_count;
      n.consumer = ng->FindConsumer(nack.consumer->name);
    }
  }
  return c;
}

size_t Stream::AllocatedBytes(size_t /*samples*/) const {
  // A std::map node: three pointers and a colour word, then the key and value.
  constexpr size_t kMapNode = 32;
  // The B-tree's slots (about 3/4 full on average), then each node's block.
  size_t n = nodes_.size() * (sizeof(StreamId) + sizeof(ListPack)) * 4 / 3;
  for (const auto& [id, lp] : nodes_) n += lp.allocated();
  for (const auto& [name, g] : groups_) {
    n += kMapNode + sizeof(std::string) + sizeof(void*) + sizeof(StreamGroup) + name.size();
    n += g->pel.size() * (kMapNode + sizeof(StreamId) + sizeof(StreamNack));
    for (const auto& [cname, c] : g->consumers) {
      n += 2 * (kMapNode + sizeof(std::string)) + sizeof(StreamConsumer) + 2 * cname.size();
      n += c->pel.size() * (kMapNode + sizeof(StreamId));
    }
  }
  return n;
}

bool Stream::ReleaseSome(size_t budget) {
  if (!nodes_.empty()) {
    auto end = nodes_.begin();
    for (; end != nodes_.end() && budget > 0; --budget) ++end;
    nodes_.erase(nodes_.begin(), end);
  }
  while (!groups_.empty() && budget > 0) {
    StreamGroup& g = *groups_.begin()->second;
    if (!g.pel.empty()) {
      auto end = g.pel.begin();
      for (; end != g.pel.end() && budget > 0; --budget) ++end;
      g.pel.erase(g.pel.begin(), end);
    } else if (!g.consumers.empty()) {
      StreamConsumer& c = *g.consumers.begin()->second;
      auto end = c.pel.begin();
      for (; end != c.pel.end() && budget > 0; --budget) ++end;
      c.pel.erase(c.pel.begin(), end);
      if (c.pel.empty() && budget > 0) {
        g.consumers.erase(g.consumers.begin());
        --budget;
      }
    } else {
      groups_.erase(groups_.begin());
      --budget;
    }
  }
  return nodes_.empty() && groups_.empty();
}

size_t Stream::FreeEffort() const {
  size_t effort = nodes_.size();
  for (const auto& [name, g] : groups_) effort += 1 + g->pel.size();
  return effort;
}

}  // namespace kv
