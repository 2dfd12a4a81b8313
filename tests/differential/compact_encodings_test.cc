// ListPack and IntSet against the real redis-server 7.0.15: the same elements pushed, inserted,
// replaced and deleted in a Redis list, hash or set and in our ListPack or IntSet must give the
// same bytes. Redis's bytes come from DUMP, whose payload is the value's RDB serialization:
//   list (RDB_TYPE_LIST_QUICKLIST_2, 18): node count, then per node its container (2 = packed)
//     and the node's listpack as an RDB string;
//   hash (RDB_TYPE_HASH_LISTPACK, 16) and set (RDB_TYPE_SET_INTSET, 11): the listpack or intset
//     as an RDB string;
// an RDB string being LZF-compressed when that saves space, which the test undoes with liblzf.
// Only kvserver's storage classes are used here, in-process; redis-server is the reference.

#include <liblzf/lzf.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "storage/intset.h"
#include "storage/listpack.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Strings = std::vector<std::string>;

constexpr uint8_t kRdbTypeSetIntset = 11;
constexpr uint8_t kRdbTypeHashListpack = 16;
constexpr uint8_t kRdbTypeListQuicklist2 = 18;
constexpr uint64_t kQuicklistNodeContainerPacked = 2;

// Reads RDB lengths and strings (rdbLoadLen, rdbGenericLoadStringObject) from a DUMP payload.
class RdbReader {
 public:
  explicit RdbReader(std::string_view data) : data_(data) {}

  std::optional<uint8_t> Byte() {
    if (at_ >= data_.size()) return std::nullopt;
    return static_cast<uint8_t>(data_[at_++]);
  }

  // A length; `encoded` is set for the special string encodings (11xxxxxx).
  std::optional<uint64_t> Length(bool* encoded = nullptr) {
    if (encoded) *encoded = false;
    const auto first = Byte();
    if (!first) return std::nullopt;
    switch (*first >> 6) {
      case 0:
        return *first & 0x3f;
      case 1: {
        const auto second = Byte();
        if (!second) return std::nullopt;
        return (uint64_t{*first} & 0x3f) << 8 | *second;
      }
      case 2: {
        const int n = *first == 0x80 ? 4 : *first == 0x81 ? 8 : 0;
        if (n == 0) return std::nullopt;
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) {  // big-endian
          const auto b = Byte();
          if (!b) return std::nullopt;
          v = v << 8 | *b;
        }
        return v;
      }
      default:
        if (encoded) *encoded = true;
        return *first & 0x3f;
    }
  }

  std::optional<std::string> String() {
    bool encoded;
    const auto len = Length(&encoded);
    if (!len) return std::nullopt;
    if (!encoded) return Take(*len);
    if (*len != 3) return std::nullopt;  // RDB_ENC_LZF; integer encodings never hold a blob
    const auto compressed_len = Length();
    const auto plain_len = Length();
    if (!compressed_len || !plain_len) return std::nullopt;
    const auto compressed = Take(*compressed_len);
    if (!compressed) return std::nullopt;
    std::string plain(*plain_len, '\0');
    const unsigned n = lzf_decompress(compressed->data(), static_cast<unsigned>(compressed->size()),
                                      plain.data(), static_cast<unsigned>(plain.size()));
    if (n != plain.size()) return std::nullopt;
    return plain;
  }

  // What follows the value: the RDB version (2 bytes) and the CRC64 (8 bytes).
  size_t left() const { return data_.size() - at_; }

 private:
  std::optional<std::string> Take(uint64_t n) {
    if (n > data_.size() - at_) return std::nullopt;
    std::string s(data_.substr(at_, n));
    at_ += n;
    return s;
  }

  std::string_view data_;
  size_t at_ = 0;
};

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// Compares blobs, printing them in hex when short enough to read.
::testing::AssertionResult SameBytes(std::string_view ours, std::string_view redis) {
  if (ours == redis) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  failure << "ours " << ours.size() << " bytes, Redis's " << redis.size() << " bytes";
  if (ours.size() + redis.size() < 2000) {
    failure << "\n  ours:  " << Hex(ours) << "\n  redis: " << Hex(redis);
  } else {
    size_t i = 0;
    while (i < ours.size() && i < redis.size() && ours[i] == redis[i]) ++i;
    failure << ", first difference at byte " << i;
  }
  return failure;
}

std::vector<std::string_view> Views(const Strings& strings) {
  return {strings.begin(), strings.end()};
}

class CompactEncodingsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { redis_ = ServerProcess::StartRedis().release(); }
  static void TearDownTestSuite() {
    delete redis_;
    redis_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(redis_, nullptr);
    conn_ = RawConnection::Connect(redis_->port());
    ASSERT_NE(conn_, nullptr);
    ASSERT_EQ(Call({"FLUSHALL"}), "+OK\r\n");
  }

  std::string Call(const Strings& args) { return conn_->Call(args); }

  // Sends a command whose reply must not be an error.
  void Run(const Strings& args) {
    const std::string reply = Call(args);
    ASSERT_FALSE(reply.empty() || reply[0] == '-') << args[0] << ": " << Escape(reply);
  }

  void ExpectEncoding(const std::string& key, const std::string& encoding) {
    EXPECT_EQ(Call({"OBJECT", "ENCODING", key}),
              "$" + std::to_string(encoding.size()) + "\r\n" + encoding + "\r\n");
  }

  // DUMP's payload, or "" if the key is missing.
  std::string Dump(const std::string& key) {
    const std::string reply = Call({"DUMP", key});
    if (reply.size() < 4 || reply[0] != '$' || reply == "$-1\r\n") {
      ADD_FAILURE() << "DUMP " << key << ": " << Escape(reply.substr(0, 100));
      return "";
    }
    const size_t crlf = reply.find("\r\n");
    const size_t n = std::stoul(reply.substr(1, crlf - 1));
    return reply.substr(crlf + 2, n);
  }

  // The listpack of a list that Redis keeps in one quicklist node.
  std::string ListBlob(const std::string& key) {
    ExpectEncoding(key, "quicklist");
    const std::string payload = Dump(key);
    RdbReader in(payload);
    EXPECT_EQ(in.Byte(), kRdbTypeListQuicklist2);
    EXPECT_EQ(in.Length(), 1u) << "the list must be one node";
    EXPECT_EQ(in.Length(), kQuicklistNodeContainerPacked);
    const auto blob = in.String();
    EXPECT_TRUE(blob.has_value()) << Escape(payload.substr(0, 100));
    EXPECT_EQ(in.left(), 10u);
    return blob.value_or("");
  }

  std::string HashBlob(const std::string& key) {
    ExpectEncoding(key, "listpack");
    return Blob(key, kRdbTypeHashListpack);
  }

  std::string IntSetBlob(const std::string& key) {
    ExpectEncoding(key, "intset");
    return Blob(key, kRdbTypeSetIntset);
  }

  std::string Blob(const std::string& key, uint8_t type) {
    const std::string payload = Dump(key);
    RdbReader in(payload);
    EXPECT_EQ(in.Byte(), type);
    const auto blob = in.String();
    EXPECT_TRUE(blob.has_value()) << Escape(payload.substr(0, 100));
    EXPECT_EQ(in.left(), 10u);
    return blob.value_or("");
  }

  // RPUSH `elements` to a fresh list, and the same appends to a ListPack, one at a time and in
  // one AppendMany; all three must hold the same bytes.
  void ExpectSameRpush(const Strings& elements) {
    Strings cmd = {"RPUSH", "list"};
    cmd.insert(cmd.end(), elements.begin(), elements.end());
    Call({"DEL", "list"});
    Run(cmd);
    ListPack one_by_one;
    for (const std::string& e : elements) one_by_one.Append(e);
    ListPack batch;
    const auto views = Views(elements);
    batch.AppendMany(views);
    const std::string redis = ListBlob("list");
    EXPECT_TRUE(SameBytes(one_by_one.view(), redis));
    EXPECT_TRUE(SameBytes(batch.view(), redis));
    EXPECT_TRUE(ListPack::Validate(redis, true));
  }

  static inline ServerProcess* redis_ = nullptr;
  std::unique_ptr<RawConnection> conn_;
};

std::string Pattern(size_t n, char seed = 'a') {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i % 23);
  return s;
}

// Bytes that LZF cannot shorten, so DUMP carries them as they are.
std::string Noise(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>('!' + rng() % 90);
  return s;
}

