// Differential tests of the geo commands against a real redis-server: seeded random points
// (duplicates included, so that equal distances test the order Redis's partial sort leaves) and
// searches with every option, in RESP2 and RESP3, compared byte for byte (coordinates and
// distances to the last digit); every error text by hand. KV_GEO_DIFF_SEED=<seed> replays one
// sequence.

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

bool SameGeoReply(const Args& command, const std::string& kv, const std::string& redis) {
  if (command[0] == "HELLO") return kv[0] == redis[0];
  return kv == redis;
}

class Generator : public RandomChoices {
 public:
  explicit Generator(uint64_t seed) : RandomChoices(seed) {}

  double Real(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(Uniform(1000000007)) / 1000000007.0;
  }
  static std::string Fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
  }
  // Points spread over the world ("w"), packed in a region ("r"), or near a pole and the
  // antimeridian ("p").
  std::pair<double, double> Point(const std::string& key) {
    if (key == "w") return {Real(-180, 180), Real(-85.05, 85.05)};
    if (key == "r") return {Real(10, 12), Real(40, 42)};
    return {Percent(50) ? Real(175, 180) : Real(-180, -175), Real(75, 85.05)};
  }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"CONFIG", "SET", "zset-max-listpack-entries", Pick({"128", "0", "16"})});
    if (Percent(30)) commands.push_back({"HELLO", Pick({"2", "3"})});
    for (const std::string key : {"w", "r", "p"}) {
      Args add = {"GEOADD", key};
      std::vector<std::pair<double, double>> seen;
      const size_t n = 5 + Uniform(Percent(30) ? 400 : 60);
      for (size_t i = 0; i < n; ++i) {
        auto p = (i % 7 == 3 && !seen.empty()) ? seen[Uniform(seen.size())] : Point(key);
        seen.push_back(p);
        add.insert(add.end(), {Fixed(p.first, 6), Fixed(p.second, 6), "m" + std::to_string(i)});
      }
      commands.push_back(add);
    }
    for (size_t i = 0, n = 10 + Uniform(30); i < n; ++i) Search(&commands);
    return commands;
  }

  void Search(std::vector<Args>* out) {
    const std::string key = Pick({"w", "r", "p", "nokey"});
    const auto center = Point(key == "nokey" ? "w" : key);
    const std::string unit = Case(Pick({"m", "km", "mi", "ft"}));
    const std::string dist = unit == "m" || unit == "M" || unit == "ft" || unit == "FT"
                                 ? Pick({"0", "500", "50000", "300000", "5000000"})
                                 : Pick({"0", "1", "30", "200", "3000", "20000"});
    Args opts;
    if (Percent(50)) opts.push_back(Case(Pick({"asc", "desc"})));
    if (Percent(50)) {
      opts.insert(opts.end(), {Case("count"), Pick({"1", "2", "3", "7", "20", "100"})});
      if (Percent(30)) opts.push_back(Case("any"));
    }
    Args with;
    for (const char* w : {"withcoord", "withdist", "withhash"}) {
      if (Percent(40)) with.push_back(Case(w));
    }
    Args a;
    bool is_search = false;
    switch (Uniform(5)) {
      case 0:
        a = {Case("georadius"), key, Fixed(center.first, 5), Fixed(center.second, 5), dist, unit};
        break;
      case 1:
        a = {Case("georadiusbymember_ro"), key, "m" + std::to_string(Uniform(8)), dist, unit};
        break;
      default: {
        is_search = true;
        a = {Case("geosearch"), key};
        if (Percent(50)) {
          a.insert(a.end(), {Case("fromlonlat"), Fixed(center.first, 5), Fixed(center.second, 5)});
        } else {
          a.insert(a.end(), {Case("frommember"), "m" + std::to_string(Uniform(8))});
        }
        if (Percent(50)) {
          a.insert(a.end(), {Case("byradius"), dist, unit});
        } else {
          a.insert(a.end(), {Case("bybox"), dist, Pick({"1", "100", "2000", "40000"}), unit});
        }
      }
    }
    Args search = a;
    search.insert(search.end(), opts.begin(), opts.end());
    search.insert(search.end(), with.begin(), with.end());
    out->push_back(search);
    if (is_search && Percent(40)) {
      Args store = {Case("geosearchstore"), "dst"};
      store.insert(store.end(), a.begin() + 1, a.end());
      store.insert(store.end(), opts.begin(), opts.end());
      if (Percent(50)) store.push_back(Case("storedist"));
      out->push_back(store);
      out->push_back({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
      out->push_back({"OBJECT", "ENCODING", "dst"});
    }
    if (Percent(15)) {
      out->push_back({"GEODIST", key, "m" + std::to_string(Uniform(8)),
                      "m" + std::to_string(Uniform(8)), unit});
      out->push_back({"GEOPOS", key, "m" + std::to_string(Uniform(8)), "nosuch"});
      out->push_back({"GEOHASH", key, "m" + std::to_string(Uniform(8)), "nosuch"});
    }
  }
};

class GeoDifferentialTest : public ConnectedBothServersTest<GeoDifferentialTest> {
 protected:
};

TEST_F(GeoDifferentialTest, RandomSearches) {
  RandomRun run;
  run.name = "geo differential";
  run.env = "KV_GEO_DIFF";
  run.default_count = 200;
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.same = SameGeoReply;
  run.kinds = {{"distance", "."}, {"resp3 double", ",1"}, {"empty", "*0\r\n"}};
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

TEST_F(GeoDifferentialTest, ErrorsAndEdges) {
  ExpectSameReplies(
      {
          {"GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669",
           "Catania"},
          {"GEOADD", "Sicily", "200", "100", "x"},
          {"GEOADD", "Sicily", "-180.1", "0", "x"},
          {"GEOADD", "Sicily", "0", "85.06", "x"},
          {"GEOADD", "Sicily", "1", "1"},
          {"GEOADD", "Sicily", "NX", "XX", "1", "1", "x"},
          {"GEOADD", "Sicily", "GT", "1", "1", "x"},
          {"GEOADD", "Sicily", "abc", "1", "x"},
          {"GEOADD", "Sicily", "CH", "XX", "13.361389", "38.115556", "Palermo", "1", "1", "nope"},
          {"GEOADD", "Sicily", "CH", "1", "1", "Palermo"},
          {"GEOADD", "Sicily", "NX", "2", "2", "Palermo", "3", "3", "new"},
          {"GEODIST", "Sicily", "Palermo", "Catania", "km", "x"},
          {"GEODIST", "Sicily", "Palermo", "Catania", "parsec"},
          {"GEODIST", "Sicily", "Palermo", "nosuch"},
          {"GEORADIUS", "Sicily", "15", "37", "-1", "km"},
          {"GEORADIUS", "Sicily", "15", "37", "x", "km"},
          {"GEORADIUS", "Sicily", "15", "37", "1", "parsec"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "COUNT", "0"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "COUNT", "x"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "COUNT"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "ANY"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "STORE", "d", "WITHDIST"},
          {"GEORADIUS", "Sicily", "15", "37", "100", "km", "FROMLONLAT", "1", "1"},
          {"GEORADIUS_RO", "Sicily", "15", "37", "100", "km", "STORE", "d"},
          {"GEORADIUSBYMEMBER", "Sicily", "nosuch", "100", "km"},
          {"GEORADIUSBYMEMBER", "nokey", "nosuch", "-5", "parsec"},
          {"GEORADIUSBYMEMBER", "nokey", "nosuch", "1", "km", "STORE", "d"},
          {"GEOSEARCH", "Sicily", "BYRADIUS", "10", "km"},
          {"geosearch", "Sicily", "FROMLONLAT", "15", "37"},
          {"GEOSEARCH", "Sicily", "FROMMEMBER", "nosuch", "BYRADIUS", "10", "km"},
          {"GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "FROMLONLAT", "1", "1", "BYRADIUS", "1",
           "km"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "BYBOX", "1", "1",
           "km"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYBOX", "-1", "1", "km"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYBOX", "x", "1", "km"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYBOX", "1", "x", "km"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "STORE", "x"},
          {"GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "STOREDIST"},
          {"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km",
           "WITHCOORD"},
          {"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km",
           "STOREDIST"},
          {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
          {"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"},
          {"EXISTS", "d"},
          {"SET", "str", "x"},
          {"GEOADD", "str", "1", "1", "x"},
          {"GEOPOS", "str", "x"},
          {"GEOSEARCH", "str", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km"},
          {"ZADD", "weird", "-1", "a", "inf", "b", "1e300", "c", "4503599627370496", "d", "-inf",
           "e"},
          {"GEOPOS", "weird", "a", "b", "c", "d", "e"},
          {"GEOHASH", "weird", "a", "b", "c", "d", "e"},
          {"GEODIST", "weird", "a", "c"},
      },
      SameGeoReply);
}

}  // namespace
}  // namespace kv::test
