// Differential tests: the same requests go to kvserver and to the real redis-server, and the raw
// reply bytes must be identical.
//
// RandomSequences runs seeded random command sequences (20-40 commands each, FLUSHALL and SELECT 0
// before each). Each run picks a new base seed from the clock and prints it; sequence i uses seed
// base+i. On a divergence it prints the seed, the sequence so far and both replies.
//   KV_DIFF_SEED=<seed>       replays just that sequence
//   KV_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_DIFF_SEQUENCES=<n>     changes how many sequences run (default 1000)
// The generator mixes, over five keys (one binary) in databases 0 and 1: SET with every option
// (valid, conflicting, repeated, missing or bad times, NUL-suffixed words), GET, INCR/DECR/INCRBY/
// DECRBY (non-integers, overflow), MSET/MGET, DEL/EXISTS with repeated keys, EXPIRE/PEXPIRE with
// NX/XX/GT/LT and bad options, TTL/PTTL/PERSIST, SELECT, PING, ECHO, DBSIZE, FLUSHDB/FLUSHALL with
// ASYNC/SYNC/garbage, CONFIG GET/RESETSTAT and bad subcommands, unknown commands and wrong arity;
// names and options in random case; binary values with NUL and CRLF; now and then a request in
// inline form or a few pipelined in one write.
//
// What is left out, and why:
//  - QUIT, SHUTDOWN, INFO, COMMAND and CONFIG SET (they end the connection or the server, or
//    report server-specific values).
//  - CONFIG REWRITE: it writes the server's own configuration file.
//  - Command and subcommand names that are a real name plus a NUL byte and more ("get\0x"): Redis
//    hashes the whole name but compares C strings, so whether it finds GET depends on its random
//    hash seed.
//
// Timing: the two servers run each command a few microseconds apart, so the only replies that
// depend on the clock are TTL/PTTL of keys with an expiry (the exact millisecond differs). The
// generator keeps everything else deterministic: relative expire times are at least 100 s (no key
// expires while a sequence runs) and distinct, 10 s apart, within a sequence (so NX/XX/GT/LT
// comparisons never hinge on which millisecond a command ran in); absolute times are either fixed
// far-future constants (ties are then exact on both servers) or past. TTL/PTTL replies of 0 or
// more may differ by what the clock can have moved between the two servers (measured per
// sequence; TTL also by one for the rounding to seconds); -1/-2 must match exactly, and
// TtlRounding checks the rounding exactly. A key whose time has passed lingers, and counts in
// DBSIZE, until something deletes it, which each server's background expire cycle does at its
// own moments: DBSIZE is therefore always preceded by an EXISTS of every key.

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;
using Clock = std::chrono::steady_clock;
using namespace std::string_literals;

int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<uint64_t> EnvU64(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::strtoull(v, nullptr, 10);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c + 32 : c);
  return s;
}

std::string DescribeArgs(const Args& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ' ';
    out += '"' + Escape(args[i].size() > 300 ? args[i].substr(0, 300) : args[i]) + '"';
    if (args[i].size() > 300) out += "...(" + std::to_string(args[i].size()) + " bytes)";
  }
  return out;
}

// The command as an inline request: every argument double-quoted, with the escapes Redis's
// sdssplitargs understands.
std::string EncodeInline(const Args& args) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ' ';
    out += '"';
    for (unsigned char c : args[i]) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c >= 0x20 && c < 0x7f) {
        out += static_cast<char>(c);
      } else {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    }
    out += '"';
  }
  out += "\r\n";
  return out;
}

// The elements of a flat RESP array reply, or nullopt.
std::optional<std::vector<std::string>> SplitArray(std::string_view reply) {
  if (reply.empty() || reply[0] != '*') return std::nullopt;
  const size_t header = reply.find("\r\n");
  if (header == std::string_view::npos) return std::nullopt;
  std::vector<std::string> out;
  std::string_view rest = reply.substr(header + 2);
  while (!rest.empty()) {
    const std::optional<size_t> n = FrameReply(rest);
    if (!n || *n == 0) return std::nullopt;
    out.emplace_back(rest.substr(0, *n));
    rest.remove_prefix(*n);
  }
  return out;
}

std::optional<int64_t> IntegerReply(std::string_view reply) {
  if (reply.size() < 4 || reply[0] != ':') return std::nullopt;
  return std::strtoll(std::string(reply.substr(1)).c_str(), nullptr, 10);
}

