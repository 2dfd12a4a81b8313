// Micro-benchmarks of the request path's pieces: parsing, reply encoding, keyspace operations.
// Run: build/bench/micro_bench (configure with -DKV_BUILD_BENCH=ON).

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "protocol/resp_parser.h"
#include "storage/db.h"

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

}  // namespace
}  // namespace kv
