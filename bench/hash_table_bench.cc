// The big form of a hash against the alternative the design weighed: StringMap (one node per
// field holding its next pointer, field and value, chained from a bucket array; Redis's
// incremental rehash and SCAN cursor) and an absl::flat_hash_set of pointers to one exact-size
// block per field and value (no next pointer, one control byte per slot, but a whole-table rehash
// on growth and no cursor that survives one). Each benchmark reports time per operation and, as
// counters, the bytes per field of every block the structure holds (malloc_usable_size, so run
// it under the server's allocator to compare what the server would count:
// LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libmimalloc.so.2 build/bench/hash_table_bench), and the
// longest single insert (the growth that rehashes most at once).
// Run: build/bench/hash_table_bench (configure with -DKV_BUILD_BENCH=ON).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "storage/key_hash.h"
#include "storage/string_map.h"

namespace kv {
namespace {

// The alternative: exact-size blocks [u32 field length][u32 value length][field][value] in a
// flat_hash_set of their addresses, looked up by field.
class FlatBlockMap {
 public:
  ~FlatBlockMap() {
    for (char* b : set_) std::free(b);
  }
  bool Set(std::string_view field, std::string_view value) {
    auto it = set_.find(field);
    if (it != set_.end()) {
      char* old = *it;
      set_.erase(it);
      std::free(old);
      set_.insert(Make(field, value));
      return false;
    }
    set_.insert(Make(field, value));
    return true;
  }
  bool Find(std::string_view field, std::string_view* value) const {
    auto it = set_.find(field);
    if (it == set_.end()) return false;
    *value = Value(*it);
    return true;
  }
  size_t size() const { return set_.size(); }
  size_t Bytes() const {
    size_t bytes = set_.capacity() * (sizeof(char*) + 1);
    for (char* b : set_) bytes += malloc_usable_size(b);
    return bytes;
  }

 private:
  static std::string_view Field(const char* b) {
    uint32_t n;
    std::memcpy(&n, b, 4);
    return {b + 8, n};
  }
  static std::string_view Value(const char* b) {
    uint32_t f, v;
    std::memcpy(&f, b, 4);
    std::memcpy(&v, b + 4, 4);
    return {b + 8 + f, v};
  }
  static char* Make(std::string_view field, std::string_view value) {
    char* b = static_cast<char*>(std::malloc(8 + field.size() + value.size()));
    const uint32_t f = static_cast<uint32_t>(field.size());
    const uint32_t v = static_cast<uint32_t>(value.size());
    std::memcpy(b, &f, 4);
    std::memcpy(b + 4, &v, 4);
    std::memcpy(b + 8, field.data(), field.size());
    std::memcpy(b + 8 + field.size(), value.data(), value.size());
    return b;
  }
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return KeyHash{}(s); }
    size_t operator()(const char* b) const { return KeyHash{}(Field(b)); }
  };
  struct Eq {
    using is_transparent = void;
    static std::string_view View(std::string_view s) { return s; }
    static std::string_view View(const char* b) { return Field(b); }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return View(a) == View(b);
    }
  };
  absl::flat_hash_set<char*, Hash, Eq> set_;
};

std::vector<std::string> Fields(size_t n) {
  std::vector<std::string> fields;
  fields.reserve(n);
  for (size_t i = 0; i < n; ++i) fields.push_back("field:" + std::to_string(i));
  return fields;
}

const std::string kValue = "value12345";  // 10 bytes, as the memory workload's values

size_t BytesOf(const StringMap& m) { return m.AllocatedBytes(); }
size_t BytesOf(const FlatBlockMap& m) { return m.Bytes(); }

template <typename Map>
void BM_Insert(benchmark::State& state) {
  const auto fields = Fields(static_cast<size_t>(state.range(0)));
  double bytes = 0;
  double worst_us = 0;
  for (auto _ : state) {
    Map m;
    for (const std::string& f : fields) {
      const auto t0 = std::chrono::steady_clock::now();
      m.Set(f, kValue);
      const double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      worst_us = std::max(worst_us, us);
    }
    bytes = static_cast<double>(BytesOf(m)) / static_cast<double>(m.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["bytes_per_field"] = bytes;
  state.counters["worst_insert_us"] = worst_us;
}
BENCHMARK(BM_Insert<StringMap>)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Insert<FlatBlockMap>)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMillisecond);

template <typename Map>
void BM_FindRandom(benchmark::State& state) {
  const auto fields = Fields(static_cast<size_t>(state.range(0)));
  Map m;
  for (const std::string& f : fields) m.Set(f, kValue);
  std::vector<std::string_view> order(fields.begin(), fields.end());
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  size_t i = 0;
  for (auto _ : state) {
    std::string_view v;
    benchmark::DoNotOptimize(m.Find(order[i], &v));
    if (++i == order.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FindRandom<StringMap>)->Arg(1000)->Arg(1000000);
BENCHMARK(BM_FindRandom<FlatBlockMap>)->Arg(1000)->Arg(1000000);

template <typename Map>
void BM_UpdateRandom(benchmark::State& state) {
  const auto fields = Fields(static_cast<size_t>(state.range(0)));
  Map m;
  for (const std::string& f : fields) m.Set(f, kValue);
  std::vector<std::string_view> order(fields.begin(), fields.end());
  std::shuffle(order.begin(), order.end(), std::mt19937_64(2));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.Set(order[i], "value54321"));
    if (++i == order.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpdateRandom<StringMap>)->Arg(1000)->Arg(1000000);
BENCHMARK(BM_UpdateRandom<FlatBlockMap>)->Arg(1000)->Arg(1000000);

void BM_IterateStringMap(benchmark::State& state) {
  const auto fields = Fields(static_cast<size_t>(state.range(0)));
  StringMap m;
  for (const std::string& f : fields) m.Set(f, kValue);
  for (auto _ : state) {
    size_t bytes = 0;
    m.ForEach([&](const StringMap::Entry& e) {
      bytes += e.field.size() + e.value.size();
      return true;
    });
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_IterateStringMap)->Arg(1000)->Arg(1000000);

}  // namespace
}  // namespace kv

BENCHMARK_MAIN();
