// The RDB object codec (server/persistence): CRC64, lengths and strings as Redis's rdb.c writes
// them, and every type and encoding written and read back through the real commands, with the
// encodings Redis's rdbLoadObject chooses under the loading server's limits. Corrupt input fails
// cleanly (run under ASan to check that it never reads outside).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "server/persistence/dump_payload.h"
#include "server/persistence/legacy_encodings.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_reader.h"
#include "server/persistence/rdb_writer.h"
#include "server/rdb_length.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/zset.h"
#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

std::string WriteString(std::string_view s, bool compress = true) {
  std::string out;
  RdbWriter w(&out, compress);
  w.String(s);
  return out;
}

std::string WriteLength(uint64_t len) {
  std::string out;
  RdbWriter w(&out, true);
  w.Length(len);
  return out;
}

TEST(Crc64, MatchesRedisCheckValue) {
  // crc64.c's own test: "123456789" gives 0xe9c6d914c4b8d9ca.
  EXPECT_EQ(Crc64(0, "123456789"), 0xe9c6d914c4b8d9caull);
  // In pieces, and through the 8-byte path and the tail.
  const std::string long_text(1000, 'x');
  EXPECT_EQ(Crc64(Crc64(0, long_text.substr(0, 333)), long_text.substr(333)), Crc64(0, long_text));
  EXPECT_EQ(Crc64(Crc64(0, "1234"), "56789"), 0xe9c6d914c4b8d9caull);
}

