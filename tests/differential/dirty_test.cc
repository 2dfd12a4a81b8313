// INFO persistence's rdb_changes_since_last_save (Redis's server.dirty) against the real
// redis-server: seeded random sequences of every write command, each followed by INFO
// persistence, and the count must be Redis's after every command. The writes are chosen to hit
// the paths where Redis counts nothing or more than one change: SET NX/XX refused, SETBIT of a bit
// that already has the value, BITFIELD operations that write the same value or fail under
// OVERFLOW FAIL, SETRANGE and APPEND of nothing, EXPIRE refused by NX/XX/GT/LT or in the past
// (a deletion), PERSIST without a TTL, MSET of several pairs, DEL/UNLINK of several keys,
// FLUSHDB/FLUSHALL (as many changes as keys), RENAME onto itself, COPY/MOVE refused, SWAPDB,
// FUNCTION FLUSH; reads and errors between them must count nothing.
//   KV_DIRTY_DIFF_SEED=<seed>       replays one sequence
//   KV_DIRTY_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_DIRTY_DIFF_SEQUENCES=<n>     changes how many sequences run (default 300)
// Relative expire times are at least 1000 ms and absolute ones far future or long past, so that
// nothing expires while a sequence runs (expiry itself counts no change in Redis).

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"

namespace kv::test {
namespace {

// The value of rdb_changes_since_last_save in an INFO reply, or "" if absent.
std::string Changes(const std::string& info) {
  const std::string field = "rdb_changes_since_last_save:";
  const size_t at = info.find(field);
  if (at == std::string::npos) return "";
  const size_t start = at + field.size();
  return info.substr(start, info.find('\r', start) - start);
}

// Byte equality, except INFO, whose change counts must be equal.
bool Same(const Args& args, const std::string& kv, const std::string& redis) {
  if (args[0] != "INFO") return kv == redis;
  return !Changes(redis).empty() && Changes(kv) == Changes(redis);
}

class WriteGenerator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"a", "b", "c"}); }
  std::string Value() { return Pick({"", "x", "10", "-3", "1.5", "hello", "\xff\x01"}); }
  std::string Ttl() { return Pick({"1000", "2000", "5000"}); }
  // A TTL for EXPIRE NX/XX/GT/LT that no other command of the sequence uses, at least 1000 apart
  // from all of them: with an equal TTL in the same unit, GT's answer would depend on whether a
  // millisecond passed between the two commands, which differs between the two servers.
  // 7 * n % 31 visits each of 0..30 once (a sequence has at most 30 writes), in no simple order.
  std::string ConditionalTtl() { return std::to_string(10000 + 1000 * (7 * conditional_++ % 31)); }

  Args Next() {
    switch (Uniform(36)) {
      case 0:
        return {"SET", Key(), Value()};
      case 1:
        return {"SET", Key(), Value(), Pick({"NX", "XX"})};
      case 2:
        return {"SET", Key(), Value(), "GET", Pick({"EX", "PX"}), Ttl()};
      case 3:
        return {"SET", Key(), Value(), "KEEPTTL"};
      case 4:
        return {"SETNX", Key(), Value()};
      case 5:
        return {Pick({"SETEX", "PSETEX"}), Key(), Ttl(), Value()};
      case 6:
        return {"GETSET", Key(), Value()};
      case 7:
        return {"GETDEL", Key()};
      case 8:
        return Percent(50)
                   ? Args{"GETEX", Key(), Pick({"EX", "PXAT"}), Pick({"1", "9999999999999"})}
                   : Args{"GETEX", Key(), Pick({"PERSIST", "EX"}), Ttl()};
      case 9: {
        Args c = {Pick({"MSET", "MSETNX"})};
        for (uint64_t i = 0, n = 1 + Uniform(3); i < n; ++i) {
          c.push_back(Key());
          c.push_back(Value());
        }
        return c;
      }
      case 10:
        return {Pick({"INCR", "DECR"}), Key()};
      case 11:
        return {Pick({"INCRBY", "DECRBY"}), Key(), Pick({"0", "5", "x"})};
      case 12:
        return {"INCRBYFLOAT", Key(), Pick({"0", "0.5", "x"})};
      case 13:
        return {"APPEND", Key(), Value()};
      case 14:
        return {"SETRANGE", Key(), Pick({"0", "2", "-1"}), Value()};
      case 15:
      case 16: {
        Args c = {Pick({"DEL", "UNLINK"})};
        for (uint64_t i = 0, n = 1 + Uniform(3); i < n; ++i) c.push_back(Key());
        return c;
      }
      case 17:
        return {Pick({"EXPIRE", "PEXPIRE"}), Key(), ConditionalTtl(),
                Pick({"NX", "XX", "GT", "LT"})};
      case 18:
        return {Pick({"EXPIRE", "PEXPIRE"}), Key(), Ttl()};
      case 19:
        return {Pick({"EXPIREAT", "PEXPIREAT"}), Key(), Pick({"1", "99999999999"})};
      case 20:
        return {"PERSIST", Key()};
      case 21:
        return {Pick({"RENAME", "RENAMENX"}), Key(), Key()};
      case 22:
        return Percent(50) ? Args{"COPY", Key(), Key()}
                           : Args{"COPY", Key(), Key(), "DB", Pick({"0", "1"}), "REPLACE"};
      case 23:
        return {"MOVE", Key(), "1"};
      case 24:
        return Percent(30) ? Args{"SWAPDB", "0", "1"} : Args{"SELECT", Pick({"0", "0", "1"})};
      case 25:
        return Percent(50) ? Args{"FLUSHDB"} : Args{"FUNCTION", "FLUSH"};
      case 26:
      case 27:
        return {"SETBIT", Key(), Pick({"0", "1", "7", "8", "30"}), Pick({"0", "1"})};
      case 28:
        return {"BITOP", Pick({"AND", "OR", "XOR"}), Key(), Key(), Key()};
      case 29:
        return {"BITOP", "NOT", Key(), Key()};
      case 30:
      case 31: {
        Args c = {"BITFIELD", Key()};
        for (uint64_t i = 0, n = 1 + Uniform(3); i < n; ++i) {
          if (Percent(20)) {
            c.insert(c.end(), {"OVERFLOW", Pick({"WRAP", "SAT", "FAIL"})});
          }
          c.insert(c.end(), {Pick({"SET", "INCRBY", "GET"}), Pick({"u2", "i5", "u8"}),
                             Pick({"0", "3", "#1", "16"})});
          if (c[c.size() - 3] != "GET") c.push_back(Pick({"0", "1", "3", "-1", "100"}));
        }
        return c;
      }
      case 32:
        return {Pick({"GET", "TOUCH", "EXISTS", "STRLEN", "TTL"}), Key()};
      case 33:
        return {"SET", Key()};  // wrong arity
      case 34:
        return {"LCS", Key(), Key()};
      default:
        return {"FLUSHALL"};
    }
  }

 private:
  uint64_t conditional_ = 0;
};

