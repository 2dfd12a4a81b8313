// Differential tests of the list commands against a real redis-server:
// - seeded random sequences of every list command over a few keys, under a random
//   list-max-listpack-size, list-compress-depth and plain-node threshold, with element sizes that
//   cross node boundaries; DEBUG OBJECT's encoding, serializedlength and ql_* fields are compared
//   too (so node counts, sizes and compression match Redis's), in RESP2 and RESP3;
// - every error text and hostile argument, by hand;
// - blocking commands with several connections per server: order of service, keys, timeouts,
//   CLIENT UNBLOCK, disconnects, INFO and CLIENT LIST while blocked, command statistics.
//   KV_LIST_DIFF_SEED=<seed> replays one sequence; KV_LIST_DIFF_BASE_SEED a run.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"

namespace kv::test {
namespace {

// DEBUG OBJECT's line without what differs by nature (the address, lru and idle time).
std::string DebugObjectFields(const std::string& reply) {
  if (reply.rfind("+Value at:", 0) != 0) return reply;
  std::string out;
  size_t at = 0;
  while (at < reply.size()) {
    size_t end = reply.find_first_of(" \r", at);
    if (end == std::string::npos) end = reply.size();
    const std::string field = reply.substr(at, end - at);
    if (field.rfind("at:", 0) != 0 && field.rfind("lru:", 0) != 0 &&
        field.rfind("lru_seconds_idle:", 0) != 0) {
      out += field + " ";
    }
    at = end + 1;
  }
  return out;
}

bool SameListReply(const Args& command, const std::string& kv, const std::string& redis) {
  if (command[0] == "HELLO") return kv[0] == redis[0];
  if (command[0] == "DEBUG") return DebugObjectFields(kv) == DebugObjectFields(redis);
  return kv == redis;
}

class Generator : public RandomChoices {
 public:
  explicit Generator(uint64_t seed) : RandomChoices(seed) {}

  std::string Key() { return Percent(6) ? "s" : Pick({"a", "b", "c"}); }

  std::string Element() {
    switch (Uniform(10)) {
      case 0:
        return std::to_string(static_cast<int64_t>(Uniform(2000)) - 1000);
      case 1:
        return Pick({"9223372036854775807", "-9223372036854775808", "18446744073709551616", "007",
                     "-0", "+1", "1.5", ""});
      case 2:
        return std::string(Uniform(2) ? 64 : 200 + Uniform(200),
                           static_cast<char>('k' + Uniform(3)));
      case 3:
        if (Percent(20)) return Noise(3000 + Uniform(6000));
        return Noise(20 + Uniform(100));
      default:
        return Pick({"a", "b", "c", "hello", "world"}) + std::to_string(Uniform(4));
    }
  }

  // Bytes that do not compress, so that compression sometimes fails.
  std::string Noise(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(Uniform(256));
    return s;
  }

  std::string Index() {
    switch (Uniform(8)) {
      case 0:
        return Pick({"9223372036854775807", "-9223372036854775808", "abc", "1.0"});
      case 1:
        return std::to_string(static_cast<int64_t>(Uniform(2000)) - 1000);
      default:
        return std::to_string(static_cast<int64_t>(Uniform(40)) - 20);
    }
  }

