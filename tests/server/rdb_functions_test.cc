// Function libraries in Redis's RDB encoding (server/persistence/rdb_functions): FUNCTION2 entries
// written and read back (plain and LZF-compressed), the pre-release FUNCTION entry translated as
// Redis's rdbFunctionLoad does, FUNCTION DUMP payloads verified and read, and corrupt input
// refused with Redis's reason (run under ASan to check that it never reads outside). Then FUNCTION
// DUMP and FUNCTION RESTORE through the command table: all or nothing under each policy.

#include "server/persistence/rdb_functions.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_reader.h"
#include "server/persistence/rdb_writer.h"
#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

const std::string kLib =
    "#!lua name=lib\nredis.register_function('f', function(keys, args) return 'lib f' end)\n"
    "redis.register_function('g', function(keys, args) return 'lib g' end)\n";

// Reads every payload entry's code.
bool ReadAll(std::string_view payload, std::vector<std::string>* codes, std::string* error) {
  return ReadFunctionsPayload(
      payload,
      [codes](std::string&& code, std::string*) {
        codes->push_back(std::move(code));
        return true;
      },
      error);
}

TEST(RdbFunctionsTest, EntriesRoundTrip) {
  for (bool compress : {false, true}) {
    std::string out;
    RdbWriter w(&out, compress);
    const std::string repetitive = "#!lua name=r\n" + std::string(300, 'x');
    WriteFunctionLibraries(w, {kLib, repetitive});
    // LZF makes the repetitive code much shorter.
    EXPECT_EQ(out.size() < 300, compress);
    RdbReader r(out);
    for (const std::string& expected : {kLib, repetitive}) {
      uint8_t opcode;
      ASSERT_TRUE(r.Byte(&opcode));
      EXPECT_EQ(opcode, rdb::kOpFunction2);
      std::string code, error;
      ASSERT_TRUE(ReadFunctionLibrary(r, opcode, &code, &error)) << error;
      EXPECT_EQ(code, expected);
    }
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(RdbFunctionsTest, PreReleaseEntryGetsItsShebang) {
  std::string out;
  RdbWriter w(&out, false);
  w.String("old");
  w.String("LUA");
  w.Length(1);
  w.String("a description");
  w.String("return 1");
  RdbReader r(out);
  std::string code, error;
  ASSERT_TRUE(ReadFunctionLibrary(r, rdb::kOpFunction, &code, &error)) << error;
  EXPECT_EQ(code, "#!LUA name=old\nreturn 1");
  // Cut at each field: Redis's reason for each.
  const std::vector<std::pair<size_t, std::string>> cuts = {
      {0, "Failed loading library name"},
      {4, "Failed loading engine name"},
      {8, "Failed loading library description indicator"},
      {9, "Failed loading library description"},
      {23, "Failed loading library blob"}};
  for (const auto& [size, why] : cuts) {
    RdbReader cut(std::string_view(out).substr(0, size));
    error.clear();
    EXPECT_FALSE(ReadFunctionLibrary(cut, rdb::kOpFunction, &code, &error));
    EXPECT_EQ(error, why) << size;
  }
  RdbReader empty("");
  EXPECT_FALSE(ReadFunctionLibrary(empty, rdb::kOpFunction2, &code, &error));
  EXPECT_EQ(error, "Failed loading library payload");
}

TEST(RdbFunctionsTest, PayloadRoundTripsAndRefusesDamage) {
  const std::string payload = CreateFunctionsPayload({kLib, "#!lua name=b\nreturn 2"}, true);
  std::vector<std::string> codes;
  std::string error;
  ASSERT_TRUE(ReadAll(payload, &codes, &error)) << error;
  EXPECT_EQ(codes, (std::vector<std::string>{kLib, "#!lua name=b\nreturn 2"}));
  // The footer: RDB version 10, then the CRC64 of everything before it.
  EXPECT_EQ(payload.substr(payload.size() - 10, 2), std::string("\x0a\x00", 2));
  uint64_t crc = 0;
  for (int i = 7; i >= 0; --i)
    crc = crc << 8 | static_cast<uint8_t>(payload[payload.size() - 8 + i]);
  EXPECT_EQ(crc, Crc64(0, std::string_view(payload).substr(0, payload.size() - 8)));
  // An empty payload is just the footer.
  codes.clear();
  EXPECT_EQ(CreateFunctionsPayload({}, true).size(), 10u);
  EXPECT_TRUE(ReadAll(CreateFunctionsPayload({}, true), &codes, &error));
  EXPECT_TRUE(codes.empty());
  // Any flipped bit or cut fails the checksum.
  for (size_t i = 0; i < payload.size(); ++i) {
    std::string damaged = payload;
    damaged[i] ^= 0x10;
    error.clear();
    EXPECT_FALSE(ReadAll(damaged, &codes, &error)) << i;
    EXPECT_EQ(error, "DUMP payload version or checksum are wrong");
    error.clear();
    EXPECT_FALSE(ReadAll(std::string_view(payload).substr(0, i), &codes, &error)) << i;
  }
}

TEST(RdbFunctionsTest, GarbageWithAGoodFooterNeverReadsOutside) {
  // Random bodies, each given a valid footer: refused or read, never a crash (ASan).
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string body;
    const size_t n = rng() % 40;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = rng();
      // Mostly FUNCTION/FUNCTION2 opcodes and length bytes, so that the entries get read.
      body.push_back(static_cast<char>(r % 4 == 0 ? 0xf5 : r % 4 == 1 ? 0xf6 : (r >> 8) & 0xff));
    }
    body.push_back(10);
    body.push_back(0);
    const uint64_t crc = Crc64(0, body);
    for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
    std::vector<std::string> codes;
    std::string error;
    if (!ReadAll(body, &codes, &error)) {
      EXPECT_FALSE(error.empty());
    }
  }
}

