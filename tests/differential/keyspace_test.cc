// Differential test of the keyspace commands: seeded random sequences of KEYS, SCAN, RANDOMKEY,
// TYPE, RENAME(NX), UNLINK, TOUCH, COPY, MOVE, SWAPDB, EXPIREAT, PEXPIREAT, EXPIRETIME,
// PEXPIRETIME, OBJECT, TIME, LASTSAVE mixed with SET/GET/DEL/EXPIRE over four keys and three
// databases, sent to kvserver and to redis-server. Replies must be byte-identical, except KEYS
// and full SCAN iterations (compared as sets), RANDOMKEY (nil exactly when the database is empty,
// else a key that EXISTS) and TIME/LASTSAVE/OBJECT IDLETIME (compared by shape).
//   KV_KEYSPACE_SEED=<seed>        replays one sequence
//   KV_KEYSPACE_SEQUENCES=<n>      how many sequences (default 600)

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;

std::optional<uint64_t> Env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::strtoull(v, nullptr, 10);
}

std::string Describe(const Args& a) {
  std::string out;
  for (const std::string& s : a) out += "\"" + Escape(s) + "\" ";
  return out;
}

std::optional<std::string> Ask(RawConnection& c, const Args& a) {
  if (!c.Send(EncodeCommand(a))) return std::nullopt;
  return c.ReadReply();
}

// The bulk strings of a flat reply (nested arrays flattened).
std::vector<std::string> Bulks(std::string_view r) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < r.size()) {
    const size_t eol = r.find("\r\n", at);
    if (eol == std::string_view::npos) break;
    if (r[at] == '$' && r[at + 1] != '-') {
      const size_t n = std::stoul(std::string(r.substr(at + 1, eol - at - 1)));
      out.emplace_back(r.substr(eol + 2, n));
      at = eol + 2 + n + 2;
    } else {
      at = eol + 2;
    }
  }
  return out;
}

std::string Shape(const std::string& r) {
  std::string s;
  for (char c : r) s += (c >= '0' && c <= '9') ? '9' : c;
  return s;
}

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t U(uint64_t n) { return rng_() % n; }
  std::string Key() { return std::string(1, "abcd"[U(4)]); }
  std::string Db() { return std::to_string(U(10) == 0 ? 17 : U(3)); }
  Args Next(int64_t now_ms) {
    const std::string far_s = std::to_string(now_ms / 1000 + 1000 + U(1000) * 10);
    const std::string far_ms = std::to_string(now_ms + 1'000'000 + U(1000) * 10'000);
    static const char* kFlags[] = {"NX", "XX", "GT", "LT", "bad"};
    switch (U(24)) {
      case 0:
        return {"SET", Key(), U(2) ? std::to_string(U(20000)) : std::string(U(60), 'x')};
      case 1:
        return {"GET", Key()};
      case 2:
        return {"DEL", Key(), Key()};
      case 3:
        return {"EXPIRE", Key(), std::to_string(100 + U(1000) * 10)};
      case 4:
        return {"KEYS", U(2) ? "*" : "[ab]*"};
      case 5:
        return {"SCANALL", U(2) ? "*" : "a*"};
      case 6:
        return {"RANDOMKEY"};
      case 7:
        return {"TYPE", Key()};
      case 8:
        return {U(2) ? "RENAME" : "RENAMENX", Key(), Key()};
      case 9:
        return {"UNLINK", Key(), Key()};
      case 10:
        return {"TOUCH", Key(), Key()};
      case 11: {
        Args a = {"COPY", Key(), Key()};
        if (U(2)) a.insert(a.end(), {"DB", Db()});
        if (U(2)) a.push_back("REPLACE");
        if (U(8) == 0) a.push_back("junk");
        return a;
      }
      case 12:
        return {"MOVE", Key(), Db()};
      case 13:
        return {"SWAPDB", Db(), U(8) ? Db() : "x"};
      case 14: {
        Args a = {"EXPIREAT", Key(), U(6) ? far_s : "1"};
        if (U(2)) a.push_back(kFlags[U(5)]);
        return a;
      }
      case 15: {
        Args a = {"PEXPIREAT", Key(), U(6) ? far_ms : "1"};
        if (U(2)) a.push_back(kFlags[U(5)]);
        return a;
      }
      case 16:
        return {U(2) ? "EXPIRETIME" : "PEXPIRETIME", Key()};
      case 17: {
        static const char* kSubs[] = {"ENCODING", "REFCOUNT", "IDLETIME", "FREQ", "bogus"};
        return {"OBJECT", kSubs[U(5)], Key()};
      }
      case 18:
        return {U(2) ? "TIME" : "LASTSAVE"};
      case 19:
        return {"SELECT", std::to_string(U(3))};
      case 20:
        return {"SCAN", U(4) ? "0" : "x", "COUNT", U(5) ? "1000" : "0"};
      case 21:
        return {"APPEND", Key(), "z"};
      case 22:
        return {"INCR", Key()};
      default:
        return {"EXISTS", Key()};
    }
  }

 private:
  std::mt19937_64 rng_;
};

