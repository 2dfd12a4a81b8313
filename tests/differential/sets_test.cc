// Differential tests of the set commands: the same requests go to kvserver and to the real
// redis-server 7.0.15.
//
// RandomSetSequences runs seeded random sequences (25-60 commands each, after FLUSHALL, a random
// set-max-intset-entries and, for a third of them, HELLO 3) of every set command over four set
// keys and a string key, with members that are small and big integers, integer-looking strings
// and strings short and long, and bursts that cross the intset limit. Each command goes to both
// servers and the replies must match:
//   - byte for byte, for everything deterministic (OBJECT ENCODING included, so the encodings
//     convert at the same moments; DEBUG OBJECT by its encoding and serializedlength);
//   - as multisets of members under the same reply type (`*` or `~`), for the replies whose order
//     is a hash table's (SMEMBERS, SINTER, SUNION, SDIFF);
//   - by their properties, for SPOP and SRANDMEMBER: the right count, members of the set as it
//     was (read from Redis first), distinct where they must be; after an SPOP whose random choice
//     left different members, the key is rebuilt the same way on both;
//   - as whole iterations for SSCAN from cursor 0 (every member, nothing else; an intset's single
//     reply byte for byte).
// Each run prints its base seed; sequence i uses base+i.
//   KV_SET_DIFF_SEED=<seed>        replays just that sequence
//   KV_SET_DIFF_BASE_SEED=<seed>   replays a whole run
//   KV_SET_DIFF_SEQUENCES=<n>      changes how many sequences run (default 400)

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