class FunctionRestoreTest : public ::testing::Test {
 protected:
  std::string Dump() {
    const std::string reply = h.Run({"FUNCTION", "DUMP"});
    const size_t start = reply.find("\r\n") + 2;
    return reply.substr(start, reply.size() - start - 2);
  }
  CommandHarness h;
};

TEST_F(FunctionRestoreTest, PoliciesAreAllOrNothing) {
  ASSERT_EQ(h.Run({"FUNCTION", "LOAD", kLib}), "$3\r\nlib\r\n");
  ASSERT_EQ(h.Run({"FUNCTION", "LOAD",
                   "#!lua name=other\nredis.register_function('h', "
                   "function() return 'other h' end)"}),
            "$5\r\nother\r\n");
  const std::string both = Dump();
  ASSERT_EQ(h.Run({"FUNCTION", "DELETE", "other"}), "+OK\r\n");
  // `lib` collides: APPEND restores nothing, not even `other`.
  EXPECT_EQ(h.Run({"FUNCTION", "RESTORE", both}), "-ERR Library lib already exists\r\n");
  EXPECT_EQ(h.Run({"FCALL", "h", "0"}), "-ERR Function not found\r\n");
  // REPLACE with a payload whose library takes another's function name: nothing changes.
  ASSERT_EQ(h.Run({"FUNCTION", "LOAD", "REPLACE",
                   "#!lua name=other\nredis.register_function('h', function() return 'other h' "
                   "end)"}),
            "$5\r\nother\r\n");
  ASSERT_EQ(h.Run({"FUNCTION", "FLUSH"}), "+OK\r\n");
  ASSERT_EQ(h.Run({"FUNCTION", "LOAD",
                   "#!lua name=lib\nredis.register_function('h', function() return 'lib h' end)"}),
            "$3\r\nlib\r\n");
  const std::string lib_with_h = Dump();
  ASSERT_EQ(h.Run({"FUNCTION", "RESTORE", both, "FLUSH"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"FUNCTION", "RESTORE", lib_with_h, "REPLACE"}),
            "-ERR Function h already exists\r\n");
  EXPECT_EQ(h.Run({"FCALL", "f", "0"}), "$5\r\nlib f\r\n");
  EXPECT_EQ(h.Run({"FCALL", "h", "0"}), "$7\r\nother h\r\n");
  // Without `other`, REPLACE swaps lib for its version with h: f and g go.
  ASSERT_EQ(h.Run({"FUNCTION", "DELETE", "other"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"FUNCTION", "RESTORE", lib_with_h, "REPLACE"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"FCALL", "h", "0"}), "$5\r\nlib h\r\n");
  EXPECT_EQ(h.Run({"FCALL", "f", "0"}), "-ERR Function not found\r\n");
  // FLUSH: only the payload's libraries remain.
  EXPECT_EQ(h.Run({"FUNCTION", "RESTORE", both, "flush"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"FCALL", "g", "0"}), "$5\r\nlib g\r\n");
  EXPECT_EQ(h.Run({"FCALL", "h", "0"}), "$7\r\nother h\r\n");
  EXPECT_EQ(Dump().size(), both.size());
}

}  // namespace
}  // namespace kv::test
