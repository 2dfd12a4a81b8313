// Whole RDB files loaded from bytes (LoadRdbBytes): RESIZEDB's layout, believed only as far as
// the file could hold that many keys, keys met twice (Redis's "duplicated key" refusal, or
// DEBUG RELOAD MERGE's replacement), and the load with its parser on a thread of its own giving
// what the serial load gives, when the file ends well and when it does not.

#include "server/persistence/rdb_file.h"

#include <chrono>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "server/dataset_digest.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_writer.h"
#include "storage/db.h"
#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

// "REDIS0010", database 0 with RESIZEDB `announced`, the string keys and values, EOF and a zero
// checksum (loaded with checksum off).
std::string File(uint64_t announced,
                 std::initializer_list<std::pair<std::string, std::string>> kv) {
  std::string out = "REDIS0010";
  RdbWriter w(&out, false);
  w.Byte(rdb::kOpSelectDb);
  w.Length(0);
  w.Byte(rdb::kOpResizeDb);
  w.Length(announced);
  w.Length(announced);
  for (const auto& [key, value] : kv) {
    w.Byte(rdb::kTypeString);
    w.String(key);
    w.String(value);
  }
  w.Byte(rdb::kOpEof);
  w.Raw(std::string(8, '\0'));
  return out;
}

RdbLoadResult Load(CommandHarness& h, std::string_view file, bool merge = false) {
  RdbLoadOptions options;
  options.checksum = false;
  options.allow_duplicates = merge;
  return LoadRdbBytes(h.state().dbs, file, options);
}

TEST(RdbFileTest, ResizeDbIsBelievedOnlyAsFarAsTheFileGoes) {
  CommandHarness h;
  const RdbLoadResult result = Load(h, File(uint64_t{1} << 62, {{"a", "1"}}));
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.keys_loaded, 1u);
  EXPECT_EQ(h.state().dbs.db(0).segment_count(), 1u);
  EXPECT_EQ(h.Run({"get", "a"}), "$1\r\n1\r\n");
}

TEST(RdbFileTest, ALoadedFileSplitsNoSegment) {
  CommandHarness src;
  for (int i = 0; i < 50000; ++i) src.Run({"set", "key:" + std::to_string(i), "v"});
  RdbSaveOptions save;
  const std::string path = ::testing::TempDir() + "/rdb_file_test.rdb";
  ASSERT_EQ(SaveRdbFile(src.state().dbs, path, save), std::nullopt);
  CommandHarness dst;
  RdbLoadOptions options;
  const RdbLoadResult result = LoadRdbFile(dst.state().dbs, path, options);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.keys_loaded, 50000u);
  const Db& db = dst.state().dbs.db(0);
  // The segments were made at the start, as deep as the directory and a quarter below the split
  // size (growing key by key, 50,000 keys fill 16 segments to 87%).
  EXPECT_EQ(db.segment_count(), size_t{1} << db.directory_depth());
  EXPECT_LE(db.size(), db.segment_count() * Db::kMaxSegmentSize * 3 / 4);
  EXPECT_GT(src.state().dbs.db(0).size(),
            src.state().dbs.db(0).segment_count() * Db::kMaxSegmentSize * 3 / 4);
  EXPECT_EQ(dst.Run({"get", "key:49999"}), "$1\r\nv\r\n");
  EXPECT_EQ(dst.Run({"dbsize"}), ":50000\r\n");
}

TEST(RdbFileTest, AKeyMetTwiceIsRefusedUnlessMerging) {
  const std::string twice = File(2, {{"a", "first"}, {"a", "second"}});
  CommandHarness strict;
  RdbLoadResult result = Load(strict, twice);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("RDB has duplicated key 'a' in DB 0"), std::string::npos)
      << result.error;
  CommandHarness merging;
  merging.Run({"set", "a", "before"});
  result = Load(merging, twice, /*merge=*/true);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(merging.Run({"get", "a"}), "$6\r\nsecond\r\n");
}

// The load's clock: two hours from now. Half the keys with a deadline expire an hour from now,
// the other half three hours from now, so the load finds the first half expired.
const int64_t kNow = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count() +
                     2 * 3600 * 1000;

// Every type and string encoding, several databases, deadlines passed and to come: 7,000 keys,
// so that the parser hands over several batches.
std::string MixedFile(int64_t now_ms) {
  CommandHarness src;
  for (int i = 0; i < 1000; ++i) {
    const std::string n = std::to_string(i);
    src.Run({"select", std::to_string(i % 3)});
    src.Run({"set", "int:" + n, n});                                   // an integer encoding
    src.Run({"set", "lzf:" + n, std::string(100, 'a' + i % 26) + n});  // LZF compressed
    src.Run({"set", "str:" + n, "value-" + n});
    src.Run({"rpush", "list:" + n, "a", n, "c"});
    src.Run({"hset", "hash:" + n, "f", n, "g", "v"});
    src.Run({"sadd", "set:" + n, n, "x", "y"});
    src.Run({"zadd", "zset:" + n, "1.5", n, "2", "m"});
    src.Run({"pexpireat", "str:" + n, std::to_string(now_ms + (i % 2 == 0 ? -3600 : 3600) * 1000)});
  }
  RdbSaveOptions save;
  save.now_ms = now_ms;
  const std::string path = ::testing::TempDir() + "/rdb_file_test_mixed.rdb";
  EXPECT_EQ(SaveRdbFile(src.state().dbs, path, save), std::nullopt);
  std::string file;
  FILE* f = std::fopen(path.c_str(), "rb");
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) file.append(buf, n);
  std::fclose(f);
  return file;
}

