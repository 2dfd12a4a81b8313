// The multi-part AOF manifest (server/persistence/aof_manifest.h): the text Redis 7.0's
// aofLoadManifestFromFile accepts and getAofManifestAsString writes, and the file naming of
// rewrites.

#include "server/persistence/aof_manifest.h"

#include "gtest/gtest.h"

namespace kv {
namespace {

TEST(AofManifestTest, ParsesWhatRedisWrites) {
  // A manifest as redis-server 7.0.15 leaves it after a rewrite that had not deleted its history.
  const std::string text =
      "file appendonly.aof.2.base.rdb seq 2 type b\n"
      "file appendonly.aof.1.base.rdb seq 1 type h\n"
      "file appendonly.aof.1.incr.aof seq 1 type h\n"
      "file appendonly.aof.2.incr.aof seq 2 type i\n"
      "file appendonly.aof.3.incr.aof seq 3 type i\n";
  ManifestParseError error;
  std::optional<AofManifest> am = ParseAofManifest(text, &error);
  ASSERT_TRUE(am.has_value()) << error.message;
  ASSERT_TRUE(am->base.has_value());
  EXPECT_EQ(am->base->name, "appendonly.aof.2.base.rdb");
  EXPECT_EQ(am->base_seq, 2);
  ASSERT_EQ(am->history.size(), 2u);
  EXPECT_EQ(am->history[1].name, "appendonly.aof.1.incr.aof");
  ASSERT_EQ(am->incr.size(), 2u);
  EXPECT_EQ(am->incr_seq, 3);
  // Written back the same, line for line.
  EXPECT_EQ(am->Format(), text);
}

TEST(AofManifestTest, CommentsExtraKeysAndCaseAreAccepted) {
  // '#' lines are skipped, keys compare case-insensitively, and unknown key/value pairs are
  // ignored (Redis's forward compatibility), as are blanks around a line.
  std::optional<AofManifest> am = ParseAofManifest(
      "# written by hand\n  FILE a.rdb SEQ 1 TYPE b future x  \r\nfile \"b c.aof\" seq 4 type i\n",
      nullptr);
  ASSERT_TRUE(am.has_value());
  EXPECT_EQ(am->base->name, "a.rdb");
  ASSERT_EQ(am->incr.size(), 1u);
  EXPECT_EQ(am->incr[0].name, "b c.aof");
  EXPECT_EQ(am->incr[0].seq, 4);
  // A name Redis must quote is written quoted (sdscatrepr), and reads back.
  const std::string out = am->Format();
  EXPECT_EQ(out, "file a.rdb seq 1 type b\nfile \"b c.aof\" seq 4 type i\n");
  EXPECT_EQ(QuoteManifestName("x\ny\x01"), "\"x\\ny\\x01\"");
}

TEST(AofManifestTest, RejectsWhatRedisRejects) {
  struct Case {
    std::string text;
    std::string error;
    int line;
  };
  const Case cases[] = {
      {"", "Found an empty AOF manifest", 0},
      {"file a seq 1 type b", "The AOF manifest file contains too long line", 0},
      {"\n", "Invalid AOF manifest file format", 1},
      {"file a seq 1\n", "Invalid AOF manifest file format", 1},
      {"file a seq 1 type\n", "Invalid AOF manifest file format", 1},
      {"file a seq 0 type b\n", "Invalid AOF manifest file format", 1},
      {"file ../a seq 1 type b\n", "File can't be a path, just a filename", 1},
      {"file d/a seq 1 type b\n", "File can't be a path, just a filename", 1},
      {"file a seq 1 type b\nfile b seq 2 type b\n", "Found duplicate base file information", 2},
      {"file a seq 2 type i\nfile b seq 2 type i\n", "Found a non-monotonic sequence number", 2},
      {"file a seq 1 type x\n", "Unknown AOF file type", 1},
      {"file \"a seq 1 type b\n", "Invalid AOF manifest file format", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    ManifestParseError error;
    EXPECT_FALSE(ParseAofManifest(c.text, &error).has_value());
    EXPECT_EQ(error.message, c.error);
    EXPECT_EQ(error.line_number, c.line);
  }
  // A line longer than Redis's 1024-byte buffer.
  ManifestParseError error;
  EXPECT_FALSE(
      ParseAofManifest("file " + std::string(1100, 'a') + " seq 1 type b\n", &error).has_value());
  EXPECT_EQ(error.message, "The AOF manifest file contains too long line");
}

TEST(AofManifestTest, RewriteNamesAndHistory) {
  AofManifest am;
  EXPECT_TRUE(am.empty());
  // The first start: a base, then an incremental file.
  EXPECT_EQ(am.NewBase("appendonly.aof", true), "appendonly.aof.1.base.rdb");
  EXPECT_EQ(am.NewIncr("appendonly.aof"), "appendonly.aof.1.incr.aof");
  // A rewrite opens the next incremental file, then the new base (here without the RDB
  // preamble) replaces the old one, which becomes history with the incremental files it covers
  // (each added at the head of the history, as Redis's listAddNodeHead).
  EXPECT_EQ(am.NewIncr("appendonly.aof"), "appendonly.aof.2.incr.aof");
  EXPECT_EQ(am.NewBase("appendonly.aof", false), "appendonly.aof.2.base.aof");
  am.MarkRewrittenIncrAsHistory(/*keep_last=*/true);
  EXPECT_EQ(am.Format(),
            "file appendonly.aof.2.base.aof seq 2 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type h\n"
            "file appendonly.aof.1.base.rdb seq 1 type h\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  // With no file being appended to (BGREWRITEAOF while appendonly is off), none is kept.
  am.MarkRewrittenIncrAsHistory(/*keep_last=*/false);
  EXPECT_TRUE(am.incr.empty());
  EXPECT_EQ(am.history.size(), 3u);
  // Sequence numbers keep growing after a reload.
  std::optional<AofManifest> back = ParseAofManifest(am.Format(), nullptr);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->NewBase("appendonly.aof", true), "appendonly.aof.3.base.rdb");
}

}  // namespace
}  // namespace kv
