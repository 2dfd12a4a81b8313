#include "storage/db.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "storage/drop_pages.h"

namespace kv {

static_assert(sizeof(size_t) == 8, "segments are chosen by the top bits of a 64-bit hash");

Db::Db() {
  segments_.push_back(std::make_unique<Segment>());
  dir_.push_back(segments_.back().get());
}

bool Db::EraseKey(std::string_view key, bool lazy) {
  const size_t h = KeyHash{}(key);
  Map& map = SegmentFor(h).map;
  auto it = map.find(PrehashedKey{key, h});
  if (it == map.end()) return false;
  if (lazy && freer_ != nullptr && !(*it)->is_string()) {
    freer_->FreeValue(std::move((*it)->Detach().aggregate));
  }
  map.erase(it);
  --size_;
  return true;
}

bool Db::ExpireVolatile(std::string_view key, int64_t now_ms, bool keep) {
  auto it = expires_.find(key);
  // Redis's keyIsExpired(): a key is expired once the time is past its deadline, so at the
  // deadline itself it still exists (with a TTL of 0).
  if (it == expires_.end() || it->second >= now_ms || expiry_suspended_) return false;
  if (keep) return true;
  expires_.erase(it);
  EraseKey(key, lazy_expire_);
  ++expired_keys_;
  if (observer_ != nullptr) observer_->KeyExpired(index_, key);
  return true;
}

Value* Db::Peek(std::string_view key, int64_t now_ms) {
  if (ExpireIfNeeded(key, now_ms)) return nullptr;
  const size_t h = KeyHash{}(key);
  Map& map = SegmentFor(h).map;
  auto it = map.find(PrehashedKey{key, h});
  return it == map.end() ? nullptr : &(*it)->value();
}

bool Db::Contains(std::string_view key) const {
  const size_t h = KeyHash{}(key);
  const Map& map = SegmentFor(h).map;
  return map.find(PrehashedKey{key, h}) != map.end();
}

Value* Db::Find(std::string_view key, int64_t now_ms) {
  Value* v = Peek(key, now_ms);
  if (v != nullptr) Touch(*v);
  return v;
}

void Db::Split(size_t hash) {
  Segment& old = SegmentFor(hash);
  if (old.depth == 64) return;
  if (old.depth == depth_) {
    // The directory doubles: every entry becomes two consecutive ones.
    std::vector<Segment*> bigger(dir_.size() * 2);
    for (size_t i = 0; i < dir_.size(); ++i) bigger[2 * i] = bigger[2 * i + 1] = dir_[i];
    dir_.swap(bigger);
    ++depth_;
  }
  auto lo = std::make_unique<Segment>();
  auto hi = std::make_unique<Segment>();
  lo->depth = hi->depth = old.depth + 1;
  lo->map.reserve(kMaxSegmentSize);
  hi->map.reserve(kMaxSegmentSize);
  const int bit = 63 - old.depth;  // the first hash bit after the segment's prefix
  for (auto it = old.map.begin(); it != old.map.end();) {
    auto node = old.map.extract(it++);
    const size_t h = KeyHash{}(node.value()->key());
    ((h >> bit) & 1 ? hi : lo)->map.insert(std::move(node));
  }
  // The old segment filled 2^(depth_ - old.depth) consecutive entries: the first half goes to
  // lo, the second to hi.
  const size_t span = size_t{1} << (depth_ - old.depth);
  const size_t start = DirIndex(hash) & ~(span - 1);
  for (size_t i = 0; i < span; ++i) dir_[start + i] = i < span / 2 ? lo.get() : hi.get();
  const size_t slot = old.slot;
  lo->slot = slot;
  hi->slot = segments_.size();
  segments_[slot] = std::move(lo);  // frees the old segment
  segments_.push_back(std::move(hi));
}

std::pair<Value*, bool> Db::Insert(std::string_view key, const std::string_view* str) {
  const size_t h = KeyHash{}(key);
  Segment* seg = &SegmentFor(h);
  if (seg->map.size() >= kMaxSegmentSize) {
    // A full segment splits before the insert: inserting first would make the map grow (and
    // rehash every key) only for the split to rehash them all again.
    auto it = seg->map.find(PrehashedKey{key, h});
    if (it != seg->map.end()) return {&(*it)->value(), false};
    Split(h);
    seg = &SegmentFor(h);
  }
  bool inserted = false;
  auto it = seg->map.lazy_emplace(PrehashedKey{key, h}, [&](const auto& construct) {
    construct(str != nullptr ? Entry::Make(key, *str) : Entry::Make(key));
    inserted = true;
  });
  if (inserted) {
    ++size_;
    // Redis's dbAdd notifies "new" as the key appears, before the command's own event.
    if (report_additions_ && observer_ != nullptr) observer_->KeyAdded(index_, key);
  }
  return {&(*it)->value(), inserted};
}

void Db::SetString(std::string_view key, std::string_view value, int64_t expire_at_ms,
                   bool keep_ttl) {
  ExpireBeforeStore(key, now_ms_);
  auto [v, inserted] = Insert(key, &value);
  if (inserted) {
    InitLru(*v);
  } else {
    ReleaseOverwritten(*v);
    v->SetString(value);
    // Redis's SET replaces the object, which keeps the old LFU data (dbOverwrite) or takes the
    // LRU clock.
    if (!lfu_) v->set_lru(LruClock());
  }
  if (expire_at_ms != kNoExpiry) {
    expires_.insert_or_assign(key, expire_at_ms);
  } else if (!inserted && !keep_ttl && !expires_.empty()) {
    expires_.erase(key);
  }
}

Value& Db::FindOrInsert(std::string_view key, int64_t now_ms, bool* inserted) {
  ExpireBeforeStore(key, now_ms);
  auto [v, fresh] = Insert(key);
  *inserted = fresh;
  if (fresh) {
    InitLru(*v);
  } else {
    Touch(*v);
  }
  return *v;
}

void Db::Put(std::string_view key, DetachedValue value, int64_t expire_at_ms) {
  // Sized for the string when it can be embedded, so that Adopt finds room for it.
  const std::string_view str = value.str.view();
  ExpireBeforeStore(key, now_ms_);
  auto [v, inserted] = Insert(key, str.size() <= Value::kMaxEmbedded ? &str : nullptr);
  if (!inserted) ReleaseOverwritten(*v);
  Store(key, *v, std::move(value), expire_at_ms, inserted);
}

Value* Db::AddNew(std::string_view key, DetachedValue& value, int64_t expire_at_ms) {
  const std::string_view str = value.str.view();
  auto [v, inserted] = Insert(key, str.size() <= Value::kMaxEmbedded ? &str : nullptr);
  if (!inserted) return nullptr;
  Store(key, *v, std::move(value), expire_at_ms, true);
  return v;
}

Value* Db::AddNewString(std::string_view key, std::string_view str, int64_t expire_at_ms) {
  auto [v, inserted] = Insert(key, &str);
  if (!inserted) return nullptr;
  InitLru(*v);
  if (expire_at_ms != kNoExpiry) expires_.insert_or_assign(key, expire_at_ms);
  return v;
}

void Db::Store(std::string_view key, Value& v, DetachedValue value, int64_t expire_at_ms,
               bool inserted) {
  const uint32_t lru = value.lru;
  v.Adopt(std::move(value));
  if (lru == DetachedValue::kFreshLru) {
    InitLru(v);
  } else {
    v.set_lru(lru);
  }
  if (expire_at_ms != kNoExpiry) {
    expires_.insert_or_assign(key, expire_at_ms);
  } else if (!inserted && !expires_.empty()) {
    expires_.erase(key);
  }
}

void Db::Reserve(size_t keys, size_t volatile_keys) {
  if (size_ != 0) return;
  // Segments a quarter below the split size, as a split leaves them half full or more; at most
  // 2^16 of them, whatever a file claims.
  constexpr size_t kFill = kMaxSegmentSize * 3 / 4;
  constexpr int kMaxDepth = 16;
  int depth = 0;
  while (depth < kMaxDepth && (keys >> depth) > kFill) ++depth;
  const size_t count = size_t{1} << depth;
  segments_.clear();
  dir_.assign(count, nullptr);
  for (size_t i = 0; i < count; ++i) {
    segments_.push_back(std::make_unique<Segment>());
    Segment& seg = *segments_.back();
    seg.depth = depth;
    seg.slot = i;
    seg.map.reserve(std::min(keys >> depth, kMaxSegmentSize));
    dir_[i] = &seg;
  }
  depth_ = depth;
  expires_.reserve(std::min(volatile_keys, keys));
}

bool Db::Take(std::string_view key, int64_t now_ms, DetachedValue* value, int64_t* expire_at_ms) {
  if (ExpireIfNeeded(key, now_ms)) return false;
  const size_t h = KeyHash{}(key);
  Map& map = SegmentFor(h).map;
  auto it = map.find(PrehashedKey{key, h});
  if (it == map.end()) return false;
  *value = (*it)->Detach();
  map.erase(it);
  --size_;
  *expire_at_ms = kNoExpiry;
  if (!expires_.empty()) {
    auto e = expires_.find(key);
    if (e != expires_.end()) {
      *expire_at_ms = e->second;
      expires_.erase(e);
    }
  }
  return true;
}

bool Db::Delete(std::string_view key, int64_t now_ms, bool lazy) {
  if (ExpireIfNeeded(key, now_ms)) return false;
  if (!EraseKey(key, lazy)) return false;
  if (!expires_.empty()) expires_.erase(key);
  return true;
}

int64_t Db::GetExpire(std::string_view key) const {
  if (expires_.empty()) return kNoExpiry;
  auto it = expires_.find(key);
  return it == expires_.end() ? kNoExpiry : it->second;
}

bool Db::IsExpired(std::string_view key, int64_t now_ms) const {
  if (expires_.empty() || expiry_suspended_) return false;
  auto it = expires_.find(key);
  return it != expires_.end() && it->second < now_ms;
}

void Db::SetExpire(std::string_view key, int64_t at_ms) { expires_.insert_or_assign(key, at_ms); }

bool Db::Persist(std::string_view key) { return expires_.erase(key) > 0; }

void Db::ForEach(absl::FunctionRef<void(std::string_view key, const Value& value)> fn) const {
  for (const auto& seg : segments_) {
    for (const Entry::Ptr& e : seg->map) fn(e->key(), e->value());
  }
}

uint64_t Db::Scan(uint64_t cursor, absl::FunctionRef<void(std::string_view key)> fn) const {
  const size_t index = DirIndex(cursor);
  const Segment& seg = *dir_[index];
  for (const Entry::Ptr& e : seg.map) fn(e->key());
  const size_t span = size_t{1} << (depth_ - seg.depth);
  const size_t end = (index & ~(span - 1)) + span;
  if (end >= dir_.size()) return 0;
  return static_cast<uint64_t>(end) << (64 - depth_);
}

std::optional<std::string> Db::RandomKey(int64_t now_ms) {
  // Expired keys kept during a pause never leave: past 100 of them, one is returned (as Redis
  // 7.2, where 7.0 loops forever when every key has expired).
  int tries = 100;
  while (size_ > 0) {
    NextRandom();
    // A random directory entry, then the first non-empty segment from there.
    size_t index = static_cast<size_t>(rng_ % dir_.size());
    while (dir_[index]->map.empty()) index = (index + 1) % dir_.size();
    const Map& map = dir_[index]->map;
    auto it = map.begin();
    std::advance(it, static_cast<ptrdiff_t>((rng_ >> 32) % map.size()));
    std::string key((*it)->key());
    if (!ExpireIfNeeded(key, now_ms) || (keep_expired_ && --tries == 0)) return key;
  }
  return std::nullopt;
}

// A flushed database's tables (FLUSHDB/FLUSHALL ASYNC), freed in steps: the keys of one segment
// after another (a big value among them in steps of its own), then the deadlines.
class Db::FlushedTables final : public Releasable {
 public:
  FlushedTables(std::vector<std::unique_ptr<Segment>> segments, ExpireMap expires)
      : segments_(std::move(segments)), expires_(std::move(expires)) {}