class SetGenerator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() {
    if (Percent(4)) return "str";
    if (Percent(3)) return "nokey";
    return Pick({"a", "b", "c", "d"});
  }
  std::string Int(int64_t lo, int64_t hi) {
    return std::to_string(lo + static_cast<int64_t>(Uniform(static_cast<uint64_t>(hi - lo + 1))));
  }
  std::string Member() {
    const uint64_t r = Uniform(100);
    if (r < 60) return Int(-10, 40);
    if (r < 68) {
      return Pick({"32767", "32768", "-32769", "2147483647", "2147483648", "-2147483649",
                   "9223372036854775807", "-9223372036854775808", "1099511627776"});
    }
    if (r < 74) return Pick({"01", "+1", "-0", " 1", "1 ", "1e3", "18446744073709551616", "0x10"});
    if (r < 94) return Pick({"m0", "m1", "m2", "m3", "m4", "x", "y", "", "hello world"});
    // Long members (LZF-compressible and not) for DEBUG OBJECT's lengths.
    return Percent(50) ? std::string(21 + Uniform(60), 'z')
                       : "long-member-" + Int(0, 5) + "-abcdefghij";
  }
  std::string Count() {
    if (Percent(8)) return Pick({"x", "-9223372036854775808", "9223372036854775807", "1.5", ""});
    if (Percent(30)) return Int(-30, -1);
    return Int(0, 30);
  }

  Args Next() {
    switch (Uniform(30)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        Args c = {Case("sadd"), Key()};
        const size_t n = 1 + Uniform(Percent(20) ? 12 : 4);
        for (size_t i = 0; i < n; ++i) c.push_back(Member());
        return c;
      }
      case 4: {
        // A burst around the default intset limit, or well past a small one.
        Args c = {"sadd", Key()};
        const int64_t base = static_cast<int64_t>(Uniform(20));
        const size_t n = Percent(50) ? 505 + Uniform(15) : 5 + Uniform(30);
        for (size_t i = 0; i < n; ++i) c.push_back(std::to_string(base + static_cast<int64_t>(i)));
        if (Percent(20)) c.push_back("s" + Int(0, 3));
        return c;
      }
      case 5:
      case 6: {
        Args c = {Case("srem"), Key()};
        const size_t n = 1 + Uniform(Percent(10) ? 40 : 3);
        for (size_t i = 0; i < n; ++i) c.push_back(Percent(80) ? Member() : Int(0, 530));
        return c;
      }
      case 7:
        return {Case("smembers"), Key()};
      case 8:
        return {Case("sismember"), Key(), Member()};
      case 9: {
        Args c = {Case("smismember"), Key()};
        const size_t n = 1 + Uniform(4);
        for (size_t i = 0; i < n; ++i) c.push_back(Member());
        return c;
      }
      case 10:
        return {Case("scard"), Key()};
      case 11:
        if (Percent(40)) return {Case("spop"), Key()};
        if (Percent(5)) return {Case("spop"), Key(), "1", "2"};
        return {Case("spop"), Key(), Count()};
      case 12:
      case 13:
        if (Percent(30)) return {Case("srandmember"), Key()};
        if (Percent(5)) return {Case("srandmember"), Key(), "1", "2"};
        return {Case("srandmember"), Key(), Count()};
      case 14:
        return {Case("smove"), Key(), Key(), Member()};
      case 15:
      case 16:
        return Multi(Pick({"sinter", "sunion", "sdiff"}), 1);
      case 17:
        return Multi(Pick({"sinterstore", "sunionstore", "sdiffstore"}), 2);
      case 18: {
        Args c = {Case("sintercard")};
        const size_t n = 1 + Uniform(3);
        c.push_back(Percent(10) ? Pick({"0", "x", "-1", "9"}) : std::to_string(n));
        for (size_t i = 0; i < n; ++i) c.push_back(Key());
        if (Percent(40)) {
          c.push_back(Case("limit"));
          c.push_back(Percent(15) ? Pick({"-1", "x"}) : Int(0, 5));
        }
        if (Percent(5)) c.push_back("extra");
        return c;
      }
      case 19:
      case 20: {
        Args c = {Case("sscan"), Key(),
                  Percent(10) ? Pick({"x", " 1", "18446744073709551616", "1.5"}) : "0"};
        if (Percent(40)) {
          c.push_back(Case("count"));
          c.push_back(Percent(10) ? Pick({"0", "-1", "x"}) : Int(1, 30));
        }
        if (Percent(40)) {
          c.push_back(Case("match"));
          c.push_back(Pick({"*", "m*", "*1*", "[0-2]", "?", "x", "-*"}));
        }
        if (Percent(4)) c.push_back(Pick({"type", "match"}));
        return c;
      }
      case 21:
      case 22:
        return {"object", "encoding", Key()};
      case 23:
        return {"debug", "object", Key()};
      case 24:
        return Percent(50) ? Args{"del", Key()} : Args{"exists", Key()};
      case 25:
        return Percent(50) ? Args{"type", Key()} : Args{"set", "str", Member()};
      case 26:
        return Percent(50) ? Args{"copy", Key(), Key(), "replace"} : Args{"rename", Key(), Key()};
      case 27:
        return Pick({"get", "append", "incr", "strlen"}) == "get" ? Args{"get", Key()}
                                                                  : Args{"append", Key(), "x"};
      case 28:
        // Wrong arity.
        return Pick(std::vector<Args>{{"sadd", "a"},
                                      {"srem", "a"},
                                      {"smembers"},
                                      {"sismember", "a"},
                                      {"smove", "a", "b"},
                                      {"sinter"},
                                      {"sinterstore", "d"},
                                      {"sscan", "a"},
                                      {"spop"},
                                      {"scard", "a", "b"}});
      default:
        return {"expire", Key(), Int(100, 1000)};
    }
  }

 private:
  Args Multi(const std::string& name, size_t min_keys) {
    Args c = {Case(name)};
    const size_t n = min_keys + Uniform(3);
    for (size_t i = 0; i < n; ++i) c.push_back(Key());
    return c;
  }
};

const std::set<std::string> kWrites = {"sadd",        "srem",       "smove", "spop",  "sinterstore",
                                       "sunionstore", "sdiffstore", "copy",  "rename"};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::multiset<std::string> Elements(const RespReply& r) {
  std::multiset<std::string> out;
  for (const RespReply& e : r.elements) out.insert(e.str);
  return out;
}

// DEBUG OBJECT without the address and LRU fields.
std::string DebugFields(const std::string& reply) {
  const size_t enc = reply.find("encoding:");
  const size_t lru = reply.find(" lru:");
  if (enc == std::string::npos || lru == std::string::npos) return reply;
  return reply.substr(enc, lru - enc);
}

