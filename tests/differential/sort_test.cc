// Differential tests of SORT and SORT_RO against a real redis-server 7.0.15.
//
// RandomSortSequences runs seeded random sequences (after FLUSHALL, for a third of them HELLO 3):
// a list (duplicates, numbers in every spelling, strings, bytes past ASCII, NULs), a set (an
// intset or a hash table) and a sorted set (a listpack or a skiplist) are filled, with weight keys
// for their elements (strings n_*, a_*, m_* and hashes h_* with fields f, g), then sorted at
// random: BY nosort / key / hash-field patterns, LIMIT (huge, negative, zero), GET (#, keys, hash
// fields, patterns naming nothing), ASC/DESC, ALPHA, STORE (then the list stored, its TTL, the
// sorted set's encoding), mixed with changes to the keys and with bad arguments. Replies must
// match byte for byte, equal elements included (a list's order, Redis's stable qsort and its
// pqsort for BY with LIMIT). Only where Redis's own order comes from its hash table (SORT of a set
// BY nosort) are replies compared as multisets; where a hash table's order would decide between
// equal elements (ALPHA BY over a set or sorted set), the weights used are distinct per element.
//
// Each run prints its base seed; sequence i uses base+i.
//   KV_SORT_DIFF_SEED=<seed>        replays just that sequence
//   KV_SORT_DIFF_BASE_SEED=<seed>   replays a whole run
//   KV_SORT_DIFF_SEQUENCES=<n>      changes how many sequences run (default 300)

#include <algorithm>
#include <set>
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

// Elements any key may hold (no NULs: in a set or sorted set, strings equal up to a NUL would tie
// under strcoll, and a hash table's order would decide).
const std::vector<std::string> kCommonElements = {"0",
                                                  "1",
                                                  "2",
                                                  "3",
                                                  "7",
                                                  "10",
                                                  "11",
                                                  "-1",
                                                  "-20",
                                                  "100",
                                                  "1.5",
                                                  "-0.5",
                                                  "2.50",
                                                  "1e3",
                                                  "1e-3",
                                                  "0x1A",
                                                  " 4",
                                                  "+6",
                                                  "inf",
                                                  "-inf",
                                                  "a",
                                                  "b",
                                                  "B",
                                                  "apple",
                                                  "Apple",
                                                  "ab",
                                                  "a b",
                                                  "zebra",
                                                  "é",
                                                  "\xff\x01",
                                                  "key1",
                                                  "str",
                                                  "9223372036854775807",
                                                  "-9223372036854775808",
                                                  "1e400",
                                                  "nan",
                                                  "12abc"};
// Only in the list: duplicates by value, the empty string, NULs.
const std::vector<std::string> kListOnly = {"", "a\0b"s, "a\0c"s, "5\0x"s, "1.0", "01", "3"};

