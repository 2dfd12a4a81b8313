// The list commands through the real dispatcher: replies, errors and argument order, encodings,
// DEBUG OBJECT's quicklist fields, type checks against strings. Expected replies are what Redis
// 7.0.15 sends for the same commands.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kSyntax = Err("syntax error");
const std::string kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
const std::string kEmpty = "*0\r\n";
const std::string kNullArray = "*-1\r\n";

std::string Arr(std::initializer_list<std::string> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (const std::string& i : items) out += i;
  return out;
}

std::string Bulks(std::initializer_list<std::string_view> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (std::string_view i : items) out += Bulk(i);
  return out;
}

class ListFamilyTest : public ::testing::Test {
 protected:
  // The value of `field` in the DEBUG OBJECT line of `key`.
  std::string DebugField(std::string_view key, std::string_view field) {
    const std::string line = h.Run({"DEBUG", "OBJECT", key});
    const std::string tag = " " + std::string(field) + ":";
    const size_t at = line.find(tag);
    if (at == std::string::npos) return "<missing>";
    const size_t start = at + tag.size();
    return line.substr(start, line.find_first_of(" \r", start) - start);
  }

  CommandHarness h{[] {
    Config c;
    c.enable_debug_command = "yes";
    return c;
  }()};
};

TEST_F(ListFamilyTest, PushLengthRangeIndex) {
  EXPECT_EQ(h.Run({"RPUSH", "l", "a", "b", "c"}), Int(3));
  EXPECT_EQ(h.Run({"LPUSH", "l", "z", "y"}), Int(5));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"y", "z", "a", "b", "c"}));
  EXPECT_EQ(h.Run({"LRANGE", "l", "-2", "100"}), Bulks({"b", "c"}));
  EXPECT_EQ(h.Run({"LRANGE", "l", "3", "1"}), kEmpty);
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "9223372036854775807"}), Bulks({"y", "z", "a", "b", "c"}));
  EXPECT_EQ(h.Run({"LRANGE", "l", "-9223372036854775808", "0"}), Bulks({"y"}));
  EXPECT_EQ(h.Run({"LRANGE", "nokey", "0", "-1"}), kEmpty);
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "abc"}), kNotInt);
  EXPECT_EQ(h.Run({"LLEN", "l"}), Int(5));
  EXPECT_EQ(h.Run({"LLEN", "nokey"}), Int(0));
  EXPECT_EQ(h.Run({"LINDEX", "l", "-1"}), Bulk("c"));
  EXPECT_EQ(h.Run({"LINDEX", "l", "5"}), kNil);
  EXPECT_EQ(h.Run({"LINDEX", "l", "abc"}), kNotInt);
  // A missing key is looked up before the index is parsed.
  EXPECT_EQ(h.Run({"LINDEX", "nokey", "abc"}), kNil);
  EXPECT_EQ(h.Run({"TYPE", "l"}), "+list\r\n");
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "l"}), Bulk("quicklist"));
}

TEST_F(ListFamilyTest, PushXOnlyOnExistingLists) {
  EXPECT_EQ(h.Run({"LPUSHX", "l", "a"}), Int(0));
  EXPECT_EQ(h.Run({"RPUSHX", "l", "a", "b"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "l"}), Int(0));
  EXPECT_EQ(h.Run({"RPUSH", "l", "m"}), Int(1));
  EXPECT_EQ(h.Run({"LPUSHX", "l", "a", "b"}), Int(3));
  EXPECT_EQ(h.Run({"RPUSHX", "l", "y", "z"}), Int(5));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"b", "a", "m", "y", "z"}));
}

TEST_F(ListFamilyTest, IntegersComeBackAsText) {
  EXPECT_EQ(h.Run({"RPUSH", "l", "1", "-9223372036854775808", "007", "18446744073709551616"}),
            Int(4));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}),
            Bulks({"1", "-9223372036854775808", "007", "18446744073709551616"}));
}