class SetsDifferentialTest : public ConnectedBothServersTest<SetsDifferentialTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
  // Compares one command's replies (sending it, and whatever it needs to judge them); returns a
  // description of the difference, or "" when they agree.
  std::string Compare(const Args& c, std::string* kv_reply, std::string* redis_reply) {
    const std::string name = Lower(c[0]);
    std::vector<std::string> before;  // for SPOP/SRANDMEMBER: the set as Redis has it
    bool intset = false;
    if ((name == "spop" || name == "srandmember") && c.size() >= 2) {
      auto m = ParseReply(redis_conn_->Call({"smembers", c[1]}));
      if (m && (m->type == RespReply::Type::kArray || m->type == RespReply::Type::kSet)) {
        for (const RespReply& e : m->elements) before.push_back(e.str);
      }
    }
    if (name == "sscan" && c.size() >= 2) {
      auto e = ParseReply(redis_conn_->Call({"object", "encoding", c[1]}));
      intset = e && e->str == "intset";
    }
    std::tie(*kv_reply, *redis_reply) = Both(c);
    const std::string& k = *kv_reply;
    const std::string& r = *redis_reply;
    if (k == r) {
      if (name == "spop" && c.size() >= 2) Resync(c[1]);
      return "";
    }
    auto kp = ParseReply(k), rp = ParseReply(r);
    if (!kp || !rp) return "unparsable reply";
    if (rp->type == RespReply::Type::kError || kp->type == RespReply::Type::kError) {
      return "different error";
    }
    if (name == "debug") return DebugFields(k) == DebugFields(r) ? "" : "DEBUG OBJECT differs";
    if (name == "smembers" || name == "sinter" || name == "sunion" || name == "sdiff") {
      return kp->type == rp->type && Elements(*kp) == Elements(*rp) ? "" : "different members";
    }
    if (name == "spop" || name == "srandmember") {
      std::string why = CheckRandom(c, name, before, *kp, *rp);
      if (name == "spop" && c.size() >= 2) Resync(c[1]);
      return why;
    }
    if (name == "sscan") return CompareScan(c, intset, *kp, *rp);
    return "different reply";
  }

  // A reply of random members from `before`: the counts and kinds Redis's would have.
  static std::string CheckRandom(const Args& c, const std::string& name,
                                 const std::vector<std::string>& before, const RespReply& kp,
                                 const RespReply& rp) {
    if (kp.type != rp.type) return "different reply type";
    const std::set<std::string> universe(before.begin(), before.end());
    if (c.size() == 2) {
      if (kp.type != RespReply::Type::kBulkString) return "";  // nil on both
      return universe.count(kp.str) ? "" : "not a member";
    }
    const long long n = std::stoll(c[2]);
    const bool distinct = name == "spop" || n >= 0;
    const size_t expected =
        name == "spop" || n >= 0
            ? std::min<size_t>(static_cast<size_t>(std::llabs(n)), before.size())
            : static_cast<size_t>(std::llabs(n));
    const std::multiset<std::string> ke = Elements(kp), re = Elements(rp);
    if (ke.size() != expected || re.size() != expected) return "wrong count";
    for (const std::string& m : ke) {
      if (!universe.count(m)) return "not a member: " + m;
      if (distinct && ke.count(m) != 1) return "repeated: " + m;
    }
    return "";
  }

  // After an SPOP the servers may hold different members (random picks): rebuild the key the
  // same way on both from Redis's members, so that the sequence stays comparable.
  void Resync(const std::string& key) {
    auto k = ParseReply(kv_->Call({"smembers", key}));
    auto r = ParseReply(redis_conn_->Call({"smembers", key}));
    if (!k || !r || Elements(*k) == Elements(*r)) return;
    Args add = {"sadd", key};
    for (const RespReply& e : r->elements) add.push_back(e.str);
    Both({"del", key});
    if (add.size() > 2) Both(add);
  }

  // A whole SSCAN iteration on each server from the command's arguments.
  std::string CompareScan(const Args& c, bool intset, const RespReply& kp, const RespReply& rp) {
    if (intset) return "intset scan reply differs";
    if (kp.type != rp.type || kp.elements.size() != 2 || rp.elements.size() != 2) {
      return "different reply shape";
    }
    std::set<std::string> ks, rs;
    for (auto [conn, first, out] :
         {std::tuple{kv_.get(), &kp, &ks}, {redis_conn_.get(), &rp, &rs}}) {
      const RespReply* page = first;
      std::optional<RespReply> next;
      for (int calls = 0; calls < 100000; ++calls) {
        for (const RespReply& e : page->elements[1].elements) out->insert(e.str);
        if (page->elements[0].str == "0") break;
        Args more = c;
        more[2] = page->elements[0].str;
        next = ParseReply(conn->Call(more));
        if (!next || next->elements.size() != 2) return "bad scan page";
        page = &*next;
      }
    }
    return ks == rs ? "" : "different scan members";
  }
};