class SortGenerator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::vector<Args> Sequence() {
    std::vector<Args> out;
    if (Percent(33)) out.push_back({"HELLO", "3"});
    out.push_back({"CONFIG", "SET", "zset-max-listpack-entries", Pick({"128", "128", "4"})});
    Setup(&out);
    const size_t n = 15 + Uniform(30);
    std::vector<Args> commands;
    for (size_t i = 0; i < n; ++i) Next(&commands);
    // Redis does not clear errno before its strtod: after a value out of a double's range, its
    // later numeric SORTs fail until something else clears errno (string2d parsing a float, as
    // for ZADD's score). That leftover state is not reproduced: a ZADD clears it on Redis after
    // every SORT.
    for (Args& c : commands) {
      std::string name = c[0];
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      const bool sort = name == "sort" || name == "sort_ro";
      out.push_back(std::move(c));
      if (sort) out.push_back({"ZADD", "errno-reset", "0", "x"});
    }
    return out;
  }

 private:
  // Elements: for the list any, for the set and sorted set the common ones.
  std::string Element(bool list) {
    if (list && Percent(15)) return Pick(kListOnly);
    if (Percent(25)) return std::to_string(static_cast<int64_t>(Uniform(60)) - 20);
    return Pick(kCommonElements);
  }

  std::string NumericWeight(size_t i) {
    // Distinct strings per element, some numerically equal (the element decides then).
    switch (Uniform(6)) {
      case 0:
        return std::to_string(i);
      case 1:
        return std::to_string(i) + ".0";
      case 2:
        return std::to_string(static_cast<int64_t>(Uniform(5))) + "." + std::to_string(i);
      case 3:
        return "-" + std::to_string(i) + "e1";
      case 4:
        return " " + std::to_string(static_cast<int64_t>(Uniform(3)));
      default:
        return std::to_string(static_cast<int64_t>(Uniform(4))) + std::string(i % 3, '0');
    }
  }

  void Setup(std::vector<Args>* out) {
    // The list: 0 to ~100 elements, so that pqsort's median-of-three paths (over 7, over 40) run.
    const size_t list_len = Percent(10) ? 0 : Uniform(Percent(30) ? 100 : 20);
    if (list_len > 0) {
      Args rpush = {"RPUSH", "l"};
      for (size_t i = 0; i < list_len; ++i) rpush.push_back(Element(true));
      out->push_back(rpush);
    }
    // The set: integers only (an intset) or mixed.
    const bool intset = Percent(40);
    Args sadd = {"SADD", "s"};
    const size_t set_len = 1 + Uniform(30);
    for (size_t i = 0; i < set_len; ++i) {
      sadd.push_back(intset ? std::to_string(static_cast<int64_t>(Uniform(200)) - 50)
                            : Element(false));
    }
    out->push_back(sadd);
    Args zadd = {"ZADD", "z"};
    const size_t zset_len = 1 + Uniform(Percent(20) ? 200 : 12);
    for (size_t i = 0; i < zset_len; ++i) {
      zadd.push_back(Pick({"1", "2", "0", "-1.5", "inf", std::to_string(Uniform(100))}));
      zadd.push_back(Percent(70) ? Element(false) : "m" + std::to_string(Uniform(300)));
    }
    out->push_back(zadd);

    // Weights for every element that may appear: distinct per element for n_, a_ and h_->f/g; the
    // m_ keys are sparse, repeat values and are not always numbers (used on the list only).
    std::set<std::string> all(kCommonElements.begin(), kCommonElements.end());
    all.insert(kListOnly.begin(), kListOnly.end());
    for (int i = -20; i < 200; ++i) all.insert(std::to_string(i - 50 + 50));
    for (int i = -50; i < 150; ++i) all.insert(std::to_string(i));
    for (int i = 0; i < 300; ++i) all.insert("m" + std::to_string(i));
    Args mset_n = {"MSET"}, mset_a = {"MSET"};
    size_t i = 0;
    for (const std::string& e : all) {
      mset_n.push_back("n_" + e);
      mset_n.push_back(NumericWeight(i));
      mset_a.push_back("a_" + e);
      mset_a.push_back(std::string(1, static_cast<char>('a' + Uniform(26))) + std::to_string(i));
      out->push_back({"HSET", "h_" + e, "f", NumericWeight(i), "g",
                      std::string(1, static_cast<char>('A' + Uniform(26))) + std::to_string(i)});
      ++i;
    }
    out->push_back(mset_n);
    out->push_back(mset_a);
    Args mset_m = {"MSET"};
    for (const std::string& e : all) {
      if (Percent(50)) continue;
      mset_m.push_back("m_" + e);
      mset_m.push_back(Pick({"1", "2", "2", "x", "", "10", "-3", "b"}));
    }
    if (mset_m.size() > 1) out->push_back(mset_m);
    // Keys that are not what a pattern wants.
    out->push_back({"RPUSH", "n_zebra_list", "x"});
    out->push_back({"SADD", "h_apple_set", "x"});
  }

  std::string SortKey() {
    const uint64_t r = Uniform(100);
    if (r < 45) return "l";
    if (r < 70) return "s";
    if (r < 92) return "z";
    return Pick({"nokey", "str", "dst"});
  }

  void Next(std::vector<Args>* out) {
    switch (Uniform(12)) {
      case 0: {
        Args c = {Pick({"RPUSH", "LPUSH"}), "l"};
        for (size_t i = 0, n = 1 + Uniform(5); i < n; ++i) c.push_back(Element(true));
        out->push_back(c);
        return;
      }
      case 1:
        out->push_back({"SADD", "s", Element(false)});
        return;
      case 2:
        out->push_back({"ZADD", "z", std::to_string(Uniform(10)), Element(false)});
        return;
      case 3:
        out->push_back({"SET", "str", "x"});
        return;
      case 4:
        Errors(out);
        return;
      default:
        Sort(out);
        return;
    }
  }

  void Errors(std::vector<Args>* out) {
    const std::vector<Args> bad = {
        {"SORT", "l", "LIMIT", "0"},
        {"SORT", "l", "LIMIT", "x", "1"},
        {"SORT", "l", "LIMIT", "0", "1.5"},
        {"SORT", "l", "LIMIT", "99999999999999999999", "1"},
        {"SORT", "l", "BY"},
        {"SORT", "l", "GET"},
        {"SORT", "l", "STORE"},
        {"SORT", "l", "NOSUCH"},
        {"SORT", "str"},
        {"SORT", "str", "NOSUCH"},
        {"SORT_RO", "l", "STORE", "dst"},
        {"SORT_RO", "str"},
        {"SORT", "l", "ALPHA", "x"},
        {"SORT"},
        {"SORT_RO"},
        {"COMMAND", "GETKEYS", "SORT", "l", "STORE", "a", "BY", "STORE", "GET", "STORE", "STORE",
         "b"},
        {"COMMAND", "GETKEYS", "SORT", "l", "LIMIT", "STORE", "x", "STORE"},
        {"COMMAND", "GETKEYSANDFLAGS", "SORT", "l", "STORE", "a"},
        {"COMMAND", "GETKEYSANDFLAGS", "SORT_RO", "l", "STORE", "a"},
        {"COMMAND", "GETKEYS", "SORT"},
    };
    out->push_back(Pick(bad));
  }

  void Sort(std::vector<Args>* out) {
    const std::string key = SortKey();
    const bool ro = Percent(20);
    Args c = {Case(ro ? "sort_ro" : "sort"), key};
    std::vector<Args> options;
    // BY: distinct weights on any key; ties (missing or repeated weights) on the list only.
    // BY weights that are equal as strings (n_, h_->f) or missing tie under ALPHA, where a set's
    // or sorted set's hash table would order them: on the list only.
    const bool alpha = Percent(40);
    if (alpha) options.push_back({Case("alpha")});
    bool by_nosort = false, store = false, has_limit = false;
    if (Percent(60)) {
      std::vector<std::string> by = {"nosort", "a_*", "h_*->g", "constant"};
      const bool list = key == "l" || key == "nokey" || key == "dst";
      if (!alpha || list) by.insert(by.end(), {"n_*", "h_*->f"});
      if (list) by.insert(by.end(), {"m_*", "h_*->x", "*", "h_*->", "n_*_list", "h_*_set->f"});
      const std::string pattern = Pick(by);
      by_nosort = pattern == "nosort" || pattern == "constant";
      options.push_back({Case("by"), pattern});
    }
    if (Percent(40)) options.push_back({Case(Pick({"asc", "desc"}))});
    if (Percent(45)) {
      has_limit = true;
      options.push_back({Case("limit"), Offset(), Count()});
    }
    const size_t gets = Percent(50) ? Uniform(4) : 0;
    for (size_t i = 0; i < gets; ++i) {
      options.push_back({Case("get"), Pick({"#", "n_*", "h_*->f", "h_*->g", "a_*", "nosuch",
                                            "h_*->", "*", "n_*_list", "h_*->f\0x"s})});
    }
    std::string store_key;
    if (!ro && Percent(30)) {
      store = true;
      store_key = Pick({"dst", "dst", "l", "str"});
      options.push_back({Case("store"), store_key});
    }
    // A set kept in its order is its hash table's: no window over that order.
    if (key == "s" && by_nosort && !store && has_limit) {
      options.erase(std::remove_if(options.begin(), options.end(),
                                   [](const Args& o) { return o.size() == 3; }),
                    options.end());
    }
    std::shuffle(options.begin(), options.end(), rng());
    for (const Args& o : options) c.insert(c.end(), o.begin(), o.end());
    if (store && Percent(30)) out->push_back({"EXPIRE", "dst", "100"});
    out->push_back(c);
    if (store) {
      out->push_back({"LRANGE", store_key, "0", "-1"});
      out->push_back({"TTL", store_key});
      out->push_back({"TYPE", store_key});
    }
    if (key == "z" && Percent(30)) out->push_back({"OBJECT", "ENCODING", "z"});
  }

  std::string Offset() {
    if (Percent(10)) return Pick({"-5", "-9223372036854775808", "9223372036854775807", "1000"});
    return std::to_string(Uniform(25));
  }
  std::string Count() {
    if (Percent(15))
      return Pick({"-1", "-100", "0", "9223372036854775807", "-9223372036854775808"});
    return std::to_string(Uniform(30));
  }

  std::mt19937_64& rng() { return shuffle_rng_; }
  std::mt19937_64 shuffle_rng_{Uniform(UINT64_MAX)};
};