// Whether kvserver's reply `a` matches Redis's reply `b` to `args`. Byte equality, except for
// TTL/PTTL of keys with an expiry (within `clock_skew_ms`, see the top of the file) and for
// CONFIG GET, whose order in Redis is that of a hash table. A negative
// `clock_skew_ms` asks for byte equality throughout.
bool SameReply(const Args& args, const std::string& a, const std::string& b,
               int64_t clock_skew_ms) {
  if (a == b) return true;
  if (clock_skew_ms < 0) return false;
  const std::string cmd = Lower(args[0]);
  if ((cmd == "ttl" || cmd == "pttl") && args.size() == 2) {
    const auto x = IntegerReply(a), y = IntegerReply(b);
    if (!x || !y || *x < 0 || *y < 0) return false;
    const int64_t tolerance = cmd == "pttl" ? clock_skew_ms : 1 + clock_skew_ms / 1000;
    return std::llabs(*x - *y) <= tolerance;
  }
  if (cmd == "config" && args.size() >= 3 && Lower(args[1]) == "get") {
    auto x = SplitArray(a), y = SplitArray(b);
    if (!x || !y || x->size() != y->size() || x->size() % 2 != 0) return false;
    std::vector<std::pair<std::string, std::string>> px, py;
    for (size_t i = 0; i < x->size(); i += 2) {
      px.emplace_back((*x)[i], (*x)[i + 1]);
      py.emplace_back((*y)[i], (*y)[i + 1]);
    }
    std::sort(px.begin(), px.end());
    std::sort(py.begin(), py.end());
    return px == py;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The random command generator. Everything it produces depends only on the seed and on the wall
// clock at the start of the sequence (for absolute expire times relative to now).

class Generator {
 public:
  Generator(uint64_t seed, int64_t now_ms) : rng_(seed), now_ms_(now_ms) {}

  uint64_t Uniform(uint64_t n) { return rng_() % n; }
  bool Percent(int p) { return static_cast<int>(Uniform(100)) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(v.size())];
  }

  // Upper, lower or mixed case.
  std::string Case(std::string s) {
    const uint64_t mode = Uniform(4);
    for (char& c : s) {
      const bool upper = mode == 0 || (mode == 2 && Percent(50));
      if (c >= 'a' && c <= 'z' && upper) c = static_cast<char>(c - 32);
      if (c >= 'A' && c <= 'Z' && !upper && mode != 3) c = static_cast<char>(c + 32);
    }
    return s;
  }

  static const std::vector<std::string>& Keys() {
    static const std::vector<std::string> keys = {"k0", "k1", "key:2", "bin\0\r\n3"s, "4"};
    return keys;
  }
  std::string Key() { return Pick(Keys()); }

  std::string Value() {
    static const std::vector<std::string> kValues = {
        "",
        "0",
        "1",
        "-1",
        "10",
        "010",
        " 1",
        "1 ",
        "+1",
        "-0",
        "00",
        "0x1a",
        "1e3",
        "3.14",
        "abc",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775806",
        "-9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "99999999999999999999",
        "hello world",
        "a\0b"s,
        "\r\n",
        "line1\r\nline2",
        "\xff\xfe",
        "\0"s,
        "\"quoted\" \\ 'x'",
    };
    const uint64_t r = Uniform(100);
    if (r < 70) return Pick(kValues);
    if (r < 90) return std::to_string(static_cast<int64_t>(Uniform(2001)) - 1000);
    if (r < 98) return std::string(1 + Uniform(300), static_cast<char>('a' + Uniform(26)));
    return std::string(1000 + Uniform(70000), 'x');
  }

  std::string Integer() {
    static const std::vector<std::string> kIntegers = {
        "0",
        "1",
        "-1",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775806",
        "-9223372036854775807",
        "4611686018427387904",
        "9223372036854775808",
        "-9223372036854775809",
        "",
        "abc",
        "1.5",
        " 1",
        "1 ",
        "+1",
        "010",
        "-0",
        "0x10",
        "99999999999999999999",
    };
    if (Percent(40)) return std::to_string(static_cast<int64_t>(Uniform(201)) - 100);
    return Pick(kIntegers);
  }

  // A relative time in seconds, distinct within the sequence and at least 100 s.
  int64_t UniqueSeconds() {
    while (true) {
      const int64_t s = 10 * (10 + static_cast<int64_t>(Uniform(100000)));
      if (used_seconds_.insert(s).second) return s;
    }
  }

  // Times that are invalid, in the past, or at the limits of what fits in 64 bits.
  std::string BadTime(std::string_view kind) {
    static const std::vector<std::string> kBad = {
        "0",
        "-1",
        "-100",
        "abc",
        "",
        "1.5",
        " 100",
        "100 ",
        "+100",
        "9223372036854775807",
        "9223372036854776",
        "-9223372036854775808",
        "-9223372036854775",
        "-9223372036854776",
        "9223372036854775808",
    };
    const uint64_t r = Uniform(kBad.size() + 2);
    if (r < kBad.size()) return kBad[r];
    // Huge, but valid as milliseconds. As a relative time (PX, PEXPIRE) it is made distinct
    // within the sequence like any other relative time.
    const int64_t huge = r == kBad.size() ? 9223372036854775 : 9223370000000000000;
    if (kind == "px") return std::to_string(huge - UniqueSeconds() * 1000);
    return std::to_string(huge);
  }

  // The argument of an EX/PX/EXAT/PXAT option or of EXPIRE/PEXPIRE.
  std::string Time(std::string_view kind) {
    if (Percent(20)) return BadTime(kind);
    if (kind == "ex") return std::to_string(UniqueSeconds());
    if (kind == "px") return std::to_string(UniqueSeconds() * 1000 + Uniform(200));
    const bool ms = kind == "pxat";
    const uint64_t r = Uniform(10);
    if (r < 5) {
      const int64_t s = UniqueSeconds();
      return std::to_string(ms ? now_ms_ + s * 1000 + static_cast<int64_t>(Uniform(200))
                               : now_ms_ / 1000 + s);
    }
    if (r < 8) {
      static const std::vector<std::string> kFarSeconds = {"4102444800", "4102444810"};
      static const std::vector<std::string> kFarMs = {"4102444800000", "4102444800123",
                                                      "4102444810000"};
      return Pick(ms ? kFarMs : kFarSeconds);
    }
    // In the past.
    if (Percent(50)) return "1";
    return std::to_string(ms ? now_ms_ - 100000 : now_ms_ / 1000 - 100);
  }

  std::vector<std::string> SetOptions() {
    // Redis reads options as C strings, so "nx\0..." is NX to it.
    static const std::vector<std::string> kGarbage = {
        "NXX", "", "N", "EXP", "PERSIST", "ex1", "KEEP", "GETT", "nx\0"s, "GET\0x"s, "keepttl\0"s};
    std::vector<std::string> opts;
    const uint64_t n = Percent(35) ? 0 : 1 + Uniform(Percent(70) ? 2 : 4);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t r = Uniform(100);
      if (r < 14) {
        opts.push_back(Case("nx"));
      } else if (r < 28) {
        opts.push_back(Case("xx"));
      } else if (r < 42) {
        opts.push_back(Case("get"));
      } else if (r < 52) {
        opts.push_back(Case("keepttl"));
      } else if (r < 94) {
        static const std::vector<std::string> kKinds = {"ex", "px", "exat", "pxat"};
        const std::string kind = Pick(kKinds);
        opts.push_back(Case(kind));
        // Now and then the time is missing (at the end) or is another option.
        if (!Percent(4)) opts.push_back(Time(kind));
      } else {
        opts.push_back(Pick(kGarbage));
      }
    }
    return opts;
  }

  Args Next() {
    if (!queued_.empty()) {
      Args a = std::move(queued_.back());
      queued_.pop_back();
      return a;
    }
    const uint64_t r = Uniform(1000);
    if (r < 180) {
      Args a = {Case("set"), Key(), Value()};
      for (std::string& o : SetOptions()) a.push_back(std::move(o));
      return a;
    }
    if (r < 260) return {Case("get"), Key()};
    if (r < 360) {
      static const std::vector<std::string> kIncr = {"incr", "decr", "incrby", "decrby"};
      const std::string cmd = Pick(kIncr);
      if (cmd == "incr" || cmd == "decr") return {Case(cmd), Key()};
      return {Case(cmd), Key(), Integer()};
    }
    if (r < 400) {
      Args a = {Case("mset")};
      const uint64_t pairs = 1 + Uniform(4);
      for (uint64_t i = 0; i < pairs; ++i) {
        a.push_back(Key());
        a.push_back(Value());
      }
      if (Percent(10)) a.pop_back();
      return a;
    }
    if (r < 430) {
      Args a = {Case("mget")};
      const uint64_t n = 1 + Uniform(6);
      for (uint64_t i = 0; i < n; ++i) a.push_back(Key());
      return a;
    }
    if (r < 490) {
      Args a = {Case(Percent(50) ? "del" : "exists")};
      const uint64_t n = 1 + Uniform(6);
      for (uint64_t i = 0; i < n; ++i) a.push_back(Key());
      return a;
    }
    if (r < 600) {
      const bool seconds = Percent(50);
      Args a = {Case(seconds ? "expire" : "pexpire"), Key(), Time(seconds ? "ex" : "px")};
      static const std::vector<std::string> kFlags = {"nx", "xx", "gt", "lt"};
      static const std::vector<std::string> kBadFlags = {
          "XY", "", "nxx", "gt\r\n", "\r\nlt", "l t", "lt\0x"s, "x\0"s, "a\r\n\r\n"};
      const uint64_t n = Percent(40) ? 0 : 1 + Uniform(3);
      for (uint64_t i = 0; i < n; ++i)
        a.push_back(Percent(92) ? Case(Pick(kFlags)) : Pick(kBadFlags));
      return a;
    }
    if (r < 690) {
      static const std::vector<std::string> kCmds = {"ttl", "pttl", "persist"};
      return {Case(Pick(kCmds)), Key()};
    }
    if (r < 740) {
      static const std::vector<std::string> kBadDbs = {
          "16", "-1", "2147483648", "-2147483649", "a", "", "1.0", " 1", "01", "+1", "15", "0x1"};
      return {Case("select"), Percent(80) ? std::to_string(Uniform(2)) : Pick(kBadDbs)};
    }
    if (r < 780) {
      if (Percent(50)) {
        if (Percent(40)) return {Case("ping")};
        if (Percent(90)) return {Case("ping"), Value()};
        return {Case("ping"), Value(), Value()};
      }
      if (Percent(90)) return {Case("echo"), Value()};
      return Percent(50) ? Args{Case("echo")} : Args{Case("echo"), Value(), Value()};
    }
    if (r < 810) {
      // A key whose time has passed (SET with a past EXAT/PXAT) is counted by DBSIZE until it is
      // deleted: on access, or by the background expire cycle, which each server runs at its own
      // moments. So every key of the database is looked at first, which deletes such keys on both.
      queued_.push_back(Percent(90) ? Args{Case("dbsize")} : Args{Case("dbsize"), Key()});
      Args touch = {Case("exists")};
      touch.insert(touch.end(), Keys().begin(), Keys().end());
      return touch;
    }
    if (r < 830) {
      static const std::vector<std::string> kFlushArgs = {"async", "sync",   "lazy",
                                                          "",      "asyncx", "sync\0x"s};
      Args a = {Case(Percent(75) ? "flushdb" : "flushall")};
      const uint64_t n = Percent(40) ? 0 : Percent(85) ? 1 : 2;
      for (uint64_t i = 0; i < n; ++i) a.push_back(Case(Pick(kFlushArgs)));
      return a;
    }
    if (r < 870) return ConfigCommand();
    if (r < 920) return UnknownCommand();
    return WrongArity();
  }

  Args ConfigCommand() {
    // Directives both servers know, with the same defaults under the test's options; globs that
    // match the same directives in both; and names neither knows.
    static const std::vector<std::string> kNames = {"databases",
                                                    "timeout",
                                                    "proto-max-bulk-len",
                                                    "hz",
                                                    "tcp-keepalive",
                                                    "tcp-backlog",
                                                    "loglevel",
                                                    "appendonly",
                                                    "daemonize",
                                                    "DataBases",
                                                    "client-query-buffer-limit",
                                                    "no-such-param",
                                                    "time*",
                                                    "*bulk*",
                                                    "proto-max-bulk-le[nm]",
                                                    "tcp-*",
                                                    "databas?",
                                                    "",
                                                    "TIMEOUT"};
    const uint64_t r = Uniform(100);
    if (r < 75) {
      Args a = {Case("config"), Case("get")};
      const uint64_t n = Percent(80) ? 1 : 2 + Uniform(2);
      for (uint64_t i = 0; i < n; ++i) a.push_back(Pick(kNames));
      return a;
    }
    if (r < 80) return {Case("config"), Case("resetstat")};
    if (r < 85) return {Case("config"), Case("resetstat"), "x"};
    if (r < 88) return {Case("config"), Case("help"), "x"};
    if (r < 91) return {Case("config")};
    if (r < 94) return {Case("config"), Case("get")};
    if (r < 96) return {Case("config"), Case("help")};
    // Not REWRITE: it writes the server's configuration file.
    static const std::vector<std::string> kSubs = {"foo", "", "gett", "x\r\ny", "rewritee"};
    Args a = {Case("config"), Pick(kSubs)};
    if (Percent(50)) a.push_back(Value());
    return a;
  }

  Args UnknownCommand() {
    // A name with a NUL byte does not begin with a real command's name ("get\0x"): Redis's
    // command table hashes the whole name but compares names as C strings, so "get\0x" finds
    // GET when the two happen to share a bucket under that process's random hash seed.
    static const std::vector<std::string> kNames = {
        "foo",      "GETX",   "sett",     "",     "config|get",
        "xget\0x"s, "x\r\ny", "\xc3\xa9", "set ", "incrbyfloat2"};
    Args a = {Percent(10) ? std::string(100 + Uniform(100), 'c') : Pick(kNames)};
    const uint64_t n = Percent(10) ? 20 + Uniform(30) : Uniform(5);
    for (uint64_t i = 0; i < n; ++i) a.push_back(Value());
    return a;
  }

  Args WrongArity() {
    const std::string k = Key();
    const std::vector<Args> cases = {
        {"get"},
        {"get", k, k},
        {"set", k},
        {"set"},
        {"incr"},
        {"incr", k, "1"},
        {"decr"},
        {"incrby", k},
        {"decrby", k},
        {"incrby", k, "1", "2"},
        {"mset", k},
        {"mset"},
        {"mget"},
        {"del"},
        {"exists"},
        {"expire", k},
        {"pexpire", k},
        {"ttl"},
        {"pttl", k, k},
        {"persist"},
        {"persist", k, k},
        {"select"},
        {"select", "0", "1"},
        {"echo"},
        {"dbsize", "x"},
        {"decrby", k, "1", "x"},
        {"mset", k, "v", k},
        {"expire"},
    };
    Args a = Pick(cases);
    a[0] = Case(a[0]);
    return a;
  }

 private:
  std::mt19937_64 rng_;
  int64_t now_ms_;
  std::set<int64_t> used_seconds_;
  std::vector<Args> queued_;  // commands to return next, last first
};

