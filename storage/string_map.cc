#include "storage/string_map.h"

#include <malloc.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "storage/drop_pages.h"
#include "storage/key_hash.h"

namespace kv {
namespace {

constexpr size_t kNextBytes = sizeof(void*);

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

char* PutVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline const char* GetVarint(const char* p, uint64_t* v) {
  if (static_cast<unsigned char>(*p) < 0x80) {  // the usual case: under 128 bytes
    *v = static_cast<unsigned char>(*p);
    return p + 1;
  }
  uint64_t result = 0;
  int shift = 0;
  for (;;) {
    const auto byte = static_cast<unsigned char>(*p++);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
    shift += 7;
  }
  *v = result;
  return p;
}

void* Allocate(size_t bytes) {
  void* p = std::malloc(bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

size_t NextPowerOfTwo(size_t n) { return std::bit_ceil(std::max<size_t>(n, 1)); }

uint64_t ReverseBits(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(v);
}

}  // namespace

StringMap::Node* StringMap::Next(const Node* n) {
  Node* next;
  std::memcpy(&next, n, kNextBytes);
  return next;
}

void StringMap::SetNext(Node* n, Node* next) { std::memcpy(n, &next, kNextBytes); }

StringMap::Entry StringMap::Decode(const Node* n) {
  uint64_t field_len;
  uint64_t value_len;
  const char* p = GetVarint(n + kNextBytes, &field_len);
  p = GetVarint(p, &value_len);
  return {{p, field_len}, {p + field_len, value_len}};
}

size_t StringMap::NodeBytes(std::string_view field, std::string_view value) {
  return kNextBytes + VarintSize(field.size()) + VarintSize(value.size()) + field.size() +
         value.size();
}

StringMap::Node* StringMap::NewNode(std::string_view field, std::string_view value, Node* next) {
  auto* n = static_cast<Node*>(Allocate(NodeBytes(field, value)));
  SetNext(n, next);
  char* p = PutVarint(n + kNextBytes, field.size());
  p = PutVarint(p, value.size());
  if (!field.empty()) std::memcpy(p, field.data(), field.size());
  if (!value.empty()) std::memcpy(p + field.size(), value.data(), value.size());
  return n;
}

size_t StringMap::Hash(std::string_view field) { return KeyHash{}(field); }

StringMap::StringMap(StringMap&& other) noexcept
    : tables_{other.tables_[0], other.tables_[1]}, rehash_index_(other.rehash_index_) {
  other.tables_[0] = Table{};
  other.tables_[1] = Table{};
  other.rehash_index_ = -1;
}

StringMap& StringMap::operator=(StringMap&& other) noexcept {
  if (this != &other) {
    Clear();
    tables_[0] = std::exchange(other.tables_[0], Table{});
    tables_[1] = std::exchange(other.tables_[1], Table{});
    rehash_index_ = std::exchange(other.rehash_index_, -1);
  }
  return *this;
}

StringMap::~StringMap() { Clear(); }

void StringMap::FreeTable(Table& t) {
  for (size_t i = 0; i < t.size(); ++i) {
    for (Node* n = t.buckets[i]; n != nullptr;) {
      Node* next = Next(n);
      std::free(n);
      n = next;
    }
  }
  std::free(t.buckets);
  t = Table{};
}

void StringMap::Clear() {
  FreeTable(tables_[0]);
  FreeTable(tables_[1]);
  rehash_index_ = -1;
}

bool StringMap::ReleaseSome(size_t budget) {
  // A table's mask becomes its last bucket not freed yet (no longer a mask), so that FreeTable
  // frees the rest.
  for (Table* t : {&tables_[1], &tables_[0]}) {
    while (t->buckets != nullptr) {
      Node*& bucket = t->buckets[t->mask];
      for (; bucket != nullptr && budget > 0; --budget) {
        Node* next = Next(bucket);
        std::free(bucket);
        bucket = next;
        --t->used;
      }
      if (budget == 0) return false;
      --budget;
      if (t->mask == 0) {
        std::free(t->buckets);
        *t = Table{};
        continue;
      }
      // Every kDropBuckets buckets (tables are powers of two, so a whole run lies inside), the
      // pages of the buckets done with go back to the OS: freeing a huge array whose pages are
      // all mapped would stall the thread in munmap at the last step.
      constexpr size_t kDropBuckets = 64 * 1024;
      if (t->mask % kDropBuckets == 0) {
        DropPages(t->buckets + t->mask, t->buckets + t->mask + kDropBuckets);
      }
      --t->mask;
    }
  }
  rehash_index_ = -1;
  return true;
}

void StringMap::Reserve(size_t n) {
  if (rehashing() || n <= tables_[0].size()) return;
  Resize(n);
}

void StringMap::Resize(size_t n) {
  const size_t size = NextPowerOfTwo(std::max(n, kInitialSize));
  if (size == tables_[0].size()) return;
  Table fresh;
  fresh.buckets = static_cast<Node**>(std::calloc(size, sizeof(Node*)));
  if (fresh.buckets == nullptr) throw std::bad_alloc();
  fresh.mask = size - 1;
  if (tables_[0].buckets == nullptr) {
    tables_[0] = fresh;  // the first table: nothing to move
    return;
  }
  tables_[1] = fresh;
  rehash_index_ = 0;
}

void StringMap::RehashStep(size_t buckets) {
  if (!rehashing()) return;
  Table& from = tables_[0];
  Table& to = tables_[1];
  size_t empty_visits = buckets * 10;
  while (buckets-- > 0 && from.used != 0) {
    while (from.buckets[rehash_index_] == nullptr) {
      ++rehash_index_;
      if (--empty_visits == 0) return;
    }
    Node* n = from.buckets[rehash_index_];
    while (n != nullptr) {
      Node* next = Next(n);
      const size_t b = Hash(Decode(n).field) & to.mask;
      SetNext(n, to.buckets[b]);
      to.buckets[b] = n;
      --from.used;
      ++to.used;
      n = next;
    }
    from.buckets[rehash_index_++] = nullptr;
  }
  if (from.used == 0) {
    std::free(from.buckets);
    tables_[0] = to;
    tables_[1] = Table{};
    rehash_index_ = -1;
  }
}

void StringMap::GrowIfNeeded() {
  if (rehashing()) return;
  const Table& t = tables_[0];
  if (t.buckets == nullptr) {
    Resize(kInitialSize);
  } else if (t.used >= t.size()) {
    Resize(t.used + 1);
  }
}

void StringMap::ShrinkIfNeeded() {
  if (rehashing()) return;
  const Table& t = tables_[0];
  if (t.size() > kInitialSize && t.used * 100 / t.size() < kMinFillPercent) Resize(t.used);
}

StringMap::Node** StringMap::FindLink(std::string_view field, size_t hash) const {
  for (int i = 0; i < 2; ++i) {
    const Table& t = tables_[i];
    if (t.used == 0) continue;
    Node** link = &t.buckets[hash & t.mask];
    while (*link != nullptr) {
      // The field's length first (most nodes of a chain differ there), then its bytes.
      const char* header = *link + kNextBytes;
      uint64_t field_len;
      const char* p = GetVarint(header, &field_len);
      if (field_len == field.size()) {
        while (static_cast<unsigned char>(*p++) >= 0x80) {
        }  // skips the value's length
        if (std::memcmp(p, field.data(), field.size()) == 0) return link;
      }
      link = reinterpret_cast<Node**>(*link);  // the node's first word is its next pointer
    }
    if (!rehashing()) break;
  }
  return nullptr;
}

bool StringMap::Find(std::string_view field, std::string_view* value) {
  if (rehashing()) RehashStep(1);
  return std::as_const(*this).Find(field, value);
}

bool StringMap::Find(std::string_view field, std::string_view* value) const {
  if (empty()) return false;
  Node** link = FindLink(field, Hash(field));
  if (link == nullptr) return false;
  *value = Decode(*link).value;
  return true;
}

bool StringMap::Set(std::string_view field, std::string_view value) {
  if (rehashing()) RehashStep(1);
  const size_t hash = Hash(field);
  if (Node** link = FindLink(field, hash)) {
    Node* n = *link;
    const size_t need = NodeBytes(field, value);
    const size_t have = malloc_usable_size(n);
    if (need <= have && need > have / 2) {
      // Rewrite in place. The value's length may take another varint size: the field moves
      // first, then the header is written over where it was.
      const Entry old = Decode(n);
      char* header = n + kNextBytes;
      char* field_at = header + VarintSize(field.size()) + VarintSize(value.size());
      std::memmove(field_at, old.field.data(), field.size());
      PutVarint(PutVarint(header, field.size()), value.size());
      if (!value.empty()) std::memmove(field_at + field.size(), value.data(), value.size());
    } else {
      Node* fresh = NewNode(field, value, Next(n));
      std::free(n);
      *link = fresh;
    }
    return false;
  }
  GrowIfNeeded();
  Table& t = InsertTable();
  Node*& bucket = t.buckets[hash & t.mask];
  bucket = NewNode(field, value, bucket);
  ++t.used;
  return true;
}

void StringMap::InsertNew(std::string_view field, std::string_view value) {
  if (rehashing()) RehashStep(1);
  GrowIfNeeded();
  Table& t = InsertTable();
  Node*& bucket = t.buckets[Hash(field) & t.mask];
  bucket = NewNode(field, value, bucket);
  ++t.used;
}

bool StringMap::Erase(std::string_view field) {
  if (empty()) return false;
  if (rehashing()) RehashStep(1);
  const size_t hash = Hash(field);
  for (int i = 0; i < 2; ++i) {
    Table& t = tables_[i];
    if (t.used == 0) continue;
    for (Node** link = &t.buckets[hash & t.mask]; *link != nullptr;
         link = reinterpret_cast<Node**>(*link)) {
      const Entry e = Decode(*link);
      if (e.field == field) {
        Node* n = *link;
        *link = Next(n);
        std::free(n);
        --t.used;
        ShrinkIfNeeded();
        return true;
      }
    }
    if (!rehashing()) break;
  }
  return false;
}

StringMap StringMap::Clone() const {
  StringMap copy;
  copy.Reserve(size());
  ForEach([&](const Entry& e) {
    Table& t = copy.tables_[0];
    Node*& bucket = t.buckets[Hash(e.field) & t.mask];
    bucket = NewNode(e.field, e.value, bucket);
    ++t.used;
    return true;
  });
  return copy;
}

void StringMap::ForEach(absl::FunctionRef<bool(const Entry&)> fn) const {
  for (const Table& t : tables_) {
    if (t.used == 0) continue;
    for (size_t i = 0; i < t.size(); ++i) {
      for (const Node* n = t.buckets[i]; n != nullptr; n = Next(n)) {
        if (!fn(Decode(n))) return;
      }
    }
  }
}

uint64_t StringMap::Scan(uint64_t cursor, absl::FunctionRef<void(const Entry&)> fn) const {
  if (empty()) return 0;
  auto visit = [&](const Table& t, uint64_t index) {
    for (const Node* n = t.buckets[index & t.mask]; n != nullptr; n = Next(n)) fn(Decode(n));
  };
  // The cursor's bits are counted from the top (reversed) so that a cursor of a smaller table
  // names the same hash prefix in a bigger one: after growing, the bucket's expansions are
  // visited, after shrinking the buckets folded into it.
  auto advance = [](uint64_t v, uint64_t mask) {
    v |= ~mask;
    v = ReverseBits(v);
    ++v;
    return ReverseBits(v);
  };
  if (!rehashing()) {
    const Table& t = tables_[0];
    visit(t, cursor);
    return advance(cursor, t.mask);
  }
  const Table* small = &tables_[0];
  const Table* large = &tables_[1];
  if (small->size() > large->size()) std::swap(small, large);
  visit(*small, cursor);
  // Then every bucket of the larger table that is an expansion of the smaller one's bucket.
  do {
    visit(*large, cursor);
    cursor = advance(cursor, large->mask);
  } while ((cursor & (small->mask ^ large->mask)) != 0);
  return cursor;
}

StringMap::Entry StringMap::RandomEntry(absl::FunctionRef<uint64_t()> random) const {
  const Table& big = tables_[0].size() >= tables_[1].size() ? tables_[0] : tables_[1];
  const size_t span = big.size();
  const Node* picked[kFairSample];
  for (;;) {
    size_t found = 0;
    size_t index = random() & big.mask;
    // At most ten buckets per wanted field, and never around the whole table twice.
    const size_t max_steps = std::min(span, kFairSample * 10);
    for (size_t step = 0; step < max_steps && found < kFairSample; ++step) {
      for (int i = 0; i < 2 && found < kFairSample; ++i) {
        const Table& t = tables_[i];
        if (t.used == 0 || index >= t.size()) continue;
        if (i == 0 && rehashing() && static_cast<int64_t>(index) < rehash_index_) continue;
        for (const Node* n = t.buckets[index]; n != nullptr && found < kFairSample; n = Next(n)) {
          picked[found++] = n;
        }
      }
      index = (index + 1) & big.mask;
    }
    if (found > 0) return Decode(picked[random() % found]);
  }
}

size_t StringMap::AllocatedBytes(size_t samples) const {
  size_t bytes = 0;
  for (const Table& t : tables_) {
    if (t.buckets != nullptr) bytes += malloc_usable_size(t.buckets);
  }
  size_t measured = 0;
  size_t node_bytes = 0;
  [&] {
    for (const Table& t : tables_) {
      for (size_t i = 0; i < t.size(); ++i) {
        for (Node* n = t.buckets[i]; n != nullptr; n = Next(n)) {
          if (samples != 0 && measured == samples) return;
          node_bytes += malloc_usable_size(n);
          ++measured;
        }
      }
    }
  }();
  if (measured == 0) return bytes;
  return bytes + node_bytes * size() / measured;
}

TableStats StringMap::Stats(int table) const {
  const Table& t = tables_[table];
  TableStats stats;
  stats.table_size = t.size();
  stats.elements = t.used;
  for (size_t b = 0; b < t.size(); ++b) {
    size_t chain = 0;
    for (const Node* n = t.buckets[b]; n != nullptr; n = Next(n)) ++chain;
    stats.AddChain(chain);
  }
  stats.Finish();
  return stats;
}

}  // namespace kv