  std::string Where() { return Percent(3) ? "middle" : Case(Pick({"left", "right"})); }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"CONFIG", "SET", "list-max-listpack-size",
                        Pick({"-2", "-2", "-1", "-3", "-5", "1", "2", "3", "5", "16", "128"})});
    commands.push_back({"CONFIG", "SET", "list-compress-depth", Pick({"0", "0", "1", "2", "3"})});
    commands.push_back(
        {"DEBUG", "QUICKLIST-PACKED-THRESHOLD", Percent(80) ? "0" : Pick({"1b", "100b", "5kb"})});
    if (Percent(25)) commands.push_back({"HELLO", Pick({"2", "3"})});
    const size_t n = 20 + Uniform(60);
    while (commands.size() < n) commands.push_back(Next());
    for (const char* key : {"a", "b", "c"}) {
      commands.push_back({"DEBUG", "OBJECT", key});
      commands.push_back({"LRANGE", key, "0", "-1"});
    }
    return commands;
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(30)) {
      case 0:
      case 1:
      case 2: {
        Args a = {Case(Pick({"lpush", "rpush", "lpushx", "rpushx"})), k};
        const size_t n = Percent(15) ? 30 + Uniform(300) : 1 + Uniform(5);
        for (size_t i = 0; i < n; ++i) a.push_back(Element());
        return a;
      }
      case 3:
      case 4: {
        Args a = {Case(Pick({"lpop", "rpop"})), k};
        if (Percent(50)) a.push_back(Percent(90) ? std::to_string(Uniform(8)) : Index());
        return a;
      }
      case 5:
        return {Case("llen"), k};
      case 6:
      case 7:
        return {Case("lrange"), k, Index(), Index()};
      case 8:
        return {Case("lindex"), k, Index()};
      case 9:
        return {Case("lset"), k, Index(), Element()};
      case 10:
      case 11:
        return {Case("linsert"), k, Percent(3) ? "middle" : Case(Pick({"before", "after"})),
                Element(), Element()};
      case 12:
        return {Case("lrem"), k, std::to_string(static_cast<int64_t>(Uniform(7)) - 3), Element()};
      case 13:
        return {Case("ltrim"), k, Index(), Index()};
      case 14: {
        Args a = {Case("lpos"), k, Element()};
        if (Percent(40))
          a.insert(a.end(),
                   {Case("rank"), Percent(80) ? Pick({"1", "2", "-1", "-2", "3"}) : Index()});
        if (Percent(40))
          a.insert(a.end(), {Case("count"), Percent(90) ? Pick({"0", "1", "2", "5"}) : Index()});
        if (Percent(30))
          a.insert(a.end(), {Case("maxlen"), Percent(90) ? Pick({"0", "1", "3", "10"}) : Index()});
        if (Percent(3)) a.push_back("junk");
        return a;
      }
      case 15:
        return {Case("rpoplpush"), k, Key()};
      case 16:
      case 17:
        return {Case("lmove"), k, Key(), Where(), Where()};
      case 18: {
        Args a = {Case("lmpop"), Percent(95) ? "2" : Pick({"0", "-1", "3", "x"}), k, Key(),
                  Where()};
        if (Percent(50))
          a.insert(a.end(), {Case("count"), Percent(90) ? Pick({"1", "2", "10"}) : Index()});
        return a;
      }
      case 19: {
        // Blocking forms: served at once, or a 1 ms timeout when there is nothing.
        switch (Uniform(5)) {
          case 0:
            return {Case("blpop"), k, Key(), "0.001"};
          case 1:
            return {Case("brpop"), k, "0.001"};
          case 2:
            return {Case("brpoplpush"), k, Key(), "0.001"};
          case 3:
            return {Case("blmove"), k, Key(), Where(), Where(), "0.001"};
          default:
            return {Case("blmpop"), "0.001", "2", k, Key(), Where(), Case("count"), "3"};
        }
      }
      case 20:
        return {"DEBUG", "OBJECT", k};
      case 21:
        return {Case("object"), "encoding", k};
      case 22:
        return {Case("type"), k};
      case 23:
        return Percent(50) ? Args{"SET", "s", "str"} : Args{"DEL", k};
      case 24:
        return {"COPY", k, Key()};
      case 25:
        return {"RENAME", k, Key()};
      case 26:
        return {"EXISTS", k};
      default: {
        // Many elements at once, to fill and split nodes.
        Args a = {Case(Pick({"rpush", "lpush"})), k};
        const std::string e = Element();
        for (size_t i = 0, n = 50 + Uniform(700); i < n; ++i)
          a.push_back(Percent(70) ? e : Element());
        return a;
      }
    }
  }
};