// ---------------------------------------------------------------------------------------------

class DifferentialTest : public BothServersTest<DifferentialTest> {
 protected:
  struct Pair {
    std::unique_ptr<RawConnection> kv, redis;
  };

  static Pair ConnectBoth() {
    Pair p{RawConnection::Connect(kvserver_->port()), RawConnection::Connect(redis_->port())};
    EXPECT_TRUE(p.kv && p.redis) << "cannot connect";
    return p;
  }

  // Sends `requests` (one request each) to both servers, pipelined, and returns each server's
  // replies, one per request; a missing reply is "<no reply: ...>".
  static std::pair<std::vector<std::string>, std::vector<std::string>> Exchange(
      Pair& p, const std::vector<std::string>& requests) {
    std::string all;
    for (const std::string& r : requests) all += r;
    p.kv->Send(all);
    p.redis->Send(all);
    auto read = [&](RawConnection& c) {
      std::vector<std::string> replies;
      for (size_t i = 0; i < requests.size(); ++i) {
        std::optional<std::string> reply = c.ReadReply();
        if (!reply) {
          replies.push_back("<no reply: pending \"" + Escape(c.pending()) + "\">");
          break;
        }
        replies.push_back(*reply);
      }
      replies.resize(requests.size(), "<no reply>");
      return replies;
    };
    auto kv = read(*p.kv);
    auto redis = read(*p.redis);
    return {kv, redis};
  }