TEST_F(ListFamilyTest, PopWithAndWithoutCount) {
  EXPECT_EQ(h.Run({"LPOP", "nokey"}), kNil);
  EXPECT_EQ(h.Run({"LPOP", "nokey", "2"}), kNullArray);
  EXPECT_EQ(h.Run({"RPUSH", "l", "a", "b", "c", "d", "e"}), Int(5));
  EXPECT_EQ(h.Run({"LPOP", "l"}), Bulk("a"));
  EXPECT_EQ(h.Run({"RPOP", "l"}), Bulk("e"));
  EXPECT_EQ(h.Run({"LPOP", "l", "0"}), kEmpty);
  EXPECT_EQ(h.Run({"RPOP", "l", "2"}), Bulks({"d", "c"}));
  EXPECT_EQ(h.Run({"LPOP", "l", "-1"}), Err("value is out of range, must be positive"));
  EXPECT_EQ(h.Run({"LPOP", "l", "abc"}), Err("value is out of range, must be positive"));
  EXPECT_EQ(h.Run({"LPOP", "l", "1", "2"}), Err("wrong number of arguments for 'lpop' command"));
  EXPECT_EQ(h.Run({"RPOP", "l", "1", "2"}), Err("wrong number of arguments for 'rpop' command"));
  EXPECT_EQ(h.Run({"LPOP", "l", "9223372036854775807"}), Bulks({"b"}));
  EXPECT_EQ(h.Run({"EXISTS", "l"}), Int(0));
  // RESP3: null for a missing key, an empty array (not null) for count 0.
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"LPOP", "nokey"}), "_\r\n");
  EXPECT_EQ(h.Run({"LPOP", "nokey", "1"}), "_\r\n");
  h.Run({"RPUSH", "l", "x"});
  EXPECT_EQ(h.Run({"LPOP", "l", "0"}), kEmpty);
}

TEST_F(ListFamilyTest, SetInsertRemoveTrim) {
  EXPECT_EQ(h.Run({"LSET", "nokey", "0", "x"}), Err("no such key"));
  EXPECT_EQ(h.Run({"RPUSH", "l", "a", "b", "c"}), Int(3));
  EXPECT_EQ(h.Run({"LSET", "l", "abc", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"LSET", "l", "3", "x"}), Err("index out of range"));
  EXPECT_EQ(h.Run({"LSET", "l", "-1", "C"}), kOk);
  EXPECT_EQ(h.Run({"LINSERT", "l", "middle", "a", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"LINSERT", "nokey", "before", "a", "x"}), Int(0));
  EXPECT_EQ(h.Run({"LINSERT", "l", "before", "zz", "x"}), Int(-1));
  EXPECT_EQ(h.Run({"LINSERT", "l", "BEFORE", "b", "x"}), Int(4));
  EXPECT_EQ(h.Run({"LINSERT", "l", "after", "C", "x"}), Int(5));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"a", "x", "b", "C", "x"}));
  EXPECT_EQ(h.Run({"LREM", "l", "abc", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"LREM", "nokey", "0", "x"}), Int(0));
  EXPECT_EQ(h.Run({"LREM", "l", "-1", "x"}), Int(1));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"a", "x", "b", "C"}));
  EXPECT_EQ(h.Run({"LTRIM", "l", "abc", "1"}), kNotInt);
  EXPECT_EQ(h.Run({"LTRIM", "nokey", "0", "1"}), kOk);
  EXPECT_EQ(h.Run({"LTRIM", "l", "1", "-2"}), kOk);
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"x", "b"}));
  EXPECT_EQ(h.Run({"LREM", "l", "0", "x"}), Int(1));
  EXPECT_EQ(h.Run({"LREM", "l", "0", "b"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "l"}), Int(0));
  h.Run({"RPUSH", "l", "a"});
  EXPECT_EQ(h.Run({"LTRIM", "l", "5", "10"}), kOk);
  EXPECT_EQ(h.Run({"EXISTS", "l"}), Int(0));
}