class ListsDifferentialTest : public ConnectedBothServersTest<ListsDifferentialTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    // Each test starts from the defaults.
    for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
      c->Call({"CONFIG", "SET", "list-max-listpack-size", "-2"});
      c->Call({"CONFIG", "SET", "list-compress-depth", "0"});
      c->Call({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0"});
      c->Call({"CONFIG", "RESETSTAT"});
    }
  }

  void ExpectSame(const std::vector<Args>& commands) { ExpectSameReplies(commands, SameListReply); }
};

TEST_F(ListsDifferentialTest, RandomListSequences) {
  RandomRun run;
  run.name = "lists differential";
  run.env = "KV_LIST_DIFF";
  run.default_count = 500;
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.same = SameListReply;
  run.kinds = {{"wrongtype", "WRONGTYPE"},        {"compressed", "ql_compressed:1"},
               {"several nodes", "ql_nodes:1"},   {"syntax", "syntax error"},
               {"not integer", "not an integer"}, {"null array", "*-1\r\n"},
               {"resp3 null", "_\r\n"},           {"out of range", "index out of range"}};
  run.counts = [](const std::string& kind, const Args&, const std::string& redis) {
    // "ql_nodes:1" also matches 10, 11, ...: count lists of ten nodes or more.
    return kind != "several nodes" || redis.find("ql_nodes:1 ") == std::string::npos;
  };
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

TEST_F(ListsDifferentialTest, NodeShapesOfBigListsUnderEveryFill) {
  std::vector<Args> commands;
  for (const char* fill : {"-1", "-2", "-3", "-4", "-5", "1", "7", "100", "1000"}) {
    for (const char* depth : {"0", "1", "4"}) {
      commands.push_back({"CONFIG", "SET", "list-max-listpack-size", fill});
      commands.push_back({"CONFIG", "SET", "list-compress-depth", depth});
      commands.push_back({"DEL", "l"});
      for (int round = 0; round < 4; ++round) {
        Args push = {round % 2 ? "LPUSH" : "RPUSH", "l"};
        for (int i = 0; i < 500; ++i) {
          push.push_back(round == 3 ? std::string(300, 'a' + i % 26)
                                    : "element" + std::to_string(round * 1000 + i));
        }
        commands.push_back(push);
        commands.push_back({"DEBUG", "OBJECT", "l"});
      }
      commands.push_back({"LINSERT", "l", "AFTER", "element1250", std::string(5000, 'z')});
      commands.push_back({"LSET", "l", "777", std::string(9000, 'q')});
      commands.push_back({"LREM", "l", "0", "element17"});
      commands.push_back({"LTRIM", "l", "100", "-100"});
      commands.push_back({"DEBUG", "OBJECT", "l"});
      commands.push_back({"LRANGE", "l", "500", "520"});
      commands.push_back({"LPOS", "l", "element1400", "COUNT", "0"});
      commands.push_back({"COPY", "l", "copy"});
      commands.push_back({"DEBUG", "OBJECT", "copy"});
      commands.push_back({"DEL", "copy"});
    }
  }
  ExpectSame(commands);
}

TEST_F(ListsDifferentialTest, PlainNodes) {
  std::vector<Args> commands = {{"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100b"},
                                {"CONFIG", "SET", "list-compress-depth", "1"}};
  for (int i = 0; i < 10; ++i) {
    commands.push_back({"RPUSH", "l", std::string(50 + 20 * i, 'p'), "small" + std::to_string(i)});
  }
  const std::vector<Args> more = {
      {"DEBUG", "OBJECT", "l"},
      {"LINSERT", "l", "BEFORE", "small3", std::string(500, 'x')},
      {"LINSERT", "l", "AFTER", "small3", std::string(500, 'y')},
      {"LSET", "l", "0", "tiny"},
      {"LSET", "l", "1", std::string(700, 'w')},
      {"DEBUG", "OBJECT", "l"},
      {"LRANGE", "l", "0", "-1"},
      {"LREM", "l", "0", std::string(500, 'x')},
      {"LTRIM", "l", "2", "-3"},
      {"DEBUG", "OBJECT", "l"},
      {"LPOP", "l", "3"},
      {"RPOPLPUSH", "l", "l"},
      {"LRANGE", "l", "0", "-1"},
      {"DEBUG", "OBJECT", "l"},
  };
  commands.insert(commands.end(), more.begin(), more.end());
  ExpectSame(commands);
}

TEST_F(ListsDifferentialTest, ErrorsAndHostileArguments) {
  ExpectSame({
      {"SET", "s", "v"},
      {"RPUSH", "l", "a", "b", "c", "a"},
      {"LPUSH", "s", "x"},
      {"LPOP", "l", "1", "2"},
      {"LPOP", "l", "-1"},
      {"LPOP", "l", "abc"},
      {"RPOP", "nokey", "-9223372036854775808"},
      {"LPOP", "nokey", "5"},
      {"LRANGE", "l", "0", "9223372036854775807"},
      {"LRANGE", "l", "-9223372036854775808", "9223372036854775807"},
      {"LRANGE", "l", "9223372036854775807", "-9223372036854775808"},
      {"LRANGE", "l", "0", "9223372036854775808"},
      {"LRANGE", "l", "x", "1"},
      {"LINDEX", "l", "9223372036854775807"},
      {"LINDEX", "l", "-9223372036854775808"},
      {"LINDEX", "nokey", "abc"},
      {"LINDEX", "l", "abc"},
      {"LSET", "l", "-9223372036854775808", "x"},
      {"LSET", "l", "abc", "x"},
      {"LSET", "nokey", "abc", "x"},
      {"LINSERT", "l", "sideways", "a", "x"},
      {"LINSERT", "s", "before", "a", "x"},
      {"LREM", "l", "-9223372036854775808", "a"},
      {"LREM", "l", "9223372036854775807", "zz"},
      {"LREM", "l", "1.5", "a"},
      {"LTRIM", "l", "-9223372036854775808", "9223372036854775807"},
      {"LTRIM", "l", "1", "x"},
      {"LPOS", "l", "a", "RANK", "-9223372036854775808"},
      {"LPOS", "l", "a", "RANK", "-9223372036854775808", "COUNT", "1"},
      {"LPOS", "l", "a", "RANK", "9223372036854775807", "COUNT", "0"},
      {"LPOS", "l", "a", "RANK", "0"},
      {"LPOS", "l", "a", "RANK", "x"},
      {"LPOS", "l", "a", "COUNT", "-1"},
      {"LPOS", "l", "a", "MAXLEN", "-1"},
      {"LPOS", "l", "a", "MAXLEN", "9223372036854775807", "COUNT", "9223372036854775807"},
      {"LPOS", "l", "a", "COUNT"},
      {"LPOS", "l", "a", "BOGUS", "1"},
      {"LPOS", "nokey", "a", "COUNT", "1"},
      {"LPOS", "s", "a"},
      {"LMOVE", "l", "d", "up", "left"},
      {"LMOVE", "l", "s", "left", "left"},
      {"LMOVE", "s", "d", "left", "left"},
      {"RPOPLPUSH", "nokey", "s"},
      {"LMPOP", "0", "l", "left"},
      {"LMPOP", "-1", "l", "left"},
      {"LMPOP", "9223372036854775807", "l", "left"},
      {"LMPOP", "2", "l", "left"},
      {"LMPOP", "1", "l", "up"},
      {"LMPOP", "1", "l", "left", "count"},
      {"LMPOP", "1", "l", "left", "count", "0"},
      {"LMPOP", "1", "l", "left", "count", "-1"},
      {"LMPOP", "1", "l", "left", "count", "1", "count", "1"},
      {"LMPOP", "1", "l", "left", "junk"},
      {"LMPOP", "2", "s", "l", "left"},
      {"LMPOP", "2", "nokey", "l", "right", "count", "9223372036854775807"},
      {"RPUSH", "l", "x", "y", "z", "w"},
      {"BLPOP", "l", "abc"},
      {"BLPOP", "l", "-1"},
      {"BLPOP", "l", "inf"},
      {"BLPOP", "l", "-inf"},
      {"BLPOP", "l", "nan"},
      {"BLPOP", "l", "1e400"},
      {"BLPOP", "l", "0x10"},
      {"BLPOP", "l", ""},
      {"BLPOP", "s", "0"},
      {"BRPOP", "nokey", "s", "0"},
      {"BRPOPLPUSH", "l", "d", "-0.5"},
      {"BLMOVE", "l", "d", "left", "up", "0"},
      {"BLMOVE", "l", "d", "left", "left", "x"},
      {"BLMPOP", "x", "0", "l", "left"},
      {"BLMPOP", "x", "1", "l", "left"},
      {"BLMPOP", "0", "1", "l", "left", "count", "0"},
      {"BLMPOP", "-1", "1", "l", "left"},
      {"LLEN", "s"},
      {"GET", "l"},
      {"INCR", "l"},
      {"APPEND", "l", "x"},
      {"LRANGE", "l", "0", "-1"},
      {"INFO", "errorstats"},
  });
}

TEST_F(ListsDifferentialTest, GenericCommandsOnLists) {
  ExpectSame({
      {"RPUSH", "l", "a", "b", "c"},
      {"SET", "s", "v"},
      {"TYPE", "l"},
      {"OBJECT", "ENCODING", "l"},
      {"OBJECT", "REFCOUNT", "l"},
      {"OBJECT", "FREQ", "l"},
      {"EXISTS", "l", "s", "nokey"},
      {"EXPIRE", "l", "100"},
      {"TTL", "l"},
      {"PERSIST", "l"},
      {"SCAN", "0", "TYPE", "list"},
      {"SCAN", "0", "TYPE", "string"},
      {"KEYS", "l*"},
      {"RENAMENX", "l", "s"},
      {"RENAME", "l", "l2"},
      {"COPY", "l2", "l3"},
      {"COPY", "l2", "s"},
      {"COPY", "l2", "s", "REPLACE"},
      {"TYPE", "s"},
      {"LRANGE", "s", "0", "-1"},
      {"COPY", "l2", "l", "DB", "3"},
      {"MOVE", "l3", "3"},
      {"MOVE", "l2", "3"},
      {"SELECT", "3"},
      {"LRANGE", "l", "0", "-1"},
      {"LRANGE", "l3", "0", "-1"},
      {"SWAPDB", "0", "3"},
      {"DBSIZE"},
      {"SELECT", "0"},
      {"DBSIZE"},
      {"INFO", "keyspace"},
      {"UNLINK", "l", "l3"},
      {"DEL", "l2"},
      {"DBSIZE"},
      {"RPUSH", "e", "x"},
      {"EXPIRE", "e", "100"},
      {"RPUSH", "e", "y"},
      {"TTL", "e"},
      {"LPOP", "e", "2"},
      {"EXISTS", "e"},
      {"RPUSH", "e", "z"},
      {"TTL", "e"},
  });
}

TEST_F(ListsDifferentialTest, CommandTableEntries) {
  std::vector<Args> commands;
  for (const char* name :
       {"lpush",  "rpush", "lpushx",  "rpushx",     "lpop",   "rpop",  "llen",      "lrange",
        "lindex", "lset",  "linsert", "lrem",       "ltrim",  "lpos",  "rpoplpush", "lmove",
        "lmpop",  "blpop", "brpop",   "brpoplpush", "blmove", "blmpop"}) {
    commands.push_back({"COMMAND", "INFO", name});
    commands.push_back({"COMMAND", "DOCS", name});
    commands.push_back({"COMMAND", "GETKEYS", name, "k1", "k2", "k3", "left", "left", "0"});
    commands.push_back({"COMMAND", "GETKEYSANDFLAGS", name, "2", "k1", "k2", "left", "0"});
  }
  commands.push_back({"COMMAND", "GETKEYS", "lmpop", "2", "a", "b", "left", "count", "3"});
  commands.push_back({"COMMAND", "GETKEYS", "blmpop", "0", "3", "a", "b", "c", "right"});
  commands.push_back({"COMMAND", "GETKEYS", "lmpop", "5", "a", "b", "left"});
  commands.push_back({"COMMAND", "GETKEYS", "blpop", "a", "b", "c", "0"});
  ExpectSame(commands);
}

// ---- Blocking, with several connections per server ----

// A scenario step: client `client` sends `args` (unless empty) and, when `reply` is set, both
// servers' replies to that client are read and compared; otherwise nothing must arrive yet.
struct Step {
  int client;
  Args args;
  bool reply = true;
  int sleep_ms = 0;  // before reading
};

class ListsBlockingDifferentialTest : public ListsDifferentialTest {
 protected:
  // Opens `n` connections to each server (client 0 is the test's own).
  void Open(int n) {
    for (int i = 0; i < n; ++i) {
      kv_clients_.push_back(RawConnection::Connect(kvserver_->port()));
      redis_clients_.push_back(RawConnection::Connect(redis_->port()));
      ASSERT_TRUE(kv_clients_.back() && redis_clients_.back());
      kv_ids_.push_back(Id(*kv_clients_.back()));
      redis_ids_.push_back(Id(*redis_clients_.back()));
    }
    kv_clients_[0]->Call({"FLUSHALL"});
    redis_clients_[0]->Call({"FLUSHALL"});
  }

  static std::string Id(RawConnection& c) {
    const std::string r = c.Call({"CLIENT", "ID"});
    return r.substr(1, r.size() - 3);
  }

  // Args with "$ID<n>" replaced by client n's id on that server.
  static Args WithIds(const Args& args, const std::vector<std::string>& ids) {
    Args out = args;
    for (std::string& a : out) {
      if (a.rfind("$ID", 0) == 0) a = ids[std::stoi(a.substr(3))];
    }
    return out;
  }

  // Runs the steps on both servers, comparing what each client receives.
  void Play(const std::vector<Step>& steps) {
    for (size_t i = 0; i < steps.size(); ++i) {
      const Step& s = steps[i];
      RawConnection& kv = *kv_clients_[static_cast<size_t>(s.client)];
      RawConnection& redis = *redis_clients_[static_cast<size_t>(s.client)];
      if (!s.args.empty()) {
        kv.Send(EncodeCommand(WithIds(s.args, kv_ids_)));
        redis.Send(EncodeCommand(WithIds(s.args, redis_ids_)));
      }
      if (s.sleep_ms != 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.sleep_ms));
      const std::string what = "step #" + std::to_string(i) + " client " +
                               std::to_string(s.client) + " " + DescribeArgs(s.args);
      if (s.reply) {
        const std::string a = kv.ReadReply(3000).value_or("<no reply>");
        const std::string b = redis.ReadReply(3000).value_or("<no reply>");
        EXPECT_EQ(Escape(a), Escape(b)) << what;
      } else {
        // Blocked: nothing within 50 ms from either.
        EXPECT_EQ(kv.ReadSome(50), -1) << what << " kvserver replied " << Escape(kv.pending());
        EXPECT_EQ(redis.ReadSome(50), -1) << what << " redis replied " << Escape(redis.pending());
      }
    }
  }

  // The value of `field` in INFO `section` of each server.
  std::pair<std::string, std::string> InfoField(const std::string& section,
                                                const std::string& field) {
    auto get = [&](RawConnection& c) {
      const std::string info = c.Call({"INFO", section});
      const size_t at = info.find("\r\n" + field + ":");
      if (at == std::string::npos) return std::string("<none>");
      const size_t start = at + field.size() + 3;
      return info.substr(start, info.find("\r\n", start) - start);
    };
    return {get(*kv_clients_[0]), get(*redis_clients_[0])};
  }

  void ExpectSameInfo(const std::string& section, const std::string& field) {
    auto [a, b] = InfoField(section, field);
    EXPECT_EQ(a, b) << field;
  }

  // cmdstat_<name> without its timings.
  void ExpectSameCommandStats(const std::string& name) {
    auto strip = [](std::string v) {
      std::string out;
      for (size_t at = 0; at < v.size();) {
        size_t end = v.find(',', at);
        if (end == std::string::npos) end = v.size();
        const std::string part = v.substr(at, end - at);
        if (part.rfind("usec", 0) != 0) out += part + ",";
        at = end + 1;
      }
      return out;
    };
    auto [a, b] = InfoField("commandstats", "cmdstat_" + name);
    EXPECT_EQ(strip(a), strip(b)) << name;
  }

  std::vector<std::unique_ptr<RawConnection>> kv_clients_, redis_clients_;
  std::vector<std::string> kv_ids_, redis_ids_;
};