  // Sends every command (after FLUSHALL, on fresh connections, pipelined) to both servers and
  // expects the same reply bytes to each. With `exact_ttl` false, TTL/PTTL replies may differ by
  // as much as the clock can have moved between the two servers running the command (at most the
  // whole exchange).
  static void ExpectSameReplies(const std::vector<Args>& commands, bool exact_ttl = false) {
    Pair p = ConnectBoth();
    ASSERT_TRUE(p.kv && p.redis);
    std::vector<std::string> requests = {EncodeCommand({"FLUSHALL"})};
    for (const Args& c : commands) requests.push_back(EncodeCommand(c));
    const auto start = Clock::now();
    auto [kv, redis] = Exchange(p, requests);
    const int64_t skew_ms =
        exact_ttl
            ? 0
            : std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count() +
                  2;
    ASSERT_EQ(kv[0], "+OK\r\n");
    ASSERT_EQ(redis[0], "+OK\r\n");
    int failures = 0;
    for (size_t i = 0; i < commands.size() && failures < 20; ++i) {
      if (SameReply(commands[i], kv[i + 1], redis[i + 1], skew_ms)) continue;
      ++failures;
      ADD_FAILURE() << "command #" << i << ": " << DescribeArgs(commands[i]) << "\n  kvserver: \""
                    << Escape(kv[i + 1]) << "\"\n  redis:    \"" << Escape(redis[i + 1]) << "\"";
    }
  }
};

// Kinds of replies a run should produce, so a change to the generator that stops exercising
// something shows up. Each label is counted from Redis's reply.
using Tally = std::map<std::string, uint64_t>;

const std::vector<std::string>& ExpectedKinds() {
  static const std::vector<std::string> kinds = {
      "set +OK",         "set nil",           "set GET value",   "expire 1",
      "expire 0",        "ttl > 0",           "ttl -1",          "ttl -2",
      "persist 1",       "incr integer",      "overflow",        "not an integer",
      "invalid expire",  "syntax error",      "unknown command", "wrong arity",
      "unsupported opt", "not compatible",    "db out of range", "unknown subcommand",
      "mget value",      "config get result", "exists > 1",      "del > 1"};
  return kinds;
}

void Count(const Args& args, const std::string& reply, Tally* tally) {
  const std::string cmd = Lower(args[0]);
  auto has = [&](const char* text) { return reply.find(text) != std::string::npos; };
  auto add = [&](const char* kind) { ++(*tally)[kind]; };
  const std::optional<int64_t> n = IntegerReply(reply);
  if (cmd == "set" && reply == "+OK\r\n") add("set +OK");
  if (cmd == "set" && reply == "$-1\r\n") add("set nil");
  if (cmd == "set" && reply[0] == '$' && reply != "$-1\r\n") add("set GET value");
  if ((cmd == "expire" || cmd == "pexpire") && n) add(*n == 1 ? "expire 1" : "expire 0");
  if ((cmd == "ttl" || cmd == "pttl") && n) {
    add(*n > 0 ? "ttl > 0" : *n == -1 ? "ttl -1" : *n == -2 ? "ttl -2" : "ttl 0");
  }
  if (cmd == "persist" && n == 1) add("persist 1");
  if (cmd.starts_with("incr") || cmd.starts_with("decr")) {
    if (n) add("incr integer");
  }
  if (has("would overflow")) add("overflow");
  if (has("not an integer")) add("not an integer");
  if (has("invalid expire time")) add("invalid expire");
  if (has("syntax error")) add("syntax error");
  if (has("unknown command")) add("unknown command");
  if (has("wrong number of arguments")) add("wrong arity");
  if (has("Unsupported option")) add("unsupported opt");
  if (has("not compatible")) add("not compatible");
  if (has("DB index is out of range")) add("db out of range");
  if (has("unknown subcommand")) add("unknown subcommand");
  if (cmd == "mget") {
    // Some element is a bulk string rather than a nil.
    for (size_t at = reply.find("\r\n$"); at != std::string::npos;
         at = reply.find("\r\n$", at + 1)) {
      if (at + 3 < reply.size() && reply[at + 3] != '-') {
        add("mget value");
        break;
      }
    }
  }
  if (cmd == "config" && reply.starts_with("*") && reply != "*0\r\n") add("config get result");
  if (cmd == "exists" && n > 1) add("exists > 1");
  if (cmd == "del" && n > 1) add("del > 1");
}