TEST_F(CompactEncodingsTest, ListIntegerWidthBoundaries) {
  ExpectSameRpush({"0",
                   "1",
                   "127",
                   "128",
                   "-1",
                   "4095",
                   "4096",
                   "-4096",
                   "-4097",
                   "32767",
                   "32768",
                   "-32768",
                   "-32769",
                   "8388607",
                   "8388608",
                   "-8388608",
                   "-8388609",
                   "2147483647",
                   "2147483648",
                   "-2147483648",
                   "-2147483649",
                   "9223372036854775807",
                   "-9223372036854775808",
                   "-9223372036854775807",
                   "1000000000000"});
}

TEST_F(CompactEncodingsTest, ListIntegerLookingStringsStayStrings) {
  ExpectSameRpush({"01",
                   "+1",
                   "-0",
                   " 1",
                   "1 ",
                   "00",
                   "-",
                   "",
                   "1.0",
                   "0x10",
                   "1e5",
                   "9223372036854775808",
                   "-9223372036854775809",
                   "18446744073709551616",
                   "123456789012345678901",
                   "-12345678901234567890",
                   "99999999999999999999",
                   "-01",
                   "--1",
                   "1-",
                   std::string("1\0", 2)});
}

TEST_F(CompactEncodingsTest, ListStringLengthBoundaries) {
  // Header widths (6-bit length up to 63, 12-bit up to 4095) and the backlen's 1-byte limit
  // (an encoded entry of 127 bytes: a 125-byte string with its 2-byte header).
  ExpectSameRpush({Pattern(1), Pattern(62), Pattern(63), Pattern(64), Pattern(65), Pattern(125),
                   Pattern(126), Pattern(127), Pattern(1000)});
  // Each large one alone: a quicklist node holds up to 8 KB, a single element any size.
  for (size_t n : {4094u, 4095u, 4096u, 4097u, 16376u, 16377u, 16378u, 16379u, 20000u}) {
    SCOPED_TRACE(n);
    ExpectSameRpush({Noise(n, static_cast<uint32_t>(n))});
    ExpectSameRpush({Pattern(n)});  // this one LZF-compressed in the dump
  }
}

TEST_F(CompactEncodingsTest, ListHugeEntryBacklenBoundary) {
  // An entry of 2097151 bytes (encoding and data) takes a 4-byte backlen, one byte less a 3-byte
  // one: lpEncodeBacklen's `<` thresholds.
  for (size_t n : {2097145u, 2097146u}) {
    SCOPED_TRACE(n);
    ExpectSameRpush({Pattern(n)});
  }
}

TEST_F(CompactEncodingsTest, ListPushesInsertsReplacesAndDeletes) {
  ListPack lp;
  auto step = [&](const Strings& cmd) {
    SCOPED_TRACE(cmd[0]);
    Run(cmd);
    EXPECT_TRUE(SameBytes(lp.view(), ListBlob("l")));
  };
  auto find = [&](std::string_view pivot) {
    const ListPack::Pos p = lp.Find(lp.First(), pivot);
    EXPECT_NE(p, ListPack::npos) << pivot;
    return p;
  };

  lp.Append("a");
  lp.Append("100");
  lp.Append(Pattern(70));
  step({"RPUSH", "l", "a", "100", Pattern(70)});
  lp.Prepend("-7");
  lp.Prepend("head");
  step({"LPUSH", "l", "-7", "head"});
  lp.Insert(find("100"), "before-100", ListPack::Where::kBefore);
  step({"LINSERT", "l", "BEFORE", "100", "before-100"});
  lp.Insert(find(Pattern(70)), "9999999999", ListPack::Where::kAfter);  // after the tail
  step({"LINSERT", "l", "AFTER", Pattern(70), "9999999999"});
  lp.Insert(find("head"), "new-head", ListPack::Where::kBefore);
  step({"LINSERT", "l", "BEFORE", "head", "new-head"});
  lp.Insert(find("-7"), Pattern(300), ListPack::Where::kAfter);
  step({"LINSERT", "l", "AFTER", "-7", Pattern(300)});

  // LSET: string to integer, integer to a longer string, the head, the tail, a negative index.
  lp.Replace(lp.Seek(2), "12");
  step({"LSET", "l", "2", "12"});
  lp.Replace(lp.Seek(4), Pattern(80, 'k'));
  step({"LSET", "l", "4", Pattern(80, 'k')});
  lp.Replace(lp.Seek(0), "x");
  step({"LSET", "l", "0", "x"});
  lp.Replace(lp.Seek(-1), "-4097");
  step({"LSET", "l", "-1", "-4097"});
  lp.Replace(lp.Seek(-3), "");
  step({"LSET", "l", "-3", ""});

  // LREM of an integer given as its canonical string; LPOP and RPOP.
  lp.Delete(find("-4097"));
  step({"LREM", "l", "0", "-4097"});
  lp.Delete(lp.First());
  step({"LPOP", "l"});
  lp.Delete(lp.Last());
  step({"RPOP", "l"});
  // LREM of one element from the middle, by its value.
  ASSERT_GE(lp.size(), 4u);
  char buf[ListPackValue::kIntBufSize];
  const std::string middle(lp.Get(lp.Seek(2)).ToString(buf));
  ASSERT_EQ(find(middle), lp.Seek(2)) << "the value must be the first of its kind";
  lp.Delete(lp.Seek(2));
  step({"LREM", "l", "1", middle});
}