TEST_F(SetsDifferentialTest, RandomSetSequences) {
  const std::optional<uint64_t> only = EnvU64("KV_SET_DIFF_SEED");
  const uint64_t base =
      only.value_or(EnvU64("KV_SET_DIFF_BASE_SEED")
                        .value_or(static_cast<uint64_t>(
                            std::chrono::system_clock::now().time_since_epoch().count())));
  const uint64_t count = only ? 1 : EnvU64("KV_SET_DIFF_SEQUENCES").value_or(400);
  std::cout << "[sets differential] base seed " << base
            << " (replay the run: KV_SET_DIFF_BASE_SEED=" << base << "), " << count << " sequences"
            << std::endl;
  int failed = 0;
  size_t commands = 0, resp3 = 0;
  std::map<std::string, size_t> encodings;
  for (uint64_t i = 0; i < count && failed < 5; ++i) {
    const uint64_t seed = base + i;
    SetGenerator gen(seed);
    std::vector<Args> history = {
        {"flushall"},
        {"config", "set", "set-max-intset-entries", gen.Pick({"512", "512", "0", "1", "4", "16"})},
        {"hello", gen.Percent(33) ? "3" : "2"}};
    resp3 += history.back()[1] == "3";
    for (const Args& c : history) Both(c);  // HELLO's reply names the server: not compared
    const size_t n = 25 + gen.Uniform(36);
    std::vector<std::pair<std::string, std::string>> replies;
    for (size_t j = 0; j < n; ++j) {
      history.push_back(gen.Next());
      std::string k, r;
      std::string why = Compare(history.back(), &k, &r);
      replies.emplace_back(k, r);
      ++commands;
      const std::string name = Lower(history.back()[0]);
      if (name == "object") ++encodings[r];
      std::string why_encoding;
      if (why.empty() && kWrites.count(name) && history.back().size() >= 2) {
        // After every write, the keys it wrote must have the same encoding on both servers.
        for (size_t a = 1; a <= (name == "smove" || name == "copy" || name == "rename" ? 2 : 1);
             ++a) {
          const auto [ke, re] = Both({"object", "encoding", history.back()[a]});
          ++encodings[re];
          if (ke != re)
            why_encoding =
                "encoding of " + history.back()[a] + ": " + Escape(ke) + " vs " + Escape(re);
        }
      }
      if (why.empty() && why_encoding.empty()) continue;
      if (why.empty()) why = why_encoding;
      ++failed;
      std::ostringstream out;
      out << "divergence (" << why << ") in sequence with seed " << seed
          << " (replay: KV_SET_DIFF_SEED=" << seed << "), command #" << j << "\n";
      for (size_t m = 0; m < history.size(); ++m) {
        out << "  " << DescribeArgs(history[m]) << "\n";
        if (m < 3) continue;
        const auto& [kr, rr] = replies[m - 3];
        if (kr == rr) {
          out << "      -> \"" << Escape(kr.substr(0, 300)) << "\"\n";
        } else {
          out << "      kvserver -> \"" << Escape(kr.substr(0, 300)) << "\"\n";
          out << "      redis    -> \"" << Escape(rr.substr(0, 300)) << "\"\n";
        }
      }
      ADD_FAILURE() << out.str();
      break;
    }
  }
  std::cout << "[sets differential] " << count << " sequences (" << resp3 << " in RESP3), "
            << commands << " commands, " << failed << " diverged; OBJECT ENCODING replies:";
  for (const auto& [reply, n] : encodings) std::cout << " \"" << Escape(reply) << "\" " << n;
  std::cout << std::endl;
  // The generator must keep reaching both encodings.
  if (count >= 200) {
    EXPECT_GT(encodings["$6\r\nintset\r\n"], 20u);
    EXPECT_GT(encodings["$9\r\nhashtable\r\n"], 20u);
  }
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

// Fixed cases: every error text, both encodings' orders where Redis's is fixed, and the
// conversion moments, byte for byte.
TEST_F(SetsDifferentialTest, FixedCasesMatch) {
  std::vector<Args> commands = {
      // A clean start: the random test leaves keys and a changed limit behind.
      {"flushall"},
      {"config", "set", "set-max-intset-entries", "512"},
      {"sadd", "i", "5", "-3", "70000", "1"},
      {"smembers", "i"},
      {"sunion", "i", "nokey"},
      {"sdiff", "i", "nokey"},
      {"sinter", "i", "i"},
      {"srandmember", "i", "10"},
      {"sscan", "i", "0"},
      {"sscan", "i", "0", "match", "*0*"},
      {"debug", "object", "i"},
      {"sadd", "h", "b", "a", "1"},
      {"object", "encoding", "h"},
      {"srem", "h", "a", "b"},
      {"object", "encoding", "h"},
      {"sunion", "h"},
      {"sunion", "h", "i"},
      {"sdiff", "i", "h"},
      {"sinterstore", "d", "i", "h"},
      {"object", "encoding", "d"},
      {"sunionstore", "d", "h", "i"},
      {"object", "encoding", "d"},
      {"smembers", "d"},
      {"spop", "d", "100"},
      {"spop", "h", "x"},
      {"spop", "h", "-1"},
      {"spop", "h", "1", "2"},
      {"srandmember", "h", "x"},
      {"srandmember", "h", "-9223372036854775808"},
      {"srandmember", "h", "1", "2"},
      {"sintercard", "0", "h"},
      {"sintercard", "x", "h"},
      {"sintercard", "3", "h"},
      {"sintercard", "1", "h", "limit", "-5"},
      {"sintercard", "1", "h", "limit", "x"},
      {"sintercard", "1", "h", "limit"},
      {"sintercard", "1", "h", "bogus", "1"},
      {"sscan", "h", "x"},
      {"sscan", "h", "-"},
      {"sscan", "nokey", "x"},
      {"sscan", "nokey", "0", "count", "0"},
      {"sscan", "h", "0", "count", "0"},
      {"sscan", "h", "0", "count", "x"},
      {"sscan", "h", "0", "type", "set"},
      {"sscan", "h", "0", "match"},
      {"set", "s", "v"},
      {"sscan", "s", "0", "count", "0"},
      {"smove", "nokey", "s", "1"},
      {"smove", "h", "s", "1"},
      {"smove", "s", "h", "1"},
      {"sinter", "nokey", "s"},
      {"sadd", "s", "1"},
      {"sintercard", "1", "s"},
      {"command", "info", "sadd", "srem", "smembers", "sismember", "smismember", "scard", "spop",
       "srandmember", "smove", "sinter", "sintercard", "sinterstore", "sunion", "sunionstore",
       "sdiff", "sdiffstore", "sscan"},
      {"command", "getkeys", "sintercard", "2", "a", "b", "limit", "1"},
      {"command", "getkeys", "sintercard", "3", "a", "b"},
      {"command", "getkeysandflags", "smove", "a", "b", "m"},
      {"command", "getkeysandflags", "sdiffstore", "d", "a", "b"},
  };
  // The 512th and 513th members, under the default limit and a changed one.
  Args fill = {"sadd", "big"};
  for (int i = 0; i < 512; ++i) fill.push_back(std::to_string(i * 3));
  commands.push_back(fill);
  commands.push_back({"object", "encoding", "big"});
  commands.push_back({"debug", "object", "big"});
  commands.push_back({"sadd", "big", "-1"});
  commands.push_back({"object", "encoding", "big"});
  commands.push_back({"config", "set", "set-max-intset-entries", "2"});
  commands.push_back({"sadd", "small", "1", "2"});
  commands.push_back({"object", "encoding", "small"});
  commands.push_back({"sadd", "small", "3"});
  commands.push_back({"object", "encoding", "small"});
  commands.push_back({"config", "set", "set-max-intset-entries", "512"});
  for (const bool resp3 : {false, true}) {
    if (resp3) {
      commands.push_back({"hello", "3"});
    }
    for (const Args& c : std::vector<Args>{{"smembers", "i"},
                                           {"smembers", "nokey"},
                                           {"sunion", "i", "i"},
                                           {"sdiff", "i", "nokey"},
                                           {"sinter", "i", "nokey"},
                                           {"spop", "nokey", "1"},
                                           {"spop", "i", "0"},
                                           {"srandmember", "i", "0"},
                                           {"srandmember", "nokey", "1"},
                                           {"srandmember", "nokey"},
                                           {"spop", "nokey"},
                                           {"smismember", "i", "5", "6"},
                                           {"sscan", "nokey", "0"},
                                           {"sscan", "i", "0", "count", "1"}}) {
      commands.push_back(c);
    }
  }
  for (const Args& c : commands) {
    const auto [k, r] = Both(c);
    const std::string name = Lower(c[0]);
    if (name == "hello") continue;
    if (name == "debug") {
      EXPECT_EQ(DebugFields(k), DebugFields(r)) << DescribeArgs(c);
      continue;
    }
    EXPECT_EQ(k, r) << DescribeArgs(c);
  }
}

}  // namespace
}  // namespace kv::test