struct Divergence {
  std::string full;     // seed, the whole sequence so far and both replies
  std::string summary;  // seed, the diverging command and both replies
};

// Runs the sequence for `seed` on `kv` and `redis`; returns its first divergence, if any.
std::optional<Divergence> RunSequence(uint64_t seed, RawConnection& kv, RawConnection& redis,
                                      Tally* tally) {
  // Every sequence starts from the same state: empty databases, database 0 selected.
  for (RawConnection* c : {&kv, &redis}) {
    c->Send(EncodeCommand({"FLUSHALL"}) + EncodeCommand({"SELECT", "0"}));
    for (int i = 0; i < 2; ++i) {
      std::optional<std::string> r = c->ReadReply();
      if (!r || *r != "+OK\r\n") {
        const std::string text =
            "seed " + std::to_string(seed) + ": reset failed: " + Escape(r.value_or("<none>"));
        return Divergence{text, text};
      }
    }
  }
  Generator gen(seed, WallMs());
  const int length = 20 + static_cast<int>(gen.Uniform(21));
  struct Step {
    Args args;
    bool inline_form = false;
    bool pipelined = false;  // sent in one write with the step before
    std::string kv_reply, redis_reply;
  };
  std::vector<Step> steps;
  int64_t max_round_ms = 0;
  while (static_cast<int>(steps.size()) < length) {
    // Mostly one command per round trip; now and then a few pipelined in one write.
    const size_t first = steps.size();
    const int batch = gen.Percent(10) ? 2 + static_cast<int>(gen.Uniform(3)) : 1;
    std::string request;
    for (int b = 0; b < batch; ++b) {
      Step step;
      step.args = gen.Next();
      step.pipelined = b > 0;
      std::string bytes = EncodeCommand(step.args);
      // Now and then the command goes as an inline request instead.
      if (gen.Percent(10)) {
        std::string in = EncodeInline(step.args);
        if (in.size() < 60000) {
          step.inline_form = true;
          bytes = std::move(in);
        }
      }
      request += bytes;
      steps.push_back(std::move(step));
    }
    const auto start = Clock::now();
    kv.Send(request);
    redis.Send(request);
    bool answered = true;
    for (size_t j = first; j < steps.size(); ++j) {
      std::optional<std::string> a = kv.ReadReply();
      std::optional<std::string> b = redis.ReadReply();
      steps[j].kv_reply = a ? *a : "<no reply; pending \"" + Escape(kv.pending()) + "\">";
      steps[j].redis_reply = b ? *b : "<no reply; pending \"" + Escape(redis.pending()) + "\">";
      if (!a || !b) {
        answered = false;
        steps.resize(j + 1);
        break;
      }
    }
    const int64_t round_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count() + 1;
    max_round_ms = std::max(max_round_ms, round_ms);
    size_t bad = steps.size();
    for (size_t j = first; j < steps.size() && bad == steps.size(); ++j) {
      if (!answered && j + 1 == steps.size()) bad = j;
      if (!SameReply(steps[j].args, steps[j].kv_reply, steps[j].redis_reply,
                     2 * max_round_ms + 2)) {
        bad = j;
      }
    }
    if (bad == steps.size()) {
      for (size_t j = first; j < steps.size(); ++j)
        Count(steps[j].args, steps[j].redis_reply, tally);
      continue;
    }
    steps.resize(bad + 1);
    std::ostringstream out;
    out << "divergence in sequence with seed " << seed << " (replay: KV_DIFF_SEED=" << seed
        << "), command #" << bad << "\n";
    for (size_t j = 0; j < steps.size(); ++j) {
      const Step& s = steps[j];
      out << "  #" << j << (s.pipelined ? " [pipelined with the previous]" : "")
          << (s.inline_form ? " [inline]" : "") << " " << DescribeArgs(s.args) << "\n";
      if (s.kv_reply == s.redis_reply) {
        out << "      -> \"" << Escape(s.kv_reply) << "\"\n";
      } else {
        out << "      kvserver -> \"" << Escape(s.kv_reply) << "\"\n";
        out << "      redis    -> \"" << Escape(s.redis_reply) << "\"\n";
      }
    }
    const Step& last = steps.back();
    std::ostringstream summary;
    summary << "seed " << seed << ": " << DescribeArgs(last.args) << "\n      kvserver -> \""
            << Escape(last.kv_reply) << "\"\n      redis    -> \"" << Escape(last.redis_reply)
            << "\"";
    return Divergence{out.str(), summary.str()};
  }
  return std::nullopt;
}