TEST_F(CompactEncodingsTest, ListTrims) {
  Strings elements;
  for (int i = 0; i < 40; ++i)
    elements.push_back(i % 3 == 0 ? std::to_string(i * 1000) : Pattern(i));
  ExpectSameRpush(elements);
  ListPack lp;
  for (const std::string& e : elements) lp.Append(e);
  // LTRIM l 3 -6: quicklistDelRange(0, 3) then quicklistDelRange(-5, 5), one node.
  lp.DeleteRange(0, 3);
  lp.DeleteRange(-5, 5);
  Run({"LTRIM", "list", "3", "-6"});
  EXPECT_TRUE(SameBytes(lp.view(), ListBlob("list")));
  // LTRIM list 10 10: everything but one element in the middle.
  const long n = static_cast<long>(lp.size());
  lp.DeleteRange(0, 10);
  lp.DeleteRange(-(n - 11), static_cast<size_t>(n - 11));
  Run({"LTRIM", "list", "10", "10"});
  EXPECT_EQ(lp.size(), 1u);
  EXPECT_TRUE(SameBytes(lp.view(), ListBlob("list")));
}

TEST_F(CompactEncodingsTest, ListOfManyElementsNearTheNodeLimit) {
  // list-max-listpack-size -2: a node takes elements while its bytes + the element + 8 stay
  // within 8 KB. 700 short mixed elements stay in one node; the last of them are long ones.
  Strings elements;
  std::mt19937 rng(7);
  size_t estimate = ListPack::kEmptyBytes;
  while (true) {
    std::string e;
    switch (rng() % 4) {
      case 0:
        e = std::to_string(static_cast<int64_t>(rng()) - (1LL << 31));
        break;
      case 1:
        e = std::to_string(rng() % 128);
        break;
      case 2:
        e = Pattern(rng() % 20);
        break;
      default:
        e = std::to_string(static_cast<int64_t>(rng()) << 20);
    }
    if (estimate + e.size() + 8 > 8192) break;
    estimate += ListPack::EntrySizeFor(e);
    elements.push_back(e);
  }
  ASSERT_GT(elements.size(), 500u);
  ExpectSameRpush(elements);
}

TEST_F(CompactEncodingsTest, HashFieldsAndValues) {
  ListPack lp;
  auto hset = [&](const std::string& field, const std::string& value) {
    // hashTypeSet: replace the value of an existing field, else append field and value.
    const ListPack::Pos f =
        lp.First() == ListPack::npos ? ListPack::npos : lp.Find(lp.First(), field, 1);
    if (f != ListPack::npos) {
      lp.Replace(lp.Next(f), value);
    } else {
      lp.Append(field);
      lp.Append(value);
    }
    Run({"HSET", "h", field, value});
  };
  hset("name", "value");
  hset("1", "2");
  hset("-1", "-9223372036854775808");
  hset("01", "+1");
  hset("f", Pattern(64));
  hset("g", "4096");
  hset(Pattern(63), "");
  EXPECT_TRUE(SameBytes(lp.view(), HashBlob("h")));
  // Existing fields: an integer field found by its string, a string value replaced by an
  // integer, a long value by a short one.
  hset("1", "hello");
  hset("f", "12345678901");
  hset("g", "x");
  hset("-1", "-1");
  EXPECT_TRUE(SameBytes(lp.view(), HashBlob("h")));
  // HDEL: field and value go together (lpDeleteRangeWithEntry of 2).
  for (const std::string field : {"01", "name"}) {
    const ListPack::Pos f = lp.Find(lp.First(), field, 1);
    ASSERT_NE(f, ListPack::npos);
    lp.DeleteFrom(f, 2);
    Run({"HDEL", "h", field});
  }
  EXPECT_TRUE(SameBytes(lp.view(), HashBlob("h")));
  // HINCRBY writes the new number as a string: stored as an integer again.
  lp.Replace(lp.Next(lp.Find(lp.First(), "-1", 1)), "41");
  Run({"HINCRBY", "h", "-1", "42"});
  EXPECT_TRUE(SameBytes(lp.view(), HashBlob("h")));
}