struct Loaded {
  RdbLoadResult result;
  std::string digest;
  std::vector<std::string> log;
};

Loaded LoadWith(std::string_view file, bool parallel, RdbLoadOptions options = {}) {
  CommandHarness h;
  options.parse_thread_min_bytes = parallel ? 0 : std::numeric_limits<size_t>::max();
  Loaded out;
  options.log = [&](const std::string& line) { out.log.push_back(line); };
  out.result = LoadRdbBytes(h.state().dbs, file, options);
  out.digest = DigestHex(DatasetDigest(h.state().dbs));
  return out;
}

TEST(RdbFileTest, TheParserOnAThreadOfItsOwnLoadsWhatTheSerialLoadDoes) {
  const std::string file = MixedFile(kNow);
  RdbLoadOptions options;
  options.now_ms = kNow;
  const Loaded serial = LoadWith(file, false, options);
  const Loaded parallel = LoadWith(file, true, options);
  ASSERT_TRUE(serial.result.ok) << serial.result.error;
  ASSERT_TRUE(parallel.result.ok) << parallel.result.error;
  EXPECT_EQ(serial.result.keys_loaded, 7000u - 500u);
  EXPECT_EQ(serial.result.keys_expired, 500u);
  EXPECT_EQ(parallel.result.keys_loaded, serial.result.keys_loaded);
  EXPECT_EQ(parallel.result.keys_expired, serial.result.keys_expired);
  EXPECT_EQ(parallel.result.bytes_read, file.size());
  EXPECT_EQ(parallel.digest, serial.digest);
  EXPECT_EQ(parallel.log, serial.log);
  EXPECT_NE(serial.digest, DigestHex(DatasetDigest(CommandHarness().state().dbs)));
}

TEST(RdbFileTest, ACorruptTailStopsBothLoadsAtTheSameKeyWithTheSameError) {
  std::string file = MixedFile(kNow);
  // A byte that is no record type, two thirds of the way in (at a record's start or not, both
  // loads read the same bytes the same way).
  file[file.size() * 2 / 3] = static_cast<char>(0xf0);
  RdbLoadOptions options;
  options.now_ms = kNow;
  const Loaded serial = LoadWith(file, false, options);
  const Loaded parallel = LoadWith(file, true, options);
  EXPECT_FALSE(serial.result.ok);
  EXPECT_FALSE(parallel.result.ok);
  EXPECT_NE(serial.result.error.find("Internal error in RDB reading offset"), std::string::npos)
      << serial.result.error;
  EXPECT_EQ(parallel.result.error, serial.result.error);
  EXPECT_GT(serial.result.keys_loaded, 2000u);
  EXPECT_EQ(parallel.result.keys_loaded, serial.result.keys_loaded);
  EXPECT_EQ(parallel.digest, serial.digest);
}

TEST(RdbFileTest, AProgressCallbackThatStopsTheLoadStopsTheParserToo) {
  const std::string file = MixedFile(kNow);
  for (bool parallel : {false, true}) {
    RdbLoadOptions options;
    options.now_ms = kNow;
    options.progress_interval_bytes = file.size() / 10;
    std::vector<size_t> reported;
    options.progress = [&](size_t bytes) {
      reported.push_back(bytes);
      return reported.size() < 3;
    };
    const Loaded loaded = LoadWith(file, parallel, options);
    EXPECT_TRUE(loaded.result.stopped) << parallel;
    EXPECT_EQ(loaded.result.error, "Loading stopped");
    ASSERT_EQ(reported.size(), 3u);
    EXPECT_GE(reported[2], options.progress_interval_bytes * 3);
    EXPECT_LT(reported[2], options.progress_interval_bytes * 4);
    EXPECT_LT(loaded.result.keys_loaded, 3000u);
  }
}

TEST(RdbFileTest, TheParserOnAThreadReportsADuplicatedKeyAsTheSerialLoadDoes) {
  const std::string twice = File(2, {{"a", "first"}, {"a", "second"}});
  RdbLoadOptions options;
  options.checksum = false;
  const Loaded serial = LoadWith(twice, false, options);
  const Loaded parallel = LoadWith(twice, true, options);
  EXPECT_FALSE(parallel.result.ok);
  EXPECT_NE(parallel.result.error.find("RDB has duplicated key 'a' in DB 0"), std::string::npos);
  EXPECT_EQ(parallel.result.error, serial.result.error);
  EXPECT_EQ(parallel.result.keys_loaded, 1u);
}

TEST(RdbFileTest, AFunctionLibraryTheEngineRefusesStopsTheLoadOnEitherPath) {
  CommandHarness src;
  src.Run({"set", "before", "1"});
  RdbSaveOptions save;
  save.function_libraries = {"#!lua name=lib\nredis.register_function('f', function() end)"};
  const std::string path = ::testing::TempDir() + "/rdb_file_test_function.rdb";
  ASSERT_EQ(SaveRdbFile(src.state().dbs, path, save), std::nullopt);
  for (size_t min_bytes : {size_t{0}, std::numeric_limits<size_t>::max()}) {
    CommandHarness dst;
    RdbLoadOptions options;
    options.parse_thread_min_bytes = min_bytes;
    std::string seen;
    options.load_function = [&](std::string&& code, std::string* error) {
      seen = code;
      *error = "refused";
      return false;
    };
    const RdbLoadResult result = LoadRdbFile(dst.state().dbs, path, options);
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error, "Failed loading library, refused");
    EXPECT_EQ(seen, save.function_libraries[0]);
    EXPECT_EQ(dst.Run({"dbsize"}), ":0\r\n");  // the functions come before the keys
  }
}

}  // namespace
}  // namespace kv::test