TEST_F(DifferentialTest, RandomSequences) {
  const std::optional<uint64_t> only_seed = EnvU64("KV_DIFF_SEED");
  const uint64_t base =
      only_seed.value_or(EnvU64("KV_DIFF_BASE_SEED")
                             .value_or(static_cast<uint64_t>(
                                 std::chrono::system_clock::now().time_since_epoch().count())));
  const uint64_t count = only_seed ? 1 : EnvU64("KV_DIFF_SEQUENCES").value_or(1000);
  std::cout << "[differential] base seed " << base << " (replay the run: KV_DIFF_BASE_SEED=" << base
            << "), " << count << " sequences" << std::endl;
  RecordProperty("base_seed", std::to_string(base));

  Pair p = ConnectBoth();
  ASSERT_TRUE(p.kv && p.redis);
  // The first few divergences are reported in full, later ones by their last command only.
  constexpr int kFullReports = 3;
  constexpr int kMaxReports = 30;
  int failed = 0;
  uint64_t ran = 0;
  Tally tally;
  const auto start = Clock::now();
  for (uint64_t i = 0; i < count && failed < kMaxReports; ++i, ++ran) {
    const std::optional<Divergence> d = RunSequence(base + i, *p.kv, *p.redis, &tally);
    if (!d) continue;
    ++failed;
    ADD_FAILURE() << (failed <= kFullReports ? d->full : d->summary);
    // The connections may be out of step now: start over.
    p = ConnectBoth();
    ASSERT_TRUE(p.kv && p.redis);
  }
  std::cout << "[differential] " << ran << " sequences in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count()
            << " ms, " << failed << " diverged" << std::endl;
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
  // A full run must have produced every kind of reply the generator is meant to reach.
  if (failed == 0 && count >= 1000) {
    for (const std::string& kind : ExpectedKinds()) {
      EXPECT_GT(tally[kind], 0u) << "the generator never produced: " << kind;
    }
  }
  std::ostringstream kinds;
  for (const auto& [kind, n] : tally) kinds << " [" << kind << "] " << n;
  std::cout << "[differential] reply kinds:" << kinds.str() << std::endl;
}

// ---------------------------------------------------------------------------------------------
// Hand-written cases.

TEST_F(DifferentialTest, UnknownCommandMessages) {
  const std::string a200(200, 'a');
  const std::string b60(60, 'b');
  Args many = {"nosuchcommand"};
  for (int i = 0; i < 50; ++i) many.push_back("arg" + std::to_string(i));
  ExpectSameReplies({
      {"foo"},
      {"foo", "a"},
      {"foo", "a", "b", "c"},
      {a200},
      {a200, a200},
      {"foo", a200},
      {"foo", b60, b60, b60},
      {"foo", std::string(127, 'x'), "y", "z"},
      {"foo", std::string(126, 'x'), "y", "z"},
      {"foo", std::string(128, 'x'), "y"},
      {"foo", std::string(124, 'x'), "abcdef"},
      many,
      {"foo", "", "", ""},
      {""},
      {"", "x"},
      {"foo", "a\r\nb", "\r\n"},
      {"a\r\nb", "c"},
      {"foo", "a\0b"s, "c"},
      {"nosuch\0get"s, "k"},  // not "get\0x": see Generator::UnknownCommand
      {"fo\0o"s},
      {"config|get", "timeout"},
      {"get|x", "k"},
      {"CONFIG", "nosuch"},
      {"CONFIG", "nosuch", "a", "b"},
      {"config", std::string(200, 's')},
      {"config", "a\r\nb"},
      {"config", "x\0y"s},
      {"CoNfIg", "GeT"},
  });
}

TEST_F(DifferentialTest, WrongArityMessages) {
  ExpectSameReplies({
      {"get"},
      {"GET", "a", "b"},
      {"set", "k"},
      {"SeT"},
      {"incr"},
      {"incr", "a", "b"},
      {"decr"},
      {"incrby", "k"},
      {"decrby", "k", "1", "2"},
      {"mset"},
      {"mset", "k"},
      {"mset", "k", "v", "k2"},
      {"MSET", "a", "1", "b", "2", "c"},
      {"mget"},
      {"del"},
      {"exists"},
      {"expire", "k"},
      {"pexpire"},
      {"ttl"},
      {"ttl", "a", "b"},
      {"pttl"},
      {"persist"},
      {"select"},
      {"select", "0", "1"},
      {"echo"},
      {"echo", "a", "b"},
      {"ping", "a", "b"},
      {"ping", "a", "b", "c"},
      {"dbsize", "x"},
      {"config"},
      {"config", "get"},
      {"CONFIG", "GET"},
      {"config", "set", "timeout"},
      {"config", "resetstat", "x"},
      {"config", "help", "x"},
      {"flushdb", "async", "sync"},
      {"flushall", "x"},
  });
}

TEST_F(DifferentialTest, SetOptionCombinations) {
  // Every sequence of up to three options (with a time after each expire option, or a missing one
  // at the end), against a missing key and against an existing key with a TTL.
  const std::vector<Args> options = {
      {"NX"},
      {"xx"},
      {"GET"},
      {"KeepTTL"},
      {"EX", "100"},
      {"px", "100000"},
      {"EXAT", "4102444800"},
      {"pxat", "4102444800000"},
      {"EX"},
      {"foo"},
      {"ex", "0"},
      {"PX", "-5"},
      {"exat", "abc"},
      {"Get"},
      {"nx", "xx"},
  };
  std::vector<Args> combos = {{}};
  for (const Args& o1 : options) {
    combos.push_back(o1);
    for (const Args& o2 : options) {
      Args c = o1;
      c.insert(c.end(), o2.begin(), o2.end());
      combos.push_back(c);
      for (size_t k = 0; k < 10; ++k) {
        Args d = c;
        d.insert(d.end(), options[k].begin(), options[k].end());
        combos.push_back(d);
      }
    }
  }
  std::vector<Args> commands;
  for (const Args& c : combos) {
    Args missing = {"set", "missing", "v"};
    missing.insert(missing.end(), c.begin(), c.end());
    commands.push_back(missing);
    commands.push_back({"del", "missing"});
    commands.push_back({"set", "present", "old", "PXAT", "4102444800999"});
    Args present = {"SET", "present", "new"};
    present.insert(present.end(), c.begin(), c.end());
    commands.push_back(present);
    commands.push_back({"get", "present"});
    commands.push_back({"ttl", "present"});
  }
  ExpectSameReplies(commands);
}