TEST_F(ListFamilyTest, LPosOptionsAndErrors) {
  EXPECT_EQ(h.Run({"LPOS", "nokey", "a"}), kNil);
  EXPECT_EQ(h.Run({"LPOS", "nokey", "a", "COUNT", "0"}), kEmpty);
  EXPECT_EQ(h.Run({"RPUSH", "l", "a", "b", "a", "c", "a"}), Int(5));
  EXPECT_EQ(h.Run({"LPOS", "l", "a"}), Int(0));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "2"}), Int(2));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "-1"}), Int(4));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "COUNT", "0"}), Arr({Int(0), Int(2), Int(4)}));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "COUNT", "2", "RANK", "-1"}), Arr({Int(4), Int(2)}));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "MAXLEN", "2", "COUNT", "0"}), Arr({Int(0)}));
  EXPECT_EQ(h.Run({"LPOS", "l", "zz", "COUNT", "1"}), kEmpty);
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "9223372036854775807"}), kNil);
  // Redis negates LONG_MIN into itself: every match from the tail qualifies, COUNT never stops.
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "-9223372036854775808"}), Int(4));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "-9223372036854775808", "COUNT", "2"}),
            Arr({Int(4), Int(2), Int(0)}));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "0"}),
            Err("RANK can't be zero: use 1 to start from the first match, 2 from the second ... "
                "or use negative to start from the end of the list"));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "COUNT", "-1"}), Err("COUNT can't be negative"));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "COUNT", "abc"}), Err("COUNT can't be negative"));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "MAXLEN", "-1"}), Err("MAXLEN can't be negative"));
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "RANK"}), kSyntax);
  EXPECT_EQ(h.Run({"LPOS", "l", "a", "FOO", "1"}), kSyntax);
  // Options are parsed before the key is looked up.
  EXPECT_EQ(h.Run({"SET", "s", "v"}), kOk);
  EXPECT_EQ(h.Run({"LPOS", "s", "a", "FOO"}), kSyntax);
  EXPECT_EQ(h.Run({"LPOS", "s", "a"}), kWrongType);
}

TEST_F(ListFamilyTest, MoveBetweenAndWithinLists) {
  EXPECT_EQ(h.Run({"RPOPLPUSH", "nokey", "d"}), kNil);
  EXPECT_EQ(h.Run({"RPUSH", "l", "a", "b", "c"}), Int(3));
  // Rotation of one list.
  EXPECT_EQ(h.Run({"RPOPLPUSH", "l", "l"}), Bulk("c"));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"c", "a", "b"}));
  EXPECT_EQ(h.Run({"LMOVE", "l", "l", "LEFT", "RIGHT"}), Bulk("c"));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"a", "b", "c"}));
  EXPECT_EQ(h.Run({"LMOVE", "l", "d", "left", "middle"}), kSyntax);
  EXPECT_EQ(h.Run({"LMOVE", "l", "d", "RIGHT", "LEFT"}), Bulk("c"));
  EXPECT_EQ(h.Run({"LMOVE", "l", "d", "LEFT", "RIGHT"}), Bulk("a"));
  EXPECT_EQ(h.Run({"LRANGE", "d", "0", "-1"}), Bulks({"c", "a"}));
  // A destination of another type: nothing moves.
  EXPECT_EQ(h.Run({"SET", "s", "v"}), kOk);
  EXPECT_EQ(h.Run({"LMOVE", "l", "s", "LEFT", "LEFT"}), kWrongType);
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"b"}));
  // The last element leaves: the source disappears.
  EXPECT_EQ(h.Run({"RPOPLPUSH", "l", "d"}), Bulk("b"));
  EXPECT_EQ(h.Run({"EXISTS", "l"}), Int(0));
  // One element onto itself: it stays.
  EXPECT_EQ(h.Run({"RPUSH", "one", "x"}), Int(1));
  EXPECT_EQ(h.Run({"RPOPLPUSH", "one", "one"}), Bulk("x"));
  EXPECT_EQ(h.Run({"LRANGE", "one", "0", "-1"}), Bulks({"x"}));
}