TEST(RdbCodec, LengthEncodings) {
  EXPECT_EQ(WriteLength(0), Bytes({0x00}));
  EXPECT_EQ(WriteLength(63), Bytes({0x3f}));
  EXPECT_EQ(WriteLength(64), Bytes({0x40, 0x40}));
  EXPECT_EQ(WriteLength(16383), Bytes({0x7f, 0xff}));
  EXPECT_EQ(WriteLength(16384), Bytes({0x80, 0x00, 0x00, 0x40, 0x00}));
  EXPECT_EQ(WriteLength(UINT32_MAX), Bytes({0x80, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(WriteLength(uint64_t{1} << 32), Bytes({0x81, 0, 0, 0, 1, 0, 0, 0, 0}));
  for (uint64_t len :
       std::initializer_list<uint64_t>{0ull, 1ull, 63ull, 64ull, 300ull, 16383ull, 16384ull,
                                       1ull << 31, (1ull << 32) + 5, UINT64_MAX}) {
    const std::string bytes = WriteLength(len);
    RdbReader r(bytes);
    uint64_t got;
    ASSERT_TRUE(r.Length(&got));
    EXPECT_EQ(got, len);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(RdbCodec, StringEncodings) {
  // Integers of up to 32 bits in canonical form take the integer encodings.
  EXPECT_EQ(WriteString("12"), Bytes({0xc0, 12}));
  EXPECT_EQ(WriteString("-1"), Bytes({0xc0, 0xff}));
  EXPECT_EQ(WriteString("300"), Bytes({0xc1, 0x2c, 0x01}));
  EXPECT_EQ(WriteString("-2147483648"), Bytes({0xc2, 0x00, 0x00, 0x00, 0x80}));
  // Not canonical, or too wide: plain strings.
  EXPECT_EQ(WriteString("007"),
            "\x03"s
            "007");
  EXPECT_EQ(WriteString("+1"),
            "\x02"s
            "+1");
  EXPECT_EQ(WriteString("4294967296"),
            "\x0a"s
            "4294967296");
  EXPECT_EQ(WriteString(""), Bytes({0x00}));
  // Compressible and longer than 20 bytes: LZF, unless compression is off.
  const std::string text(100, 'a');
  const std::string lzf = WriteString(text);
  EXPECT_EQ(static_cast<uint8_t>(lzf[0]), 0xc3);
  EXPECT_LT(lzf.size(), text.size());
  EXPECT_EQ(WriteString(text, false), "\x40\x64"s + text);
  // Incompressible: plain.
  EXPECT_EQ(WriteString("abcdefghijklmnopqrstuvwxyz"),
            "\x1a"s
            "abcdefghijklmnopqrstuvwxyz");
  for (const std::string& s :
       {"12"s, "-1"s, "300"s, "-2147483648"s, "007"s, ""s, text, "hello world"s}) {
    const std::string bytes = WriteString(s);
    EXPECT_EQ(bytes.size(), RdbStringLength(s)) << s;
    RdbReader r(bytes);
    std::string got;
    ASSERT_TRUE(r.String(&got)) << s;
    EXPECT_EQ(got, s);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(RdbCodec, StringReadErrors) {
  std::string got;
  // Truncated plain string, unknown special encoding, LZF claiming an impossible size.
  EXPECT_FALSE(RdbReader("\x05"s
                         "abc")
                   .String(&got));
  EXPECT_FALSE(RdbReader(Bytes({0xc4})).String(&got));
  EXPECT_FALSE(
      RdbReader(Bytes({0xc3, 0x02, 0x80, 0x7f, 0xff, 0xff, 0xff, 0x01, 0x02})).String(&got));
  EXPECT_FALSE(RdbReader(Bytes({0xc1, 0x01})).String(&got));
  // LZF data that does not decompress to the claimed size.
  EXPECT_FALSE(RdbReader(Bytes({0xc3, 0x02, 0x05, 0x00, 'a'})).String(&got));
}

Config WithDebug() {
  Config c;
  c.enable_debug_command = "yes";
  return c;
}

// Values built by commands in one harness, carried through DUMP-style payloads into another
// harness with its own limits, and compared there.
class RdbRoundTrip : public ::testing::Test {
 protected:
  std::string Dump(std::string_view key) {
    const Value* v = src_.db().Peek(key, src_.clock().NowMs());
    EXPECT_NE(v, nullptr);
    auto payload = CreateDumpPayload(*v, compress_);
    EXPECT_TRUE(payload.has_value());
    // The body agrees with DEBUG OBJECT's serializedlength.
    if (compress_) EXPECT_EQ(payload->size(), 1 + RdbValueLength(*v) + 10);
    return *payload;
  }
  // Loads `payload` into `dst_` at `key`; false when the payload is refused.
  bool Load(std::string_view payload, std::string_view key, std::string* why = nullptr) {
    if (!VerifyDumpPayload(payload, false)) return false;
    DetachedValue value;
    if (!LoadDumpPayload(payload, limits_, &value, why)) return false;
    dst_.db().Put(key, std::move(value), kNoExpiry);
    return true;
  }
  void RoundTrip(std::string_view key, std::initializer_list<std::string_view> read) {
    ASSERT_TRUE(Load(Dump(key), key));
    std::vector<std::string_view> cmd(read);
    EXPECT_EQ(dst_.Run(std::vector<std::string>(cmd.begin(), cmd.end())),
              src_.Run(std::vector<std::string>(cmd.begin(), cmd.end())));
  }
  std::string Encoding(CommandHarness& h, std::string_view key) {
    return h.Run({"object", "encoding", key});
  }

  CommandHarness src_{WithDebug()};
  CommandHarness dst_{WithDebug()};
  RdbLoadLimits limits_;
  bool compress_ = true;
};

TEST_F(RdbRoundTrip, Strings) {
  src_.Run({"set", "int", "12345"});
  src_.Run({"set", "big", "9223372036854775807"});
  src_.Run({"set", "text", std::string(5000, 'z')});
  src_.Run({"set", "bin", "\x00\xff\x01"s});
  for (const char* k : {"int", "big", "text", "bin"}) {
    RoundTrip(k, {"get", k});
    EXPECT_EQ(Encoding(dst_, k), Encoding(src_, k)) << k;
  }
}

TEST_F(RdbRoundTrip, ListsKeepTheirNodes) {
  // Several nodes (8 KB each), compressed inner nodes, integers, and a plain node.
  src_.Run({"config", "set", "list-compress-depth", "1"});
  for (int i = 0; i < 3000; ++i) {
    src_.Run({"rpush", "l", i % 3 == 0 ? std::to_string(i) : "element-" + std::to_string(i)});
  }
  src_.Run({"debug", "quicklist-packed-threshold", "100"});
  src_.Run({"rpush", "l", std::string(200, 'p')});
  src_.Run({"rpush", "l", "tail"});
  limits_.list_compress_depth = 1;
  RoundTrip("l", {"lrange", "l", "0", "-1"});
  const Value* a = src_.db().Peek("l", src_.clock().NowMs());
  const Value* b = dst_.db().Peek("l", dst_.clock().NowMs());
  ASSERT_NE(b, nullptr);
  std::vector<std::string> na, nb;
  auto describe = [](const QuickList::NodeView& n) {
    return std::to_string(n.plain) + "/" + std::to_string(n.compressed) + "/" +
           std::to_string(n.count) + "/" + std::string(n.stored);
  };
  a->As<List>().items().ForEachNode(
      [&](const QuickList::NodeView& n) { na.push_back(describe(n)); });
  b->As<List>().items().ForEachNode(
      [&](const QuickList::NodeView& n) { nb.push_back(describe(n)); });
  EXPECT_GT(na.size(), 3u);
  EXPECT_EQ(na, nb);
  EXPECT_TRUE(b->As<List>().items().Valid());
  // The payload of the copy is the same bytes.
  EXPECT_EQ(CreateDumpPayload(*b, true), CreateDumpPayload(*a, true));
}

TEST_F(RdbRoundTrip, HashesInBothEncodings) {
  src_.Run({"hset", "small", "f1", "v1", "f2", "2", "num", "-7"});
  for (int i = 0; i < 600; ++i) {
    src_.Run({"hset", "big", "field" + std::to_string(i), std::to_string(i * 7)});
  }
  RoundTrip("small", {"hgetall", "small"});
  EXPECT_EQ(Encoding(dst_, "small"), "$8\r\nlistpack\r\n");
  ASSERT_TRUE(Load(Dump("big"), "big"));
  EXPECT_EQ(Encoding(dst_, "big"), "$9\r\nhashtable\r\n");
  for (int i : {0, 299, 599}) {
    const std::string f = "field" + std::to_string(i);
    EXPECT_EQ(dst_.Run({"hget", "big", f}), src_.Run({"hget", "big", f}));
  }
  EXPECT_EQ(dst_.Run({"hlen", "big"}), ":600\r\n");
  // A listpack over the loading server's limits converts, as Redis's loader does.
  limits_.hash.max_listpack_entries = 2;
  ASSERT_TRUE(Load(Dump("small"), "small2"));
  EXPECT_EQ(Encoding(dst_, "small2"), "$9\r\nhashtable\r\n");
  EXPECT_EQ(dst_.Run({"hget", "small2", "num"}), "$2\r\n-7\r\n");
  // A table small enough for the limits loads as a listpack.
  limits_.hash.max_listpack_entries = 1000;
  ASSERT_TRUE(Load(Dump("big"), "big2"));
  EXPECT_EQ(Encoding(dst_, "big2"), "$8\r\nlistpack\r\n");
  EXPECT_EQ(dst_.Run({"hget", "big2", "field5"}), "$2\r\n35\r\n");
}

TEST_F(RdbRoundTrip, SetsInBothEncodings) {
  src_.Run({"sadd", "ints", "1", "-5", "70000", "5000000000"});
  src_.Run({"sadd", "strs", "a", "b", "1"});
  RoundTrip("ints", {"smembers", "ints"});
  EXPECT_EQ(Encoding(dst_, "ints"), "$6\r\nintset\r\n");
  ASSERT_TRUE(Load(Dump("strs"), "strs"));
  EXPECT_EQ(Encoding(dst_, "strs"), "$9\r\nhashtable\r\n");
  EXPECT_EQ(dst_.Run({"sismember", "strs", "a"}), ":1\r\n");
  EXPECT_EQ(dst_.Run({"scard", "strs"}), ":3\r\n");
  // An all-integer table small enough becomes an intset; a big intset a table.
  src_.Run({"sadd", "tbl", "x"});
  src_.Run({"sadd", "tbl", "1", "2"});
  src_.Run({"srem", "tbl", "x"});
  ASSERT_TRUE(Load(Dump("tbl"), "tbl"));
  EXPECT_EQ(Encoding(dst_, "tbl"), "$6\r\nintset\r\n");
  limits_.set_max_intset_entries = 2;
  ASSERT_TRUE(Load(Dump("ints"), "ints2"));
  EXPECT_EQ(Encoding(dst_, "ints2"), "$9\r\nhashtable\r\n");
  EXPECT_EQ(dst_.Run({"sismember", "ints2", "5000000000"}), ":1\r\n");
}

TEST_F(RdbRoundTrip, SortedSetsInBothEncodings) {
  src_.Run({"zadd", "small", "1", "a", "2.5", "b", "-inf", "c", "3", "12"});
  for (int i = 0; i < 200; ++i) {
    src_.Run({"zadd", "big", std::to_string(i * 0.5), "m" + std::to_string(i)});
  }
  src_.Run({"zadd", "big", "inf", "top"});
  RoundTrip("small", {"zrange", "small", "0", "-1", "withscores"});
  EXPECT_EQ(Encoding(dst_, "small"), "$8\r\nlistpack\r\n");
  RoundTrip("big", {"zrange", "big", "0", "-1", "withscores"});
  EXPECT_EQ(Encoding(dst_, "big"), "$8\r\nskiplist\r\n");
  // The skiplist is written from the highest score down, as Redis does: the first member after
  // the type byte and the length is "top".
  const std::string payload = Dump("big");
  EXPECT_EQ(static_cast<uint8_t>(payload[0]), rdb::kTypeZSet2);
  EXPECT_EQ(payload.substr(1 + 2, 4), "\x03top"s);
  limits_.zset.max_listpack_entries = 2;
  ASSERT_TRUE(Load(Dump("small"), "small2"));
  EXPECT_EQ(Encoding(dst_, "small2"), "$8\r\nskiplist\r\n");
  EXPECT_EQ(dst_.Run({"zscore", "small2", "b"}), "$3\r\n2.5\r\n");
}

TEST_F(RdbRoundTrip, CompressionOff) {
  compress_ = false;
  src_.Run({"set", "s", std::string(300, 'q')});
  const std::string payload = Dump("s");
  EXPECT_EQ(payload.size(), 1 + 2 + 300 + 10u);
  RoundTrip("s", {"get", "s"});
}

TEST_F(RdbRoundTrip, PayloadFooter) {
  src_.Run({"set", "k", "v"});
  std::string payload = Dump("k");
  // Type 0, "v", version 10, then the CRC64 of those bytes.
  EXPECT_EQ(payload.substr(0, 5), Bytes({0x00, 0x01, 'v', 0x0a, 0x00}));
  EXPECT_TRUE(VerifyDumpPayload(payload, false));
  std::string bad_crc = payload;
  bad_crc.back() ^= 1;
  EXPECT_FALSE(VerifyDumpPayload(bad_crc, false));
  EXPECT_TRUE(VerifyDumpPayload(bad_crc, true));
  std::string newer = payload;
  newer[3] = 11;
  EXPECT_FALSE(VerifyDumpPayload(newer, true));
  EXPECT_FALSE(VerifyDumpPayload("short", true));
}

TEST_F(RdbRoundTrip, DuplicatesAndEmptyValuesAreRefused) {
  auto payload = [](std::string body) {
    body += Bytes({0x0a, 0x00});
    const uint64_t crc = Crc64(0, body);
    for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>(crc >> (8 * i)));
    return body;
  };
  std::string why;
  // A set with "a" twice, a hash with field "f" twice, a sorted set with "m" twice.
  EXPECT_FALSE(Load(payload(Bytes({rdb::kTypeSet, 2, 1, 'a', 1, 'a'})), "k", &why));
  EXPECT_EQ(why, "Duplicate set members detected");
  EXPECT_FALSE(
      Load(payload(Bytes({rdb::kTypeHash, 2, 1, 'f', 1, 'v', 1, 'f', 1, 'w'})), "k", &why));
  EXPECT_EQ(why, "Duplicate hash fields detected");
  std::string zset = Bytes({rdb::kTypeZSet2, 2});
  for (int i = 0; i < 2; ++i) zset += "\x01m"s + std::string(8, '\0');
  EXPECT_FALSE(Load(payload(zset), "k", &why));
  // NaN scores.
  std::string nan_zset = Bytes({rdb::kTypeZSet2, 1, 1, 'm'});
  nan_zset += Bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x7f});
  EXPECT_FALSE(Load(payload(nan_zset), "k", &why));
  EXPECT_EQ(why, "Zset with NAN score detected");
  // Empty aggregates.
  const std::string empty_list = Bytes({0});  // the reader keeps a view of its input
  RdbReader r(empty_list);
  DetachedValue v;
  EXPECT_FALSE(r.LoadObject(rdb::kTypeList, limits_, &v));
  EXPECT_TRUE(r.empty_key());
  // A hash listpack with a duplicate field: f, v, f, w.
  ListPack lp;
  for (const char* s : {"f", "v", "f", "w"}) lp.Append(s);
  std::string body = Bytes({rdb::kTypeHashListPack});
  RdbWriter w(&body, false);
  w.String(lp.view());
  EXPECT_FALSE(Load(payload(body), "k", &why));
  EXPECT_EQ(why, "Hash listpack integrity check failed.");
  // An odd count of elements.
  lp.DeleteRange(-1, 1);
  body = Bytes({rdb::kTypeZSetListPack});
  w.String(lp.view());
  EXPECT_FALSE(Load(payload(body), "k", &why));
  EXPECT_EQ(why, "Zset listpack integrity check failed.");
}

// The ziplist of ziplist.c's own example: [0f 00 00 00] [0c 00 00 00] [02 00] [00 f3] [02 f6]
// [ff], holding 2 and 5.
const std::string kExampleZipList =
    Bytes({0x0f, 0, 0, 0, 0x0c, 0, 0, 0, 0x02, 0, 0x00, 0xf3, 0x02, 0xf6, 0xff});

TEST(LegacyEncodings, ZipListExample) {
  std::vector<int64_t> got;
  ASSERT_TRUE(WalkZipList(kExampleZipList, [&](ListPackValue v) {
    EXPECT_TRUE(v.is_int);
    got.push_back(v.num);
    return true;
  }));
  EXPECT_EQ(got, (std::vector<int64_t>{2, 5}));
  // Every single-byte corruption is either refused or still walks within the bytes.
  for (size_t i = 0; i < kExampleZipList.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = kExampleZipList;
      bad[i] ^= static_cast<char>(1 << bit);
      WalkZipList(bad, [](ListPackValue) { return true; });
    }
  }
  // A wrong count, a wrong tail offset, a wrong total.
  std::string bad = kExampleZipList;
  bad[8] = 3;
  EXPECT_FALSE(WalkZipList(bad, [](ListPackValue) { return true; }));
  bad = kExampleZipList;
  bad[4] = 0x0a;
  EXPECT_FALSE(WalkZipList(bad, [](ListPackValue) { return true; }));
  EXPECT_FALSE(WalkZipList(kExampleZipList.substr(0, 14), [](ListPackValue) { return true; }));
}

TEST(LegacyEncodings, ZipListStringsAndIntegers) {
  // "hello" (6-bit length), an int16 1000, an int64, an int24 and an int8.
  std::string zl = Bytes({0, 0, 0, 0, 0, 0, 0, 0, 5, 0});
  std::vector<size_t> starts;
  size_t prev = 0;
  auto entry = [&](std::string e) {
    starts.push_back(zl.size());
    zl += static_cast<char>(prev);
    zl += e;
    prev = e.size() + 1;
  };
  entry("\x05hello"s);
  entry(Bytes({0xc0, 0xe8, 0x03}));
  entry(Bytes({0xe0, 1, 0, 0, 0, 0, 0, 0, 0x80}));
  entry(Bytes({0xf0, 0xff, 0xff, 0xff}));
  entry(Bytes({0xfe, 0x80}));
  zl += '\xff';
  const uint32_t total = static_cast<uint32_t>(zl.size());
  const uint32_t tail = static_cast<uint32_t>(starts.back());
  for (int i = 0; i < 4; ++i) {
    zl[i] = static_cast<char>(total >> (8 * i));
    zl[4 + i] = static_cast<char>(tail >> (8 * i));
  }
  std::vector<std::string> got;
  ASSERT_TRUE(WalkZipList(zl, [&](ListPackValue v) {
    char buf[ListPackValue::kIntBufSize];
    got.emplace_back(v.ToString(buf));
    return true;
  }));
  EXPECT_EQ(got, (std::vector<std::string>{"hello", "1000", "-9223372036854775807", "-1", "-128"}));
}

TEST(LegacyEncodings, ZipMap) {
  // zipmap.c's example: "foo" => "bar", "hello" => "world", with one free byte after "bar".
  const std::string zm =
      "\x02\x03"
      "foo\x03\x01"
      "barx\x05"
      "hello\x05\x00"
      "world\xff"s;
  std::vector<std::string> got;
  ASSERT_TRUE(WalkZipMap(zm, [&](std::string_view f, std::string_view v) {
    got.emplace_back(f);
    got.emplace_back(v);
    return true;
  }));
  EXPECT_EQ(got, (std::vector<std::string>{"foo", "bar", "hello", "world"}));
  EXPECT_FALSE(WalkZipMap(zm.substr(0, zm.size() - 1), [](auto, auto) { return true; }));
}

TEST(RdbCodec, LegacyTypesLoad) {
  RdbLoadLimits limits;
  // A hash ziplist, a sorted set ziplist, a list ziplist and an old quicklist, from the example.
  for (int type : {rdb::kTypeListZipList, rdb::kTypeListQuickList, rdb::kTypeHashZipList,
                   rdb::kTypeZSetZipList}) {
    std::string body;
    RdbWriter w(&body, false);
    if (type == rdb::kTypeListQuickList) w.Length(1);
    w.String(kExampleZipList);
    RdbReader r(body);
    DetachedValue v;
    ASSERT_TRUE(r.LoadObject(type, limits, &v)) << type << r.error();
    ASSERT_NE(v.aggregate, nullptr);
    EXPECT_EQ(v.aggregate->size(),
              type == rdb::kTypeListZipList || type == rdb::kTypeListQuickList ? 2u : 1u);
  }
  // The old sorted set with text scores: "a" 1.5, "b" +inf.
  std::string body =
      "\x02\x01"
      "a\x03"
      "1.5\x01"
      "b\xfe"s;
  RdbReader r(body);
  DetachedValue v;
  ASSERT_TRUE(r.LoadObject(rdb::kTypeZSet, limits, &v)) << r.error();
  double score;
  ASSERT_TRUE(static_cast<ZSet&>(*v.aggregate).Score("a", &score));
  EXPECT_EQ(score, 1.5);
  ASSERT_TRUE(static_cast<ZSet&>(*v.aggregate).Score("b", &score));
  EXPECT_TRUE(std::isinf(score));
}

TEST_F(RdbRoundTrip, StreamsKeepNodesGroupsAndPels) {
  src_.Run({"config", "set", "stream-node-max-entries", "5"});
  for (int i = 1; i <= 40; ++i) {
    src_.Run({"xadd", "s", std::to_string(i) + "-1", "f", std::to_string(i), "g", "text"});
    if (i % 7 == 0) src_.Run({"xadd", "s", std::to_string(i) + "-2", "other", "x"});
  }
  src_.Run({"xdel", "s", "3-1", "14-2", "20-1"});
  src_.Run({"xtrim", "s", "minid", "2-1"});
  src_.Run({"xgroup", "create", "s", "g", "0"});
  src_.Run({"xgroup", "create", "s", "late", "$", "entriesread", "3"});
  src_.Run({"xreadgroup", "group", "g", "alice", "count", "6", "streams", "s", ">"});
  src_.Run({"xreadgroup", "group", "g", "bob", "count", "3", "streams", "s", ">"});
  src_.Run({"xgroup", "createconsumer", "s", "g", "idle"});
  src_.Run({"xclaim", "s", "g", "bob", "0", "4-1", "retrycount", "9"});
  src_.Run({"xgroup", "create", "e", "g", "$", "mkstream"});
  for (const char* key : {"s", "e"}) {
    SCOPED_TRACE(key);
    const std::string payload = Dump(key);
    ASSERT_TRUE(Load(payload, key));
    const Value* copy = dst_.db().Peek(key, dst_.clock().NowMs());
    ASSERT_NE(copy, nullptr);
    // The same nodes, counters, groups, PELs and consumers: the same bytes again.
    EXPECT_EQ(CreateDumpPayload(*copy, true), payload.substr(0, payload.size()));
    EXPECT_EQ(dst_.Run({"xinfo", "stream", key, "full"}),
              src_.Run({"xinfo", "stream", key, "full"}));
    EXPECT_EQ(dst_.Run({"xpending", key, "g"}), src_.Run({"xpending", key, "g"}));
    EXPECT_EQ(dst_.Run({"xrevrange", key, "+", "-"}), src_.Run({"xrevrange", key, "+", "-"}));
  }
  // The loaded stream goes on as the original: appends (under the same node limit), acks,
  // claims.
  dst_.Run({"config", "set", "stream-node-max-entries", "5"});
  for (CommandHarness* h : {&src_, &dst_}) {
    h->Run({"xadd", "s", "50-0", "f", "new"});
    h->Run({"xack", "s", "g", "5-1"});
    h->Run({"xautoclaim", "s", "g", "carol", "0", "0"});
  }
  EXPECT_EQ(dst_.Run({"xinfo", "stream", "s", "full"}), src_.Run({"xinfo", "stream", "s", "full"}));
}

TEST_F(RdbRoundTrip, StreamsOfRedis5Load) {
  // RDB_TYPE_STREAM_LISTPACKS (Redis 5 and 6): no first id, max deleted id, entries-added or
  // entries-read; they are derived as Redis derives them. Made from a type 19 body by leaving
  // those out.
  src_.Run({"xadd", "s", "1-1", "f", "v"});
  src_.Run({"xadd", "s", "2-1", "f", "w"});
  // (Redis derives entries-read 1 for the group: the original says so too.)
  src_.Run({"xgroup", "create", "s", "g", "1-1", "entriesread", "1"});
  Dump("s");
  // [type][1 node][key 16][listpack][len 2][last 2 1][first 1 1][maxdel 0 0][added 2][1 group]
  // [name][last 1 1][entries-read][pel 0][consumers 0]
  const Value* v = src_.db().Peek("s", src_.clock().NowMs());
  std::string body;
  RdbWriter w(&body, true);
  w.Length(1);
  w.String(std::string("\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\x01", 16));
  w.String(v->As<Stream>().nodes().begin()->second.view());
  for (uint64_t n : {2, 2, 1}) w.Length(n);  // length, last id
  w.Length(1);
  w.String("g");
  for (uint64_t n : {1, 1, 0, 0}) w.Length(n);  // group last id, PEL, consumers
  std::string payload = Bytes({rdb::kTypeStreamListPacks}) + body;
  payload += Bytes({10, 0});
  const uint64_t crc = Crc64(0, payload);
  for (int i = 0; i < 8; ++i) payload.push_back(static_cast<char>(crc >> (8 * i)));
  ASSERT_TRUE(Load(payload, "old"));
  EXPECT_EQ(dst_.Run({"xinfo", "stream", "old"}), src_.Run({"xinfo", "stream", "s"}));
  EXPECT_EQ(dst_.Run({"xinfo", "groups", "old"}), src_.Run({"xinfo", "groups", "s"}));
}

TEST_F(RdbRoundTrip, CorruptStreamsAreRefused) {
  src_.Run({"xadd", "s", "1-1", "f", "v"});
  src_.Run({"xgroup", "create", "s", "g", "0"});
  src_.Run({"xreadgroup", "group", "g", "c", "streams", "s", ">"});
  const std::string good = Dump("s");
  auto with_footer = [](std::string body) {
    body += Bytes({10, 0});
    const uint64_t crc = Crc64(0, body);
    for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>(crc >> (8 * i)));
    return body;
  };
  const std::string body = good.substr(0, good.size() - 10);
  std::string why;
  // The consumer's PEL names an id the group's PEL does not have.
  std::string orphan = body;
  orphan[orphan.size() - 1] ^= 1;
  EXPECT_FALSE(Load(with_footer(orphan), "x", &why));
  EXPECT_EQ(why, "Consumer entry not found in group global PEL");
  // No consumer at all for the group's pending entry.
  std::string unowned = body.substr(0, body.size() - 16 - 1 - 8 - 2 - 1) + Bytes({0});
  EXPECT_FALSE(Load(with_footer(unowned), "x", &why));
  EXPECT_EQ(why, "Stream CG PEL entry without consumer");
  // A node key that is not 16 bytes.
  std::string short_key = body;
  short_key[2] = 15;
  EXPECT_FALSE(Load(with_footer(short_key), "x"));
}

TEST_F(RdbRoundTrip, CorruptPayloadsFailCleanly) {
  // Every value type, then random truncations and byte flips of the bodies (the checksum is
  // skipped so that the loader sees them): each loads or fails, never crashes.
  src_.Run({"rpush", "l", "a", "1", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"});
  src_.Run({"hset", "h", "f", "v", "g", "12"});
  src_.Run({"sadd", "s", "1", "2", "3"});
  src_.Run({"sadd", "t", "x", "y"});
  src_.Run({"zadd", "z", "1", "a", "2", "b"});
  for (int i = 0; i < 200; ++i) src_.Run({"zadd", "zz", std::to_string(i), std::to_string(i)});
  src_.Run({"config", "set", "stream-node-max-entries", "3"});
  for (int i = 1; i < 10; ++i) {
    src_.Run({"xadd", "x", std::to_string(i) + "-0", "f", std::to_string(i), "g", "v"});
  }
  src_.Run({"xadd", "x", "10-0", "other", "1"});
  src_.Run({"xdel", "x", "2-0"});
  src_.Run({"xgroup", "create", "x", "g", "0"});
  src_.Run({"xreadgroup", "group", "g", "c1", "count", "3", "streams", "x", ">"});
  src_.Run({"xreadgroup", "group", "g", "c2", "count", "2", "streams", "x", ">"});
  std::mt19937 rng(17);
  for (const char* key : {"l", "h", "s", "t", "z", "zz", "x"}) {
    const std::string good = Dump(key);
    for (int round = 0; round < 2000; ++round) {
      std::string bad = good.substr(0, good.size() - 10);
      if (round % 3 == 0) {
        bad.resize(rng() % bad.size());
      } else {
        for (int flips = 1 + rng() % 3; flips > 0; --flips)
          bad[rng() % bad.size()] ^= 1 << (rng() % 8);
      }
      bad += good.substr(good.size() - 10);
      DetachedValue v;
      if (LoadDumpPayload(bad, limits_, &v)) {
        // Whatever loaded is a usable value.
        dst_.db().Put("x", std::move(v), kNoExpiry);
        dst_.Run({"dump", "x"});
        dst_.Run({"type", "x"});
        if (key == std::string_view("x")) {
          // A stream that loaded is read and changed through every path.
          for (const std::vector<std::string>& cmd : std::vector<std::vector<std::string>>{
                   {"xinfo", "stream", "x", "full"},
                   {"xrange", "x", "-", "+"},
                   {"xrevrange", "x", "+", "-"},
                   {"xpending", "x", "g", "-", "+", "10"},
                   {"xreadgroup", "group", "g", "c1", "streams", "x", "0"},
                   {"xreadgroup", "group", "g", "c3", "streams", "x", ">"},
                   {"xclaim", "x", "g", "c2", "0", "1-0", "3-0", "4-0"},
                   {"xautoclaim", "x", "g", "c1", "0", "0"},
                   {"xack", "x", "g", "1-0", "5-0"},
                   {"xdel", "x", "3-0", "6-0"},
                   {"xadd", "x", "*", "f", "v"},
                   {"xtrim", "x", "maxlen", "2"},
                   {"xgroup", "delconsumer", "x", "g", "c2"},
               }) {
            dst_.Run(cmd);
          }
        }
        dst_.Run({"del", "x"});
      }
    }
  }
}

}  // namespace
}  // namespace kv::test