TEST_F(DifferentialTest, SetExpireTimeLimits) {
  ExpectSameReplies({
      {"set", "k", "v", "EX", "9223372036854775"},
      {"set", "k", "v", "EX", "9223372036854776"},
      {"set", "k", "v", "PX", "9223372036854775807"},
      {"set", "k", "v", "EXAT", "9223372036854775"},
      {"pttl", "k"},
      {"set", "k", "v", "EXAT", "9223372036854776"},
      {"set", "k", "v", "PXAT", "9223372036854775807"},
      {"pttl", "k"},
      {"set", "k", "v", "PXAT", "0"},
      {"set", "k", "v", "PXAT", "-1"},
      {"set", "k", "v", "EX", "-9223372036854775808"},
      {"set", "k", "v", "EX", "1.5"},
      {"set", "k", "v", "EX", ""},
      {"set", "k", "v", "PXAT", "1"},
      {"get", "k"},
      {"exists", "k"},
      {"set", "k", "v", "EXAT", "1", "GET"},
      {"set", "k", "v", "KEEPTTL", "GET"},
      {"ttl", "k"},
  });
}

TEST_F(DifferentialTest, IncrementParsing) {
  std::vector<Args> commands;
  for (const std::string& v : std::vector<std::string>{"010",
                                                       " 1",
                                                       "1 ",
                                                       "+1",
                                                       "-0",
                                                       "0",
                                                       "00",
                                                       "0x1",
                                                       "1e2",
                                                       "",
                                                       "1.0",
                                                       "-",
                                                       "1\0"s,
                                                       "\0"s,
                                                       "9223372036854775807",
                                                       "-9223372036854775808",
                                                       "9223372036854775808",
                                                       "18446744073709551616",
                                                       "-1",
                                                       "123456789012345678901"}) {
    for (const char* cmd : {"incr", "decr"}) {
      commands.push_back({"set", "n", v});
      commands.push_back({cmd, "n"});
      commands.push_back({"get", "n"});
    }
    for (const char* cmd : {"incrby", "decrby"}) {
      commands.push_back({cmd, "fresh", v});
      commands.push_back({"set", "n", "5"});
      commands.push_back({cmd, "n", v});
      commands.push_back({"set", "n", "-9223372036854775807"});
      commands.push_back({cmd, "n", v});
      commands.push_back({"set", "n", "9223372036854775806"});
      commands.push_back({cmd, "n", v});
      commands.push_back({"get", "n"});
    }
  }
  commands.push_back({"decrby", "z", "-9223372036854775808"});
  commands.push_back({"incrby", "z", "-9223372036854775808"});
  commands.push_back({"decr", "z"});
  commands.push_back({"set", "k", "v", "EXAT", "4102444800"});
  commands.push_back({"incr", "k"});
  commands.push_back({"set", "k", "41", "EXAT", "4102444800"});
  commands.push_back({"incr", "k"});
  commands.push_back({"pttl", "k"});
  ExpectSameReplies(commands);
}

TEST_F(DifferentialTest, ExpireLimitsAndOptions) {
  ExpectSameReplies({
      {"expire", "nokey", "9223372036854776"},
      {"expire", "nokey", "9223372036854775"},
      {"expire", "nokey", "-9223372036854776"},
      {"pexpire", "nokey", "9223372036854775807"},
      {"expire", "nokey", "abc"},
      {"expire", "nokey", "10", "foo"},
      {"expire", "nokey", "10", "a\r\n"},
      {"expire", "nokey", "10", "\r\nb"},
      {"expire", "nokey", "10", "x\0y"s},
      {"expire", "nokey", "abc", "foo"},
      {"expire", "nokey", "abc", "nx", "xx"},
      {"expire", "nokey", "10", "nx", "gt"},
      {"expire", "nokey", "10", "gt", "lt"},
      {"expire", "nokey", "10", "xx", "gt", "lt"},
      {"expire", "nokey", "10", "XX", "GT"},
      {"set", "k", "v"},
      {"expire", "k", "9223372036854775"},
      {"expire", "k", "100", "xx"},
      {"expire", "k", "100", "gt"},
      {"expire", "k", "100", "lt"},
      {"ttl", "k"},
      {"pexpire", "k", "500000", "nx"},
      {"pexpire", "k", "400000", "nx"},
      {"ttl", "k"},
      {"expire", "k", "1000", "lt"},
      {"expire", "k", "50", "gt"},
      {"expire", "k", "200", "gt"},
      {"expire", "k", "1000", "gt", "xx"},
      {"ttl", "k"},
      {"persist", "k"},
      {"persist", "k"},
      {"ttl", "k"},
      {"expire", "k", "-9223372036854775"},
      {"exists", "k"},
      {"set", "k", "v"},
      {"pexpire", "k", "-9223372036854775808"},
      {"exists", "k"},
      {"set", "k", "v"},
      {"expire", "k", "0"},
      {"exists", "k"},
      {"set", "k", "v"},
      {"expire", "k", "-1", "lt"},
      {"exists", "k"},
      {"set", "k", "v"},
      {"expire", "k", "-1", "gt"},
      {"exists", "k"},
      {"ttl", "nokey"},
      {"pttl", "nokey"},
      {"persist", "nokey"},
  });
}

TEST_F(DifferentialTest, TtlRounding) {
  // Exact values, with only microseconds between the SET and the TTL: TTL rounds to the nearest
  // second (101 for 100.7 s, 100 for 100.2 s).
  ExpectSameReplies(
      {
          {"set", "a", "v", "PX", "100700"},
          {"ttl", "a"},
          {"set", "b", "v", "PX", "100200"},
          {"ttl", "b"},
          {"set", "c", "v", "EX", "100"},
          {"ttl", "c"},
          {"set", "d", "v", "PX", "1400"},
          {"ttl", "d"},
      },
      /*exact_ttl=*/true);
}