class DirtyDifferentialTest : public ConnectedBothServersTest<DirtyDifferentialTest> {};

TEST_F(DirtyDifferentialTest, RandomWritesCountChangesAsRedis) {
  RandomRun run;
  run.name = "dirty differential";
  run.env = "KV_DIRTY_DIFF";
  run.default_count = 300;
  run.generate = [](uint64_t seed) {
    WriteGenerator gen(seed);
    std::vector<Args> commands = {{"SELECT", "0"}, {"INFO", "persistence"}};
    for (uint64_t i = 0, n = 15 + gen.Uniform(16); i < n; ++i) {
      commands.push_back(gen.Next());
      commands.push_back({"INFO", "persistence"});
    }
    return commands;
  };
  run.same = Same;
  RunRandomSequences(*kv_, *redis_conn_, run);
}

// The cases of Redis's own "SETBIT/BITFIELD only increase dirty when the value changed"
// (unit/bitops) and the counts that are more than one, one by one.
TEST_F(DirtyDifferentialTest, ExactCounts) {
  ExpectSameReplies({{"SET", "x", "1"},
                     {"MSET", "a", "1", "b", "2", "a", "3"},
                     {"INFO", "persistence"},
                     {"SETBIT", "foo", "0", "0"},
                     {"INFO", "persistence"},
                     {"SETBIT", "foo", "0", "0"},
                     {"INFO", "persistence"},
                     {"SETBIT", "foo", "0", "1"},
                     {"INFO", "persistence"},
                     {"BITFIELD", "foo", "SET", "u1", "0", "1", "SET", "u1", "1", "0"},
                     {"INFO", "persistence"},
                     {"BITFIELD", "foo", "SET", "u1", "100", "0", "SET", "u1", "1", "0"},
                     {"INFO", "persistence"},
                     {"DEL", "a", "b", "x", "nope"},
                     {"INFO", "persistence"},
                     {"MSET", "a", "1", "b", "2"},
                     {"SELECT", "1"},
                     {"SET", "c", "3"},
                     {"FLUSHALL"},
                     {"INFO", "persistence"},
                     {"CONFIG", "RESETSTAT"},
                     {"INFO", "persistence"},
                     {"SELECT", "0"}},
                    Same);
}

}  // namespace
}  // namespace kv::test
