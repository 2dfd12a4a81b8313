// Micro-benchmarks of the request path's pieces: parsing, reply encoding, keyspace operations,
// and the compact containers small lists, hashes and sets live in (ListPack, IntSet).
// Run: build/bench/micro_bench (configure with -DKV_BUILD_BENCH=ON).

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "protocol/resp_parser.h"
#include "storage/db.h"
#include "storage/intset.h"
#include "storage/listpack.h"

namespace kv {
namespace {

// A pipeline of `n` "SET key:NNN <value>" commands, as redis-benchmark -P sends them.
std::string SetPipeline(int n, size_t value_size) {
  std::string out;
  const std::string value(value_size, 'x');
  for (int i = 0; i < n; ++i) {
    std::string key = "key:" + std::to_string(i);
    out += "*3\r\n$3\r\nSET\r\n$" + std::to_string(key.size()) + "\r\n" + key + "\r\n$" +
           std::to_string(value.size()) + "\r\n" + value + "\r\n";
  }
  return out;
}

void BM_ParseSetPipeline(benchmark::State& state) {
  const std::string input = SetPipeline(64, static_cast<size_t>(state.range(0)));
  ParserLimits limits;
  RespParser parser(&limits);
  for (auto _ : state) {
    std::string_view rest = input;
    size_t commands = 0;
    while (!rest.empty()) {
      size_t consumed = 0;
      if (parser.Parse(rest, &consumed) != RespParser::Status::kCommand) break;
      benchmark::DoNotOptimize(parser.args().data());
      rest.remove_prefix(consumed);
      ++commands;
    }
    benchmark::DoNotOptimize(commands);
  }
  state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK(BM_ParseSetPipeline)->Arg(3)->Arg(1024);

void BM_ParseInline(benchmark::State& state) {
  const std::string input = "PING\r\n";
  ParserLimits limits;
  RespParser parser(&limits);
  for (auto _ : state) {
    size_t consumed = 0;
    benchmark::DoNotOptimize(parser.Parse(input, &consumed));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseInline);

void BM_ReplyBulk(benchmark::State& state) {
  IoBuffer out;
  ReplyWriter writer(&out);
  const std::string value(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    writer.Bulk(value);
    writer.Ok();
    writer.Integer(12345);
    out.Clear();
  }
  state.SetItemsProcessed(state.iterations() * 3);
}
BENCHMARK(BM_ReplyBulk)->Arg(3)->Arg(1024);

void BM_DbSetGet(benchmark::State& state) {
  Db db;
  const int keys = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i < keys; ++i) names.push_back("key:" + std::to_string(i));
  const std::string value(64, 'v');
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = names[i++ % names.size()];
    db.SetString(k, value);
    benchmark::DoNotOptimize(db.Find(k, 0));
  }
  state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(BM_DbSetGet)->Arg(1000)->Arg(1000000);

// Lookups of present keys only (GET's path) and overwrites of present keys (SET's path).
void BM_DbFind(benchmark::State& state) {
  Db db;
  const int keys = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i < keys; ++i) names.push_back("key:" + std::to_string(i));
  for (const std::string& k : names) db.SetString(k, "v");
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(db.Find(names[i++ % names.size()], 0));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DbFind)->Arg(1000)->Arg(1000000);

void BM_DbSetExisting(benchmark::State& state) {
  Db db;
  const int keys = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i < keys; ++i) names.push_back("key:" + std::to_string(i));
  const std::string value(16, 'v');
  for (const std::string& k : names) db.SetString(k, value);
  size_t i = 0;
  for (auto _ : state) db.SetString(names[i++ % names.size()], value);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DbSetExisting)->Arg(1000)->Arg(1000000);

// Inserting into an empty Db until it holds state.range(0) keys: growth, including rehashes
// (one table) or segment splits.
void BM_DbInsertFresh(benchmark::State& state) {
  const int keys = static_cast<int>(state.range(0));
  std::vector<std::string> names;
  for (int i = 0; i < keys; ++i) names.push_back("key:" + std::to_string(i));
  for (auto _ : state) {
    Db db;
    for (const std::string& k : names) db.SetString(k, "v");
    benchmark::DoNotOptimize(db.size());
  }
  state.SetItemsProcessed(state.iterations() * keys);
}
BENCHMARK(BM_DbInsertFresh)->Arg(1000000)->Unit(benchmark::kMillisecond);

// 128 elements as a small list or hash holds them: short strings and integers of mixed widths.
std::vector<std::string> ListPackElements() {
  std::vector<std::string> out;
  for (int i = 0; i < 128; ++i) {
    switch (i % 4) {
      case 0:
        out.push_back("field:" + std::to_string(i));
        break;
      case 1:
        out.push_back(std::to_string(i * 7919));
        break;
      case 2:
        out.push_back(std::string(16 + i % 32, 'v'));
        break;
      default:
        out.push_back(std::to_string(i));
    }
  }
  return out;
}

ListPack ListPackOf(const std::vector<std::string>& elements) {
  ListPack lp;
  for (const std::string& e : elements) lp.Append(e);
  return lp;
}

// Building a 128-element list pack from empty, one Append at a time (RPUSH of one argument).
void BM_ListPackAppend(benchmark::State& state) {
  const std::vector<std::string> elements = ListPackElements();
  for (auto _ : state) {
    ListPack lp;
    for (const std::string& e : elements) lp.Append(e);
    benchmark::DoNotOptimize(lp.data());
  }
  state.SetItemsProcessed(state.iterations() * 128);
}
BENCHMARK(BM_ListPackAppend);

// The same with one AppendMany (RPUSH of 128 arguments).
void BM_ListPackAppendMany(benchmark::State& state) {
  const std::vector<std::string> elements = ListPackElements();
  const std::vector<std::string_view> views(elements.begin(), elements.end());
  for (auto _ : state) {
    ListPack lp;
    lp.AppendMany(views);
    benchmark::DoNotOptimize(lp.data());
  }
  state.SetItemsProcessed(state.iterations() * 128);
}
BENCHMARK(BM_ListPackAppendMany);

// Reading every element (LRANGE 0 -1, HGETALL), forward or (range(0) == 1) backward.
void BM_ListPackIterate(benchmark::State& state) {
  const ListPack lp = ListPackOf(ListPackElements());
  const bool backward = state.range(0) == 1;
  for (auto _ : state) {
    size_t sum = 0;
    if (backward) {
      for (ListPackValue v : lp.Reversed())
        sum += v.is_int ? static_cast<size_t>(v.num) : v.str.size();
    } else {
      for (ListPackValue v : lp) sum += v.is_int ? static_cast<size_t>(v.num) : v.str.size();
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 128);
}
BENCHMARK(BM_ListPackIterate)->Arg(0)->Arg(1);

// LINDEX at random indexes, both signs.
void BM_ListPackSeek(benchmark::State& state) {
  const ListPack lp = ListPackOf(ListPackElements());
  std::mt19937 rng(1);
  std::vector<long> indexes(1024);
  for (long& i : indexes) i = static_cast<long>(rng() % 256) - 128;
  size_t n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(lp.Get(lp.Seek(indexes[n++ % indexes.size()])));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ListPackSeek);

// HGET's lookup in a 64-field hash: fields only (skip 1), a string field, an integer field, and
// a miss, in turn.
void BM_ListPackFind(benchmark::State& state) {
  const std::vector<std::string> elements = ListPackElements();
  const ListPack lp = ListPackOf(elements);
  const std::string wanted[] = {elements[100], elements[62], "absent"};
  size_t n = 0;
  for (auto _ : state) benchmark::DoNotOptimize(lp.Find(lp.First(), wanted[n++ % 3], 1));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ListPackFind);

// Building a 512-value intset (SADD of set-max-intset-entries values) in random order.
void BM_IntSetAdd(benchmark::State& state) {
  std::mt19937_64 rng(2);
  std::vector<int64_t> values(512);
  for (int64_t& v : values) v = static_cast<int64_t>(rng() % 1000000);
  for (auto _ : state) {
    IntSet set;
    for (int64_t v : values) set.Add(v);
    benchmark::DoNotOptimize(set.data());
  }
  state.SetItemsProcessed(state.iterations() * 512);
}
BENCHMARK(BM_IntSetAdd);

// SISMEMBER on a 512-value intset, half hits.
void BM_IntSetContains(benchmark::State& state) {
  std::mt19937_64 rng(3);
  IntSet set;
  std::vector<int64_t> probes;
  for (int i = 0; i < 512; ++i) {
    const auto v = static_cast<int64_t>(rng() % 1000000);
    set.Add(v);
    probes.push_back(v);
    probes.push_back(static_cast<int64_t>(rng() % 1000000));
  }
  size_t n = 0;
  for (auto _ : state) benchmark::DoNotOptimize(set.Contains(probes[n++ % probes.size()]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IntSetContains);

}  // namespace
}  // namespace kv