TEST_F(ListFamilyTest, LMPopArgumentsAndReplies) {
  EXPECT_EQ(h.Run({"LMPOP", "0", "l", "LEFT"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.Run({"LMPOP", "-1", "l", "LEFT"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.Run({"LMPOP", "abc", "l", "LEFT"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.Run({"LMPOP", "2", "l", "LEFT"}), kSyntax);
  EXPECT_EQ(h.Run({"LMPOP", "9223372036854775807", "l", "LEFT"}), kSyntax);
  EXPECT_EQ(h.Run({"LMPOP", "1", "l", "middle"}), kSyntax);
  EXPECT_EQ(h.Run({"LMPOP", "1", "l", "LEFT", "COUNT", "0"}),
            Err("count should be greater than 0"));
  EXPECT_EQ(h.Run({"LMPOP", "1", "l", "LEFT", "COUNT", "1", "COUNT", "1"}), kSyntax);
  EXPECT_EQ(h.Run({"LMPOP", "1", "l", "LEFT", "COUNT"}), kSyntax);
  EXPECT_EQ(h.Run({"LMPOP", "2", "a", "b", "LEFT"}), kNullArray);
  EXPECT_EQ(h.Run({"RPUSH", "b", "1", "2", "3"}), Int(3));
  EXPECT_EQ(h.Run({"LMPOP", "2", "a", "b", "RIGHT"}), Arr({Bulk("b"), Bulks({"3"})}));
  EXPECT_EQ(h.Run({"LMPOP", "2", "a", "b", "LEFT", "count", "10"}),
            Arr({Bulk("b"), Bulks({"1", "2"})}));
  EXPECT_EQ(h.Run({"EXISTS", "b"}), Int(0));
  // A key of another type before a list: WRONGTYPE, nothing popped.
  EXPECT_EQ(h.Run({"SET", "a", "v"}), kOk);
  EXPECT_EQ(h.Run({"RPUSH", "b", "1"}), Int(1));
  EXPECT_EQ(h.Run({"LMPOP", "2", "a", "b", "LEFT"}), kWrongType);
  EXPECT_EQ(h.Run({"LMPOP", "2", "nokey", "b", "LEFT"}), Arr({Bulk("b"), Bulks({"1"})}));
}

TEST_F(ListFamilyTest, WrongTypeBothWays) {
  EXPECT_EQ(h.Run({"SET", "s", "v"}), kOk);
  for (std::vector<std::string> cmd : std::vector<std::vector<std::string>>{
           {"LPUSH", "s", "x"},
           {"RPUSHX", "s", "x"},
           {"LPOP", "s"},
           {"RPOP", "s", "2"},
           {"LLEN", "s"},
           {"LRANGE", "s", "0", "1"},
           {"LINDEX", "s", "0"},
           {"LSET", "s", "0", "x"},
           {"LINSERT", "s", "before", "a", "b"},
           {"LREM", "s", "0", "x"},
           {"LTRIM", "s", "0", "1"},
           {"RPOPLPUSH", "s", "d"},
           {"BLPOP", "s", "0"},
           {"BLMOVE", "s", "d", "LEFT", "LEFT", "0"},
       }) {
    EXPECT_EQ(h.Run(cmd), kWrongType) << cmd[0];
  }
  EXPECT_EQ(h.Run({"RPUSH", "l", "x"}), Int(1));
  for (std::vector<std::string> cmd : std::vector<std::vector<std::string>>{
           {"GET", "l"},
           {"APPEND", "l", "x"},
           {"INCR", "l"},
           {"STRLEN", "l"},
           {"SETRANGE", "l", "0", "x"},
           {"GETRANGE", "l", "0", "1"},
           {"GETSET", "l", "x"},
           {"SETBIT", "l", "0", "1"},
           {"BITCOUNT", "l"},
       }) {
    EXPECT_EQ(h.Run(cmd), kWrongType) << cmd[0];
  }
  // SET replaces whatever was there.
  EXPECT_EQ(h.Run({"SET", "l", "v"}), kOk);
  EXPECT_EQ(h.Run({"TYPE", "l"}), "+string\r\n");
}

TEST_F(ListFamilyTest, DebugObjectShowsTheQuicklist) {
  h.Run({"CONFIG", "SET", "list-max-listpack-size", "4"});
  for (int i = 0; i < 10; ++i) h.Run({"RPUSH", "l", "element" + std::to_string(i)});
  EXPECT_EQ(DebugField("l", "encoding"), "quicklist");
  EXPECT_EQ(DebugField("l", "ql_nodes"), "3");
  EXPECT_EQ(DebugField("l", "ql_avg_node"), "3.33");
  EXPECT_EQ(DebugField("l", "ql_listpack_max"), "4");
  EXPECT_EQ(DebugField("l", "ql_compressed"), "0");
  // Each node: 6-byte header, terminator, and 10 bytes per 8-byte element.
  EXPECT_EQ(DebugField("l", "ql_uncompressed_size"), std::to_string(3 * 7 + 10 * 10));
  // A list keeps the options it was made with; new lists take the new ones.
  h.Run({"CONFIG", "SET", "list-max-ziplist-size", "-5"});
  h.Run({"CONFIG", "SET", "list-compress-depth", "1"});
  h.Run({"RPUSH", "l", "more"});
  EXPECT_EQ(DebugField("l", "ql_listpack_max"), "4");
  h.Run({"RPUSH", "m", "x"});
  EXPECT_EQ(DebugField("m", "ql_listpack_max"), "-5");
  EXPECT_EQ(DebugField("m", "ql_compressed"), "1");
  EXPECT_EQ(DebugField("m", "ql_nodes"), "1");
  // The fill is clamped as Redis's quicklistSetFill.
  h.Run({"CONFIG", "SET", "list-max-listpack-size", "-100"});
  h.Run({"RPUSH", "n", "x"});
  EXPECT_EQ(DebugField("n", "ql_listpack_max"), "-5");
  h.Run({"CONFIG", "SET", "list-max-listpack-size", "100000"});
  h.Run({"RPUSH", "o", "x"});
  EXPECT_EQ(DebugField("o", "ql_listpack_max"), "32767");
}

TEST_F(ListFamilyTest, PackedThresholdMakesPlainNodes) {
  EXPECT_EQ(h.Run({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "-1"}),
            Err("argument must be a memory value bigger than 1 and smaller than 4gb"));
  EXPECT_EQ(h.Run({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "5gb"}),
            Err("argument must be a memory value bigger than 1 and smaller than 4gb"));
  EXPECT_EQ(h.Run({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "10b"}), kOk);
  EXPECT_EQ(h.Run({"RPUSH", "l", "small", "a-big-element", "tail"}), Int(3));
  EXPECT_EQ(DebugField("l", "ql_nodes"), "3");
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}), Bulks({"small", "a-big-element", "tail"}));
  EXPECT_EQ(h.Run({"LSET", "l", "0", "another-big-one"}), kOk);
  EXPECT_EQ(h.Run({"LINSERT", "l", "after", "tail", "0123456789abc"}), Int(4));
  EXPECT_EQ(h.Run({"LRANGE", "l", "0", "-1"}),
            Bulks({"another-big-one", "a-big-element", "tail", "0123456789abc"}));
  EXPECT_EQ(h.Run({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0"}), kOk);
  EXPECT_EQ(h.Run({"RPUSH", "m", "small", "a-big-element", "tail"}), Int(3));
  EXPECT_EQ(DebugField("m", "ql_nodes"), "1");
}

TEST_F(ListFamilyTest, CopyRenameAndMemory) {
  for (int i = 0; i < 2000; ++i) h.Run({"RPUSH", "l", "v" + std::to_string(i)});
  EXPECT_EQ(h.Run({"COPY", "l", "c"}), Int(1));
  EXPECT_EQ(h.Run({"LPOP", "l"}), Bulk("v0"));
  EXPECT_EQ(h.Run({"LINDEX", "c", "0"}), Bulk("v0"));
  EXPECT_EQ(h.Run({"LLEN", "c"}), Int(2000));
  EXPECT_EQ(h.Run({"RENAME", "c", "r"}), kOk);
  EXPECT_EQ(h.Run({"LINDEX", "r", "-1"}), Bulk("v1999"));
  const std::string usage = h.Run({"MEMORY", "USAGE", "r"});
  ASSERT_EQ(usage[0], ':');
  const long bytes = std::stol(usage.substr(1));
  // About 7-8 bytes per element, in 3 nodes.
  EXPECT_GT(bytes, 2000 * 6);
  EXPECT_LT(bytes, 2000 * 12);
}

TEST_F(ListFamilyTest, DirtyCountsAsRedis) {
  auto dirty = [&] { return h.state().dirty; };
  const uint64_t start = dirty();
  h.Run({"RPUSH", "l", "a", "b", "c", "d"});
  EXPECT_EQ(dirty() - start, 4u);
  h.Run({"LPOP", "l", "2"});
  EXPECT_EQ(dirty() - start, 6u);
  h.Run({"LPUSHX", "nokey", "a"});
  h.Run({"LINSERT", "l", "before", "zz", "x"});
  h.Run({"LREM", "l", "0", "zz"});
  EXPECT_EQ(dirty() - start, 6u);
  h.Run({"LMOVE", "l", "m", "LEFT", "LEFT"});
  EXPECT_EQ(dirty() - start, 7u);
  h.Run({"LTRIM", "m", "1", "0"});
  EXPECT_EQ(dirty() - start, 8u);
}

}  // namespace
}  // namespace kv::test
