// Whole RDB files loaded from bytes (LoadRdbBytes): RESIZEDB's layout, believed only as far as
// the file could hold that many keys, and keys met twice (Redis's "duplicated key" refusal, or
// DEBUG RELOAD MERGE's replacement).

#include "server/persistence/rdb_file.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"
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

}  // namespace
}  // namespace kv::test