TEST_F(ListsBlockingDifferentialTest, FifoOrderAndSeveralKeys) {
  Open(5);
  Play({
      {1, {"BLPOP", "k", "0"}, false},
      {2, {"BRPOP", "k", "other", "0"}, false},
      {3, {"BLMPOP", "0", "2", "other", "k", "LEFT", "COUNT", "2"}, false},
      {4, {"BLPOP", "k", "0"}, false},
  });
  // The blocked client's CLIENT LIST flags and command.
  for (auto [c, id] :
       {std::pair{kv_clients_[0].get(), kv_ids_[1]}, {redis_clients_[0].get(), redis_ids_[1]}}) {
    const std::string line = c->Call({"CLIENT", "LIST", "ID", id});
    EXPECT_NE(line.find(" flags=b "), std::string::npos) << line;
    EXPECT_NE(line.find(" cmd=blpop "), std::string::npos) << line;
  }
  ExpectSameInfo("clients", "blocked_clients");
  ExpectSameCommandStats("blpop");
  Play({
      {0, {"RPUSH", "k", "1", "2", "3", "4", "5"}},
      {1, {}},
      {2, {}},
      {3, {}},
      {4, {}},
      {0, {"LRANGE", "k", "0", "-1"}},
      {0, {"EXISTS", "k"}},
  });
  ExpectSameInfo("clients", "blocked_clients");
  ExpectSameCommandStats("blpop");
  ExpectSameCommandStats("brpop");
  ExpectSameCommandStats("blmpop");
  ExpectSameInfo("stats", "total_commands_processed");
  ExpectSameInfo("persistence", "rdb_changes_since_last_save");
}