  bool ReleaseSome(size_t budget) override {
    while (budget > 0) {
      if (value_ != nullptr) {
        // How much of the budget that took is not known: the next call goes on.
        if (value_->ReleaseSome(budget)) value_.reset();
        return false;
      }
      if (!segments_.empty()) {
        Map& map = segments_.back()->map;
        if (!next_key_) next_key_ = map.begin();
        Map::iterator& it = *next_key_;
        if (it == map.end()) {
          segments_.pop_back();
          next_key_.reset();
        } else {
          Entry& e = **it;
          if (!e.is_string() && e.aggregate()->FreeEffort() > LazyFreeSink::kThreshold) {
            value_ = std::move(e.Detach().aggregate);
          }
          map.erase(it++);  // erasing leaves the other iterators valid
        }
        --budget;
        continue;
      }
      if (!next_deadline_) {
        next_deadline_ = expires_.begin();
        if (!expires_.empty()) first_deadline_ = &*expires_.begin();
      }
      ExpireMap::iterator& it = *next_deadline_;
      if (it == expires_.end()) {
        ExpireMap().swap(expires_);
        return true;
      }
      expires_.erase(it++);
      // The walk goes up the table's slot array: every so often the pages of the slots done
      // with go back to the OS, so that freeing the array at the end (hundreds of MB for ten
      // million deadlines) does not stall in munmap.
      if (++deadlines_erased_ % kDropDeadlines == 0 && it != expires_.end()) {
        DropPages(first_deadline_, &*it);
      }
      --budget;
    }
    return false;
  }

