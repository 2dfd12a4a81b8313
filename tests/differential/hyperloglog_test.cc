// Differential tests of the HyperLogLog commands against a real redis-server: seeded random
// PFADD/PFMERGE/PFCOUNT sequences under random hll-sparse-max-bytes with the HLL strings compared
// byte for byte (GET), corrupted HLLs (random bytes overwritten, as Redis's own fuzz test)
// getting the same replies, and every error text. KV_HLL_DIFF_SEED=<seed> replays one sequence.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class Generator : public RandomChoices {
 public:
  explicit Generator(uint64_t seed) : RandomChoices(seed) {}

  std::string Key() { return Pick({"h1", "h2", "h3", "nokey"}); }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"CONFIG", "SET", "hll-sparse-max-bytes",
                        Pick({"3000", "3000", "0", "50", "200", "12000"})});
    const size_t n = 10 + Uniform(30);
    while (commands.size() < n) Next(&commands);
    for (const char* key : {"h1", "h2", "h3"}) {
      commands.push_back({"GET", key});
      commands.push_back({"PFCOUNT", key});
    }
    return commands;
  }

  void Next(std::vector<Args>* out) {
    const std::string k = Key();
    switch (Uniform(10)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        Args a = {Case("pfadd"), k};
        const size_t n = Percent(20) ? Uniform(3000) : Uniform(20);
        const uint64_t base = Uniform(100000);
        for (size_t i = 0; i < n; ++i) a.push_back(std::to_string(base + Uniform(n * 2 + 1)));
        out->push_back(a);
        out->push_back({"GET", k});
        break;
      }
      case 4:
        out->push_back({Case("pfcount"), k});
        break;
      case 5:
        out->push_back({Case("pfcount"), k, Key(), Key()});
        break;
      case 6:
        out->push_back({Case("pfmerge"), k, Key(), Key()});
        out->push_back({"GET", k});
        break;
      case 7:
        out->push_back(
            {Case("pfdebug"), Pick({"encoding", "todense", "decode", "getreg", "x"}), k});
        break;
      case 8: {
        // Corrupt a byte past the header (or in it), then use the HLL.
        const std::string pos = std::to_string(Percent(20) ? Uniform(16) : 16 + Uniform(40));
        out->push_back({"SETRANGE", k, pos, std::string(1, static_cast<char>(Uniform(256)))});
        out->push_back({Case(Pick({"pfcount", "pfadd", "pfmerge"})), k, "x" + pos});
        out->push_back({"GET", k});
        break;
      }
      default:
        out->push_back({"APPEND", k, Pick({"", "x", "hello"})});
        out->push_back({Case("pfcount"), k});
        break;
    }
  }
};

class HyperLogLogDifferentialTest : public ConnectedBothServersTest<HyperLogLogDifferentialTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
};