// Runs a full SCAN iteration and returns the keys as a set, or the first non-array reply.
std::string ScanAll(RawConnection& c, const std::string& pattern) {
  std::set<std::string> keys;
  std::string cursor = "0";
  for (int i = 0; i < 10000; ++i) {
    auto r = Ask(c, {"SCAN", cursor, "MATCH", pattern});
    if (!r || (*r)[0] != '*') return r.value_or("<none>");
    std::vector<std::string> b = Bulks(*r);
    cursor = b[0];
    keys.insert(b.begin() + 1, b.end());
    if (cursor == "0") break;
  }
  std::string out;
  for (const std::string& k : keys) out += k + ",";
  return out;
}

std::string Sorted(const std::string& reply) {
  std::vector<std::string> b = Bulks(reply);
  std::set<std::string> s(b.begin(), b.end());
  std::string out = reply.substr(0, reply.find("\r\n")) + ":";
  for (const std::string& k : s) out += k + ",";
  return out;
}

TEST(KeyspaceDifferentialTest, RandomSequences) {
  auto kv = ServerProcess::StartKvserver();
  auto redis = ServerProcess::StartRedis();
  ASSERT_TRUE(kv && redis);
  auto ck = RawConnection::Connect(kv->port());
  auto cr = RawConnection::Connect(redis->port());
  ASSERT_TRUE(ck && cr);
  const std::optional<uint64_t> only = Env("KV_KEYSPACE_SEED");
  const uint64_t base = only.value_or(
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
  const uint64_t count = only ? 1 : Env("KV_KEYSPACE_SEQUENCES").value_or(600);
  std::cout << "[keyspace] base seed " << base << " (replay one: KV_KEYSPACE_SEED=<base+i>)\n";
  int failures = 0;
  for (uint64_t i = 0; i < count && failures < 5; ++i) {
    const uint64_t seed = base + i;
    Gen gen(seed);
    for (RawConnection* c : {ck.get(), cr.get()}) {
      ASSERT_EQ(Ask(*c, {"FLUSHALL"}), "+OK\r\n");
      ASSERT_EQ(Ask(*c, {"SELECT", "0"}), "+OK\r\n");
    }
    std::string log;
    const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    for (int step = 0; step < 25; ++step) {
      const Args a = gen.Next(now_ms);
      log += "  " + Describe(a) + "\n";
      std::string rk, rr;
      const std::string& cmd = a[0];
      if (cmd == "SCANALL") {
        rk = ScanAll(*ck, a[1]);
        rr = ScanAll(*cr, a[1]);
      } else {
        rk = Ask(*ck, a).value_or("<none>");
        rr = Ask(*cr, a).value_or("<none>");
        if (cmd == "KEYS" || (cmd == "SCAN" && rr[0] == '*')) {
          rk = Sorted(rk);
          rr = Sorted(rr);
        } else if (cmd == "TIME") {
          // Two bulk strings of digits: seconds and microseconds.
          auto ok = [](const std::string& r) {
            const std::vector<std::string> b = Bulks(r);
            if (r.rfind("*2\r\n", 0) != 0 || b.size() != 2) return false;
            for (const std::string& x : b) {
              if (x.empty() || x.find_first_not_of("0123456789") != std::string::npos) return false;
            }
            return std::stoll(b[1]) < 1'000'000;
          };
          rk = ok(rk) ? "time" : rk;
          rr = ok(rr) ? "time" : rr;
        } else if ((cmd == "EXPIRETIME" || cmd == "PEXPIRETIME") && rk != rr &&
                   rk.rfind(":", 0) == 0 && rr.rfind(":", 0) == 0) {
          // A deadline set by a relative EXPIRE depends on when each server ran it: equal up to
          // the time between the two calls (well under a second), not to the millisecond.
          const int64_t k = std::stoll(rk.substr(1)), r = std::stoll(rr.substr(1));
          if (k > 0 && r > 0 && std::llabs(k - r) <= (cmd == "EXPIRETIME" ? 1 : 1000)) rk = rr;
        } else if (cmd == "LASTSAVE" || (a.size() > 1 && a[1] == "IDLETIME")) {
          rk = Shape(rk);
          rr = Shape(rr);
        } else if (cmd == "RANDOMKEY") {
          if (rk != "$-1\r\n") {
            const std::vector<std::string> b = Bulks(rk);
            rk = Ask(*ck, {"EXISTS", b.at(0)}).value_or("") == ":1\r\n" ? "key" : rk;
          }
          if (rr != "$-1\r\n") rr = "key";
        }
      }
      if (rk != rr) {
        ++failures;
        ADD_FAILURE() << "seed " << seed << " (KV_KEYSPACE_SEED=" << seed << ")\n"
                      << log << "kvserver -> " << Escape(rk) << "\nredis    -> " << Escape(rr);
        break;
      }
    }
  }
}

}  // namespace
}  // namespace kv::test