TEST_F(CompactEncodingsTest, HashOfTheMostEntriesAListpackHashHolds) {
  // hash-max-listpack-entries 128, hash-max-listpack-value 64.
  ListPack lp;
  Strings cmd = {"HSET", "h"};
  std::mt19937 rng(11);
  for (int i = 0; i < 128; ++i) {
    const std::string field = i % 2 ? "field:" + std::to_string(i) : std::to_string(i * 977);
    const std::string value =
        i % 3 ? Pattern(rng() % 65) : std::to_string(static_cast<int64_t>(rng()) * 1000003);
    cmd.push_back(field);
    cmd.push_back(value);
    lp.Append(field);
    lp.Append(value);
  }
  Run(cmd);
  EXPECT_TRUE(SameBytes(lp.view(), HashBlob("h")));
  EXPECT_EQ(lp.size(), 256u);
}

TEST_F(CompactEncodingsTest, IntSetsUpgradeAndNeverDowngrade) {
  IntSet set;
  auto sadd = [&](std::initializer_list<int64_t> values) {
    Strings cmd = {"SADD", "s"};
    for (int64_t v : values) {
      cmd.push_back(std::to_string(v));
      set.Add(v);
    }
    Run(cmd);
  };
  auto srem = [&](std::initializer_list<int64_t> values) {
    Strings cmd = {"SREM", "s"};
    for (int64_t v : values) {
      cmd.push_back(std::to_string(v));
      set.Remove(v);
    }
    Run(cmd);
  };
  sadd({5, -3, 7, 32767, -32768});
  EXPECT_EQ(set.encoding(), 2u);
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
  sadd({32768});  // to 32 bits, appended
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
  sadd({-2147483648, 2147483647, 0});
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
  sadd({-2147483649});  // to 64 bits, prepended
  EXPECT_EQ(set.encoding(), 8u);
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
  sadd({INT64_MAX, INT64_MIN, 3, 5});
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
  srem({INT64_MAX, INT64_MIN, -2147483649, 32768, 99});
  EXPECT_EQ(set.encoding(), 8u);  // still 64-bit, as Redis's
  EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
}

TEST_F(CompactEncodingsTest, IntSetOfRandomValuesAtEveryWidth) {
  for (int64_t range : {int64_t{30000}, int64_t{2000000000}, INT64_MAX}) {
    SCOPED_TRACE(range);
    Call({"DEL", "s"});
    IntSet set;
    std::mt19937_64 rng(static_cast<uint64_t>(range));
    Strings cmd = {"SADD", "s"};
    for (int i = 0; i < 512; ++i) {  // set-max-intset-entries
      const int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(range)) - range / 2;
      cmd.push_back(std::to_string(v));
      set.Add(v);
    }
    Run(cmd);
    EXPECT_TRUE(SameBytes(set.view(), IntSetBlob("s")));
    const std::string redis = IntSetBlob("s");
    EXPECT_TRUE(IntSet::Validate(redis, true));
    const auto loaded = IntSet::FromBytes(redis);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->view(), set.view());
  }
}

// What Redis writes, read back: every blob Redis produces for a mix of values passes deep
// validation and reads as the values that went in.
TEST_F(CompactEncodingsTest, RedisListpacksLoadAndReadBack) {
  Strings elements = {"a", "-5", "127", Pattern(100), "", "9223372036854775807", "x y z"};
  Strings cmd = {"RPUSH", "list"};
  cmd.insert(cmd.end(), elements.begin(), elements.end());
  Run(cmd);
  const auto loaded = ListPack::FromBytes(ListBlob("list"));
  ASSERT_TRUE(loaded.has_value());
  ASSERT_EQ(loaded->size(), elements.size());
  size_t i = 0;
  for (ListPackValue v : *loaded) {
    char buf[ListPackValue::kIntBufSize];
    EXPECT_EQ(v.ToString(buf), elements[i]) << i;
    ++i;
  }
}

}  // namespace
}  // namespace kv::test