TEST_F(ListsBlockingDifferentialTest, FirstNonEmptyKeyAndReadyKeyOnly) {
  Open(3);
  Play({
      {0, {"RPUSH", "k2", "x"}},
      {0, {"RPUSH", "k3", "y"}},
      {1, {"BLPOP", "k1", "k2", "k3", "0"}},
      {1, {"BLMPOP", "0", "3", "k1", "k2", "k3", "RIGHT", "COUNT", "5"}},
      {1, {"BRPOP", "k1", "k2", "k3", "0"}, false},
      {2, {"BLPOP", "k3", "k1", "0"}, false},
      {0, {"RPUSH", "k3", "p", "q"}},
      {1, {}},
      {2, {}},
      {0, {"DBSIZE"}},
  });
}

TEST_F(ListsBlockingDifferentialTest, ServedAfterMovesRenamesCopiesAndSwaps) {
  Open(3);
  Play({
      {0, {"RPUSH", "src", "1", "2", "3"}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"RPOPLPUSH", "src", "k"}},
      {1, {}},
      {1, {"BRPOP", "k", "0"}, false},
      {0, {"LMOVE", "src", "k", "LEFT", "RIGHT"}},
      {1, {}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"RPUSH", "tmp", "r"}},
      {0, {"RENAME", "tmp", "k"}},
      {1, {}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"COPY", "src", "k"}},
      {1, {}},
      {0, {"DEL", "k"}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"SELECT", "5"}},
      {0, {"RPUSH", "k", "m"}},
      {0, {"MOVE", "k", "0"}},
      {1, {}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"RPUSH", "k", "w"}},
      {0, {"SWAPDB", "0", "5"}},
      {1, {}},
      {2, {"SELECT", "5"}},
      {2, {"BLPOP", "k", "0"}, false},
      {0, {"SELECT", "0"}},
      {0, {"LPUSH", "k", "db0"}},
      {2, {}, false},
      {0, {"SELECT", "5"}},
      {0, {"LPUSH", "k", "db5"}},
      {2, {}},
      {0, {"SELECT", "0"}},
      {0, {"DEL", "k"}},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"SET", "k", "string"}},
      {1, {}, false},
      {0, {"DEL", "k"}},
      {0, {"LPUSH", "k", "last"}},
      {1, {}},
  });
}