TEST_F(HyperLogLogDifferentialTest, RandomSequencesAndCorruptions) {
  RandomRun run;
  run.name = "hyperloglog differential";
  run.env = "KV_HLL_DIFF";
  run.default_count = 300;
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.kinds = {{"invalid", "INVALIDOBJ"}, {"not hll", "not a valid HyperLogLog"}, {"hll", "HYLL"}};
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

TEST_F(HyperLogLogDifferentialTest, ErrorsAndEncodings) {
  std::vector<Args> commands = {
      {"PFADD", "h"},
      {"GET", "h"},
      {"OBJECT", "ENCODING", "h"},
      {"PFADD", "h"},
      {"PFADD", "h", "a", "b", "c"},
      {"PFCOUNT", "h"},
      {"GET", "h"},
      {"OBJECT", "ENCODING", "h"},
      {"SET", "s", "bar"},
      {"PFADD", "s", "1"},
      {"PFCOUNT", "s"},
      {"PFMERGE", "x", "s"},
      {"PFMERGE", "s", "h"},
      {"ZADD", "z", "1", "a"},
      {"PFADD", "z", "a"},
      {"PFCOUNT", "h", "z"},
      {"PFDEBUG", "getreg", "nokey"},
      {"PFDEBUG", "nosuch", "h"},
      {"PFDEBUG", "decode", "s"},
      {"PFDEBUG", "getreg", "h"},
      {"PFDEBUG", "encoding", "h"},
      {"PFDEBUG", "decode", "h"},
      {"PFDEBUG", "todense", "h"},
      {"PFDEBUG", "todense", "h"},
      {"GET", "h"},
      {"PFDEBUG", "getreg"},
      {"PFSELFTEST", "x"},
      {"PFADD", "c", "a", "b", "c"},
      {"PFCOUNT", "c"},
      {"GETRANGE", "c", "15", "15"},
      {"PFADD", "c", "a", "b", "c"},
      {"GETRANGE", "c", "15", "15"},
      {"PFADD", "c", "1", "2", "3"},
      {"GETRANGE", "c", "15", "15"},
      // Redis's corruption tests: extra bytes, broken magic, unknown encoding, a dense length.
      {"APPEND", "c", "hello"},
      {"PFCOUNT", "c"},
      {"DEL", "c"},
      {"PFADD", "c", "a", "b", "c"},
      {"SETRANGE", "c", "0", "0123"},
      {"PFCOUNT", "c"},
      {"DEL", "c"},
      {"PFADD", "c", "a", "b", "c"},
      {"SETRANGE", "c", "4", "x"},
      {"PFCOUNT", "c"},
      {"DEL", "c"},
      {"PFADD", "c", "a", "b", "c"},
      {"SETRANGE", "c", "4", std::string(1, '\0')},
      {"PFCOUNT", "c"},
      {"SET", "short", "HYLL"},
      {"PFCOUNT", "short"},
      // Runs past the last register after runs covering them all (an XZERO of 16384, then a VAL
      // or a ZERO): Redis as shipped (with the CVE-2025-32023 fix) calls them corrupt everywhere.
      {"DEL", "o"},
      {"PFADD", "o"},
      {"SETRANGE", "o", "18", "\x80"},
      {"PFCOUNT", "o"},
      {"PFCOUNT", "o", "nokey"},
      {"PFMERGE", "o", "nokey"},
      {"PFMERGE", "dst", "o"},
      {"PFDEBUG", "todense", "o"},
      {"PFADD", "o", "a", "b", "c"},
      {"GET", "o"},
      {"DEL", "o"},
      {"PFADD", "o"},
      {"SETRANGE", "o", "18", std::string(1, '\x05')},
      {"PFMERGE", "o", "nokey"},
      {"PFDEBUG", "getreg", "o"},
      // An XZERO opcode in the last byte reads its second byte past the end (Redis's NUL); a split
      // of it leaves the new sequence's last byte there, read back by later commands.
      {"DEL", "t"},
      {"PFADD", "t"},
      {"SETRANGE", "t", "16", "\x5f\xff\x5f"},
      {"PFDEBUG", "decode", "t"},
      {"PFADD", "t", "8"},
      {"GET", "t"},
      {"PFDEBUG", "decode", "t"},
      {"PFADD", "t", "a", "b", "c", "d", "e", "f", "g"},
      {"GET", "t"},
      {"PFDEBUG", "decode", "t"},
      {"PFCOUNT", "t"},
      {"APPEND", "t", "\x7f"},
      {"PFDEBUG", "decode", "t"},
  };
  // An HLL made by Redis and copied in with SET counts the same.
  Args add = {"PFADD", "big"};
  for (int i = 0; i < 20000; ++i) add.push_back("element:" + std::to_string(i));
  commands.push_back(add);
  commands.push_back({"PFCOUNT", "big"});
  commands.push_back({"PFDEBUG", "encoding", "big"});
  commands.push_back({"GET", "big"});
  ExpectSameReplies(commands);
  const std::string dense = redis_conn_->Call({"GET", "big"});
  const size_t header_end = dense.find("\r\n") + 2;
  const std::string bytes = dense.substr(header_end, dense.size() - header_end - 2);
  ASSERT_GT(bytes.size(), 12000u);
  ExpectSameReplies({{"SET", "copy", bytes},
                     {"PFCOUNT", "copy"},
                     {"PFADD", "copy", "more"},
                     {"PFCOUNT", "copy", "big"},
                     {"PFMERGE", "m", "copy", "big"},
                     {"GET", "m"}});
}

}  // namespace
}  // namespace kv::test