TEST_F(DifferentialTest, KeysValuesAndDatabases) {
  const std::string big(100000, 'z');
  ExpectSameReplies({
      {"set", "bin\0key"s, "a\0b\r\nc"s},
      {"get", "bin\0key"s},
      {"get", "bin"},
      {"mset", "x", "", "y", "\r\n", "x", "2"},
      {"mget", "x", "y", "nokey", "x", "bin\0key"s},
      {"del", "x", "x", "y", "nokey"},
      {"exists", "bin\0key"s, "bin\0key"s, "nokey"},
      {"set", "big", big},
      {"get", "big"},
      {"echo", ""},
      {"echo", "\0\r\n"s},
      {"ping"},
      {"PING", ""},
      {"ping", "hello"},
      {"select", "1"},
      {"dbsize"},
      {"set", "k", "in1"},
      {"select", "0"},
      {"get", "k"},
      {"dbsize"},
      {"select", "16"},
      {"select", "-1"},
      {"select", "2147483648"},
      {"select", "abc"},
      {"select", "01"},
      {"select", " 1"},
      {"flushdb", "ASYNC"},
      {"flushdb", "sYnC"},
      {"flushdb", "lazy"},
      {"flushall", "async"},
      {"dbsize"},
      {"config", "get", "DataBases"},
      {"config", "get", "timeout"},
      {"config", "get", "proto-max-bulk-len"},
      {"config", "get", "nosuch"},
      {"config", "get", "tcp-*"},
      {"config", "get", "time*"},
      {"config", "resetstat"},
  });
}

TEST_F(DifferentialTest, ArgumentsWithNulInOptions) {
  // Redis reads options as C strings, so "nx\0..." counts as NX there.
  ExpectSameReplies({
      {"set", "k", "v", "nx\0junk"s},
      {"set", "k", "v", "xx\0"s},
      {"set", "k", "v", "ex\0x"s, "100"},
      {"set", "k", "v", "keepttl\0x"s},
      {"set", "k", "v", "get\0"s},
      {"expire", "k", "100", "gt\0x"s},
      {"flushdb", "async\0x"s},
      // Not CONFIG "get\0x": whether Redis finds the GET subcommand depends on its hash seed (see
      // Generator::UnknownCommand).
      {"config", "x\0get"s, "timeout"},
      {"select", "1\0"s},
      {"incrby", "k2", "5\0"s},
  });
}

// Raw bytes that break or stretch the protocol: each server's whole answer until it closes the
// connection (or goes quiet) must be the same.
TEST_F(DifferentialTest, ProtocolErrors) {
  const std::vector<std::string> cases = {
      "*3000000000\r\n",
      "*2147483648\r\n",
      "*1\r\nfoo\r\n",
      "*2\r\n$4\r\nECHO\r\n:5\r\n",
      "*1\r\n\r\n",
      "$3\r\n",
      "$3\r\nfoo\r\n",
      "*-1\r\nPING\r\n",
      "*0\r\nPING\r\n",
      "*1\r\n$-1\r\n",
      "*1\r\n$abc\r\n",
      "*1\r\n$3000000000\r\n",
      "*1\r\n$536870913\r\n",
      "*abc\r\n",
      "*\r\n",
      "*1\r\n$4\r\nPINGxxPING\r\n",
      "SET \"a b\r\n",
      "ECHO \"a\"b\r\n",
      "ECHO 'a'b\r\n",
      "ECHO \"\\x41\\x00B\\n\" 'it\\'s'\r\n",
      "\r\n\r\n   \r\nPING\r\n",
      "PING\n",
      "ping \t hello \r\n",
      "PING\r\n*1\r\n$4\r\nPING\r\n*x\r\n",
      "*1\r\n$0\r\n\r\n",
      "*2\r\n$4\r\nPING\r\n$-5\r\n",
      "*1\r\n$01\r\nx\r\n",
      "*+1\r\n$4\r\nPING\r\n",
      "*1\r\n$+4\r\nPING\r\n",
      std::string(70000, 'a'),
      "*1\r\n" + std::string(70000, 'x'),
      "*" + std::string(70000, '1'),
      "*1\r\n$" + std::string(70000, '1'),
      "GET k\r\nQUIT\r\nPING\r\n",
      // Redis finds the end of an inline request with strchr: a NUL before the newline hides it.
      "\0PING\r\nPING\r\n"s,
      "PING\r\nECHO a\0b\r\nPING\r\n"s,
      "PING\r\n\0"s + std::string(70000, '\n'),
      "*1\0\r\n$4\r\nPING\r\n"s,
      "*1\r\n$4\0\r\nPING\r\n"s,
      "*1\r\n\0\r\n"s,
      "*1\r\n\0\r\n"s + std::string(70000, '\r'),
      "*1\0\r\n"s + std::string(70000, '\r'),
      "*1\r\n$3\r\n\0\r\n\r\n*1\r\n$4\r\nPING\r\n"s,
  };
  struct Live {
    std::unique_ptr<RawConnection> kv, redis;
  };
  std::vector<Live> live;
  for (const std::string& c : cases) {
    Live l{RawConnection::Connect(kvserver_->port()), RawConnection::Connect(redis_->port())};
    ASSERT_TRUE(l.kv && l.redis);
    l.kv->Send(c);
    l.redis->Send(c);
    live.push_back(std::move(l));
  }
  // Read from every connection until it closes or all of them have been quiet for 300 ms.
  std::vector<RawConnection*> conns;
  for (Live& l : live) {
    conns.push_back(l.kv.get());
    conns.push_back(l.redis.get());
  }
  std::vector<bool> closed(conns.size(), false);
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < deadline) {
    std::vector<pollfd> fds;
    std::vector<size_t> index;
    for (size_t i = 0; i < conns.size(); ++i) {
      if (closed[i]) continue;
      fds.push_back({conns[i]->fd(), POLLIN, 0});
      index.push_back(i);
    }
    if (fds.empty() || poll(fds.data(), fds.size(), 300) <= 0) break;
    for (size_t j = 0; j < fds.size(); ++j) {
      if (fds[j].revents == 0) continue;
      // EOF, or an error such as a reset: the server is done with this connection either way.
      if (conns[index[j]]->ReadSome(0) <= 0) closed[index[j]] = true;
    }
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string kv = live[i].kv->TakePending();
    const std::string redis = live[i].redis->TakePending();
    EXPECT_EQ(Escape(kv), Escape(redis))
        << "request: \"" << Escape(cases[i].substr(0, 200)) << "\"";
    EXPECT_EQ(closed[2 * i], closed[2 * i + 1])
        << "request: \"" << Escape(cases[i].substr(0, 200))
        << "\": kvserver closed=" << closed[2 * i] << " redis closed=" << closed[2 * i + 1];
  }
}

}  // namespace
}  // namespace kv::test