TEST_F(ListsBlockingDifferentialTest, BlmoveChainAndWrongDestination) {
  Open(5);
  Play({
      {1, {"BLMOVE", "l1", "l2", "LEFT", "RIGHT", "0"}, false},
      {2, {"BRPOPLPUSH", "l2", "l3", "0"}, false},
      {3, {"BLMOVE", "l3", "l3", "RIGHT", "LEFT", "0"}, false},
      {4, {"BLPOP", "l3", "0"}, false},
      {0, {"RPUSH", "l1", "x"}},
      {1, {}},
      {2, {}},
      {3, {}},
      {4, {}},
      {0, {"DBSIZE"}},
      {0, {"SET", "str", "v"}},
      {1, {"BLMOVE", "src", "str", "LEFT", "LEFT", "0"}, false},
      {2, {"BLPOP", "src", "0"}, false},
      {0, {"RPUSH", "src", "a"}},
      {1, {}},
      {2, {}},
  });
  ExpectSameCommandStats("blmove");
  ExpectSameCommandStats("brpoplpush");
  ExpectSameInfo("errorstats", "errorstat_WRONGTYPE");
  ExpectSameInfo("persistence", "rdb_changes_since_last_save");
}

TEST_F(ListsBlockingDifferentialTest, TimeoutsUnblockAndDisconnect) {
  Open(3);
  Play({
      {1, {"BLPOP", "k", "0.05"}, true, 0},
      {1, {"BRPOPLPUSH", "k", "d", "0.02"}, true, 0},
      {1, {"BLMOVE", "k", "d", "LEFT", "LEFT", "0.02"}, true, 0},
      {1, {"BLMPOP", "0.02", "1", "k", "LEFT"}, true, 0},
      {1, {"BLPOP", "k", "0"}, false},
      {0, {"CLIENT", "UNBLOCK", "$ID1", "TIMEOUT"}},
      {1, {}},
      {1, {"BRPOP", "k", "0"}, false},
      {0, {"CLIENT", "UNBLOCK", "$ID1", "ERROR"}},
      {1, {}},
      {0, {"CLIENT", "UNBLOCK", "$ID1"}},
      {0, {"CLIENT", "UNBLOCK", "$ID1", "BOGUS"}},
      {2, {"BLPOP", "gone", "0"}, false},
  });
  ExpectSameCommandStats("blpop");
  ExpectSameCommandStats("brpop");
  ExpectSameCommandStats("client|unblock");
  ExpectSameInfo("errorstats", "errorstat_UNBLOCKED");
  ExpectSameInfo("clients", "blocked_clients");
  // The blocked client goes away: nothing is left waiting.
  kv_clients_[2].reset();
  redis_clients_[2].reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ExpectSameInfo("clients", "blocked_clients");
  ExpectSameInfo("clients", "connected_clients");
  Play({
      {0, {"RPUSH", "gone", "x"}},
      {0, {"LLEN", "gone"}},
  });
}

TEST_F(ListsBlockingDifferentialTest, ServedInResp3) {
  Open(2);
  kv_clients_[1]->Call({"HELLO", "3"});
  redis_clients_[1]->Call({"HELLO", "3"});
  Play({
      {1, {"BLPOP", "k", "0.01"}, true, 0},
      {1, {"BLMPOP", "0", "1", "k", "LEFT", "COUNT", "2"}, false},
      {0, {"RPUSH", "k", "1", "2", "3"}},
      {1, {}},
      {1, {"BLMOVE", "k", "d", "RIGHT", "LEFT", "0"}},
  });
}

}  // namespace
}  // namespace kv::test