// The number of GET options of a SORT command line (the reply's group size; 1 without any).
size_t GetCount(const Args& c) {
  size_t n = 0;
  for (size_t i = 2; i + 1 < c.size(); ++i) {
    std::string w = c[i];
    std::transform(w.begin(), w.end(), w.begin(), ::tolower);
    if (w == "limit") {
      i += 2;
    } else if (w == "by" || w == "store") {
      i += 1;
    } else if (w == "get") {
      ++n;
      i += 1;
    }
  }
  return n == 0 ? 1 : n;
}

// SORT of the set BY a pattern without '*' and without STORE replies in the hash table's order
// (random in Redis): the same groups of elements, in any order.
bool SameSortReply(const Args& c, const std::string& kv, const std::string& redis) {
  if (kv == redis) return true;
  std::string name = c[0];
  std::transform(name.begin(), name.end(), name.begin(), ::tolower);
  if (name == "hello") return true;  // the client ids differ
  if ((name != "sort" && name != "sort_ro") || c.size() < 2 || c[1] != "s") return false;
  const std::optional<RespReply> a = ParseReply(kv), b = ParseReply(redis);
  if (!a || !b || a->type != RespReply::Type::kArray || b->type != RespReply::Type::kArray) {
    return false;
  }
  if (a->elements.size() != b->elements.size()) return false;
  const size_t group = GetCount(c);
  auto groups = [group](const RespReply& r) {
    std::vector<std::string> out;
    for (size_t i = 0; i < r.elements.size(); i += group) {
      std::string g;
      for (size_t j = i; j < i + group && j < r.elements.size(); ++j) {
        g += Describe(r.elements[j]) + "|";
      }
      out.push_back(g);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  return groups(*a) == groups(*b);
}

class SortDifferentialTest : public ConnectedBothServersTest<SortDifferentialTest> {
 protected:
};

TEST_F(SortDifferentialTest, RandomSortSequences) {
  RandomRun run;
  run.name = "sort differential";
  run.env = "KV_SORT_DIFF";
  run.default_count = 300;
  run.generate = [](uint64_t seed) { return SortGenerator(seed).Sequence(); };
  run.same = SameSortReply;
  run.kinds = {{"error", "-ERR"},
               {"wrongtype", "WRONGTYPE"},
               {"not double", "can't be converted"},
               {"array", "*"},
               {"stored", ":"}};
  run.counts = [](const std::string& kind, const Args& c, const std::string&) {
    if (kind != "stored") return true;
    return std::any_of(c.begin(), c.end(), [](std::string w) {
      std::transform(w.begin(), w.end(), w.begin(), ::tolower);
      return w == "store";
    });
  };
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

// Equal elements under every sort: a list holding ties for each comparison, sorted whole (glibc's
// stable merge sort) and cut by LIMIT with BY (pqsort), at sizes past pqsort's thresholds.
TEST_F(SortDifferentialTest, TiesKeepRedisOrder) {
  std::vector<Args> commands;
  for (const size_t n : {5, 8, 30, 45, 120}) {
    commands.push_back({"DEL", "t"});
    Args rpush = {"RPUSH", "t"};
    for (size_t i = 0; i < n; ++i) rpush.push_back("e" + std::to_string((i * 7919) % 97));
    commands.push_back(rpush);
    Args mset = {"MSET"};
    for (size_t i = 0; i < 97; i += 2) {
      mset.push_back("w_e" + std::to_string(i));
      mset.push_back(std::to_string(i % 4));
    }
    commands.push_back(mset);
    for (const std::string limit : {"0 1", "1 3", "3 5", "0 100", "10 20", "40 2"}) {
      const std::string start = limit.substr(0, limit.find(' '));
      const std::string count = limit.substr(limit.find(' ') + 1);
      commands.push_back({"SORT", "t", "BY", "w_*", "ALPHA", "LIMIT", start, count});
      commands.push_back({"SORT", "t", "BY", "w_*", "ALPHA", "DESC", "LIMIT", start, count});
      commands.push_back({"SORT", "t", "BY", "w_*", "LIMIT", start, count});
      commands.push_back({"SORT", "t", "BY", "nosuch_*", "ALPHA", "LIMIT", start, count});
      commands.push_back({"SORT", "t", "BY", "w_*", "ALPHA", "LIMIT", start, count, "STORE", "d"});
      commands.push_back({"LRANGE", "d", "0", "-1"});
    }
    commands.push_back({"SORT", "t", "BY", "w_*", "ALPHA"});
    commands.push_back({"SORT", "t", "BY", "w_*", "ALPHA", "DESC"});
    commands.push_back({"SORT", "t", "BY", "nosuch_*", "ALPHA", "DESC"});
  }
  ExpectSameReplies(commands);
}

// The sorted set SORT reads becomes a skiplist for good; STORE replaces any value and its TTL,
// and an empty result deletes the destination; BY nosort on a set with STORE sorts as strings.
TEST_F(SortDifferentialTest, StoreAndEncodings) {
  ExpectSameReplies({{"ZADD", "z", "3", "c", "1", "a", "2", "b"},
                     {"OBJECT", "ENCODING", "z"},
                     {"SORT_RO", "z", "BY", "nosort", "DESC", "LIMIT", "1", "5"},
                     {"OBJECT", "ENCODING", "z"},
                     {"SET", "dst", "old", "EX", "100"},
                     {"SORT", "z", "ALPHA", "STORE", "dst"},
                     {"TYPE", "dst"},
                     {"TTL", "dst"},
                     {"OBJECT", "ENCODING", "dst"},
                     {"LRANGE", "dst", "0", "-1"},
                     {"SORT", "nokey", "STORE", "dst"},
                     {"EXISTS", "dst"},
                     {"SORT", "z", "ALPHA", "LIMIT", "5", "1", "STORE", "dst"},
                     {"SADD", "s", "b", "10", "a", "9", "B"},
                     {"SORT", "s", "BY", "nosort", "STORE", "dst"},
                     {"LRANGE", "dst", "0", "-1"},
                     {"SADD", "i", "5", "-3", "100", "7"},
                     {"SORT", "i", "BY", "nosort"},
                     {"SORT", "i", "BY", "nosort", "DESC", "LIMIT", "1", "2"},
                     {"SORT", "i", "GET", "#", "GET", "nosuch", "STORE", "dst"},
                     {"LRANGE", "dst", "0", "-1"},
                     {"RPUSH", "l", "1", "2", "3"},
                     {"SORT", "l", "STORE", "l"},
                     {"LRANGE", "l", "0", "-1"},
                     {"SORT", "l", "GET", "nosuch", "STORE", "l"},
                     {"LRANGE", "l", "0", "-1"},
                     {"COMMAND", "INFO", "sort", "sort_ro"},
                     {"COMMAND", "GETKEYS", "SORT", "l", "LIMIT", "0", "1", "STORE", "d1", "GET",
                      "x", "STORE", "d2"},
                     {"COMMAND", "GETKEYSANDFLAGS", "SORT", "l", "BY", "STORE", "STORE", "d"},
                     {"COMMAND", "GETKEYSANDFLAGS", "SORT_RO", "l"}});
}

}  // namespace
}  // namespace kv::test