 private:
  std::vector<std::unique_ptr<Segment>> segments_;
  ExpireMap expires_;
  std::optional<Map::iterator> next_key_;  // in segments_.back()
  std::optional<ExpireMap::iterator> next_deadline_;
  static constexpr size_t kDropDeadlines = 64 * 1024;
  const void* first_deadline_ = nullptr;  // the slot of the walk's first deadline
  size_t deadlines_erased_ = 0;
  std::unique_ptr<Aggregate> value_;  // a big value of a key already erased
};

void Db::Clear(bool async) {
  if (async && freer_ != nullptr && size_ > 0) {
    freer_->FreeTables(std::make_unique<FlushedTables>(std::move(segments_), std::move(expires_)),
                       size_);
  }
  // Fresh containers release the memory, which clear() would keep.
  segments_.clear();
  std::vector<Segment*>().swap(dir_);
  segments_.push_back(std::make_unique<Segment>());
  dir_.push_back(segments_.back().get());
  depth_ = 0;
  size_ = 0;
  decltype(expires_)().swap(expires_);
  expire_cursor_.clear();
  sample_cursor_.clear();
  avg_ttl_ms_ = 0;
}

Db::ExpireCycleResult Db::ActiveExpire(int64_t now_ms, size_t max_checks) {
  ExpireCycleResult result;
  if (expires_.empty()) {
    // Like Redis, the estimate starts afresh once there are no volatile keys.
    avg_ttl_ms_ = 0;
    return result;
  }
  auto it = expire_cursor_.empty() ? expires_.end() : expires_.find(expire_cursor_);
  if (it == expires_.end()) it = expires_.begin();
  std::vector<std::string> doomed;
  int64_t ttl_sum = 0, ttl_samples = 0;
  while (result.checked < max_checks) {
    if (it == expires_.end()) it = expires_.begin();
    // As in activeExpireCycleTryExpire(): expired when now > deadline. Only keys with time
    // left count towards the average TTL.
    if (it->second < now_ms) {
      doomed.push_back(it->first.str());
    } else if (it->second > now_ms) {
      ttl_sum += it->second - now_ms;
      ++ttl_samples;
    }
    ++it;
    ++result.checked;
    if (result.checked >= expires_.size()) break;
  }
  if (it == expires_.end()) {
    expire_cursor_.clear();
  } else {
    expire_cursor_.assign(it->first.view());
  }
  for (const std::string& key : doomed) {
    expires_.erase(key);
    EraseKey(key, lazy_expire_);
    if (observer_ != nullptr) observer_->KeyExpired(index_, key);
  }
  if (ttl_samples > 0) {
    const int64_t avg = ttl_sum / ttl_samples;
    if (avg_ttl_ms_ == 0) avg_ttl_ms_ = avg;
    avg_ttl_ms_ = (avg_ttl_ms_ / 50) * 49 + avg / 50;
  }
  // The cursor may have been among the deleted; find() then fails and the walk restarts.
  result.expired = doomed.size();
  expired_keys_ += doomed.size();
  return result;
}

}  // namespace kv
