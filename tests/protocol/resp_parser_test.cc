// Tests of the incremental request parser against Redis 7.0.15's processMultibulkBuffer and
// processInlineBuffer (src/networking.c) and tests/unit/protocol.tcl. Expected error strings and
// the behaviour around NUL bytes were checked against a real redis-server 7.0.15.

#include "protocol/resp_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/io_buffer.h"

// The largest single allocation made through operator new while tracking is on: lets a test see
// that the parser does not reserve memory for a length a peer merely announces.
namespace {
std::atomic<bool> g_track_allocations{false};
std::atomic<size_t> g_largest_allocation{0};
}  // namespace

void* operator new(size_t n) {
  if (g_track_allocations.load(std::memory_order_relaxed)) {
    size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
    while (n > seen && !g_largest_allocation.compare_exchange_weak(seen, n)) {
    }
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
// Not inlined, so that GCC does not pair the free() below with the inlined operator new and
// warn about a mismatch.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace kv {
namespace {

using Args = std::vector<std::string>;

class AllocationWatch {
 public:
  AllocationWatch() {
    g_largest_allocation.store(0);
    g_track_allocations.store(true);
  }
  ~AllocationWatch() { g_track_allocations.store(false); }
  size_t largest() const { return g_largest_allocation.load(); }
};

// What a connection sees after feeding some input: the commands parsed, the protocol error if
// one occurred, and how many bytes are left waiting in the input buffer.
struct Outcome {
  std::vector<Args> commands;
  std::optional<std::string> error;
  size_t pending = 0;

  bool operator==(const Outcome&) const = default;
};

std::string Describe(const Outcome& o) {
  std::string s = "commands:";
  for (const Args& a : o.commands) {
    s += " [";
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) s += ' ';
      s += a[i].size() > 40 ? "<" + std::to_string(a[i].size()) + " bytes>" : a[i];
    }
    s += ']';
  }
  s += o.error ? " error: " + *o.error : " no error";
  s += " pending: " + std::to_string(o.pending);
  return s;
}

// So that gtest prints an Outcome readably instead of as raw bytes.
void PrintTo(const Outcome& o, std::ostream* os) { *os << Describe(o); }

// Drives a parser the way the server does: appends pieces to an IoBuffer (which moves bytes
// around as it compacts and grows), parses every complete command, drops what was consumed.
class Feeder {
 public:
  explicit Feeder(ParserLimits limits = {}) : limits_(limits), parser_(&limits_) {}

  // Returns false once a protocol error has occurred.
  bool Feed(std::string_view piece) {
    if (outcome_.error) return false;
    in_.Append(piece);
    while (!in_.empty()) {
      size_t consumed = 12345;
      const RespParser::Status st = parser_.Parse(in_.view(), &consumed);
      if (st == RespParser::Status::kError) {
        EXPECT_EQ(consumed, 0u);
        outcome_.error = parser_.ErrorMessage();
        break;
      }
      EXPECT_LE(consumed, in_.size());
      if (st == RespParser::Status::kNeedMore) {
        in_.Consume(consumed);
        break;
      }
      EXPECT_GT(consumed, 0u);
      Args args;
      for (std::string_view a : parser_.args()) args.emplace_back(a);
      EXPECT_FALSE(args.empty()) << "empty commands must be skipped";
      outcome_.commands.push_back(std::move(args));
      in_.Consume(consumed);
    }
    outcome_.pending = outcome_.error ? 0 : in_.size();
    return !outcome_.error;
  }

  const Outcome& outcome() const { return outcome_; }
  RespParser& parser() { return parser_; }
  IoBuffer& buffer() { return in_; }

 private:
  ParserLimits limits_;
  RespParser parser_;
  IoBuffer in_;
  Outcome outcome_;
};

Outcome FeedPieces(std::string_view input, const std::vector<size_t>& sizes,
                   const ParserLimits& limits = {}) {
  Feeder f(limits);
  size_t off = 0;
  for (size_t n : sizes) {
    if (!f.Feed(input.substr(off, n))) break;
    off += n;
  }
  if (off < input.size()) f.Feed(input.substr(off));
  return f.outcome();
}

Outcome FeedWhole(std::string_view input, const ParserLimits& limits = {}) {
  return FeedPieces(input, {input.size()}, limits);
}

Outcome FeedByteByByte(std::string_view input, const ParserLimits& limits = {}) {
  return FeedPieces(input, std::vector<size_t>(input.size(), 1), limits);
}

std::vector<size_t> RandomSizes(size_t total, uint32_t seed) {
  std::mt19937 rng(seed);
  // Each seed favours a different typical piece size, from single bytes to large chunks.
  const size_t scales[] = {2, 5, 16, 64, 1024, total + 1};
  const size_t scale = scales[rng() % std::size(scales)];
  std::vector<size_t> sizes;
  for (size_t done = 0; done < total;) {
    const size_t n = std::min<size_t>(total - done, 1 + rng() % std::max<size_t>(scale, 1));
    sizes.push_back(n);
    done += n;
  }
  return sizes;
}

// The outcome must not depend on how the input is cut into reads.
void ExpectForAllSplits(std::string_view input, const Outcome& expected, int seeds = 60,
                        const ParserLimits& limits = {}) {
  Outcome whole = FeedWhole(input, limits);
  EXPECT_EQ(whole, expected) << "whole input\n  got:  " << Describe(whole)
                             << "\n  want: " << Describe(expected);
  Outcome bytes = FeedByteByByte(input, limits);
  EXPECT_EQ(bytes, expected) << "byte by byte\n  got:  " << Describe(bytes)
                             << "\n  want: " << Describe(expected);
  for (int seed = 0; seed < seeds; ++seed) {
    Outcome r = FeedPieces(input, RandomSizes(input.size(), seed), limits);
    ASSERT_EQ(r, expected) << "random split, seed " << seed << "\n  got:  " << Describe(r)
                           << "\n  want: " << Describe(expected);
  }
}

Outcome Commands(std::vector<Args> commands, size_t pending = 0) {
  return Outcome{std::move(commands), std::nullopt, pending};
}

Outcome Error(std::string message, std::vector<Args> before = {}) {
  return Outcome{std::move(before), std::move(message), 0};
}

std::string Multibulk(const Args& args) {
  std::string s = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) s += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  return s;
}

constexpr const char* kInvalidMultibulk = "ERR Protocol error: invalid multibulk length";
constexpr const char* kInvalidBulk = "ERR Protocol error: invalid bulk length";
constexpr const char* kTooBigInline = "ERR Protocol error: too big inline request";
constexpr const char* kTooBigMbulk = "ERR Protocol error: too big mbulk count string";
constexpr const char* kTooBigBulk = "ERR Protocol error: too big bulk count string";
constexpr const char* kUnbalanced = "ERR Protocol error: unbalanced quotes in request";

// ---------------------------------------------------------------------------------------------
// Well-formed requests.

TEST(RespParserTest, MultibulkCommand) {
  ExpectForAllSplits("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", Commands({{"GET", "k"}}));
  ExpectForAllSplits("*1\r\n$4\r\nPING\r\n", Commands({{"PING"}}));
  ExpectForAllSplits("*3\r\n$3\r\nSET\r\n$0\r\n\r\n$0\r\n\r\n", Commands({{"SET", "", ""}}));
}

TEST(RespParserTest, InlineCommand) {
  ExpectForAllSplits("GET k\r\n", Commands({{"GET", "k"}}));
  ExpectForAllSplits("GET k\n", Commands({{"GET", "k"}}));
  ExpectForAllSplits("  SET   a \t b  \r\n", Commands({{"SET", "a", "b"}}));
  // A lone CR is not a line end: it separates words inside the line.
  ExpectForAllSplits("PING\rPING\r\n", Commands({{"PING", "PING"}}));
  // A quoted empty word is an argument, unlike a blank line.
  ExpectForAllSplits("\"\"\r\n", Commands({{""}}));
  // Only the CR right before the LF is dropped.
  ExpectForAllSplits("ECHO \"a\r\"\r\n", Commands({{"ECHO", "a\r"}}));
}

TEST(RespParserTest, ConsumedCoversExactlyOneCommand) {
  ParserLimits limits;
  RespParser p(&limits);
  const std::string one = "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
  const std::string input = one + "PING\r\n" + "*1\r\n$4\r\nPI";
  size_t consumed = 0;
  ASSERT_EQ(p.Parse(input, &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(consumed, one.size());
  ASSERT_EQ(p.args().size(), 2u);
  // The arguments are views into the input.
  EXPECT_EQ(p.args()[0].data(), input.data() + 8);
  std::string_view rest = std::string_view(input).substr(consumed);
  ASSERT_EQ(p.Parse(rest, &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(consumed, 6u);
  EXPECT_EQ(p.args(), (std::vector<std::string_view>{"PING"}));
  rest = rest.substr(consumed);
  ASSERT_EQ(p.Parse(rest, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
}

TEST(RespParserTest, NeedMoreOnEmptyInput) {
  ParserLimits limits;
  RespParser p(&limits);
  size_t consumed = 99;
  EXPECT_EQ(p.Parse("", &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
}

TEST(RespParserTest, PipelineOfManyCommands) {
  std::mt19937 rng(7);
  std::string input;
  std::vector<Args> expected;
  for (int i = 0; i < 300; ++i) {
    const std::string key = "key:" + std::to_string(i);
    std::string value(rng() % 50, 'v');
    for (char& c : value) c = static_cast<char>(rng());
    switch (i % 4) {
      case 0:
        input += Multibulk({"SET", key, value});
        expected.push_back({"SET", key, value});
        break;
      case 1:
        input += "\r\n\nGET " + key + "\r\n";
        expected.push_back({"GET", key});
        break;
      case 2:
        input += "*0\r\n\r\n";  // empty commands in between are skipped
        input += Multibulk({"DEL", key});
        expected.push_back({"DEL", key});
        break;
      default:
        input += "INCR \"" + key + "\"\n";
        expected.push_back({"INCR", key});
        break;
    }
  }
  ExpectForAllSplits(input, Commands(expected), 100);
}

TEST(RespParserTest, BinarySafeBulks) {
  std::string all_bytes;
  for (int c = 0; c < 256; ++c) all_bytes += static_cast<char>(c);
  const Args args = {"SET",    std::string("a\0b", 3), "x\r\ny",
                     "\r\n",   std::string(1, '\0'),   "*1\r\n$4\r\nPING\r\n",
                     all_bytes};
  ExpectForAllSplits(Multibulk(args) + Multibulk({"GET", std::string("\0\0", 2)}),
                     Commands({args, {"GET", std::string("\0\0", 2)}}));
}

TEST(RespParserTest, LargeNumberOfArgs) {
  // protocol.tcl "test large number of args": MSET with 20002 arguments.
  Args args = {"MSET"};
  for (int i = 0; i < 10000; ++i) {
    args.push_back("k");
    args.push_back("v");
  }
  args.push_back("{k}2");
  args.push_back("v2");
  ExpectForAllSplits(Multibulk(args), Commands({args}), 5);
}

// Whole commands at the edges of the one-pass path (ParseWhole): what it declines (a count of 7
// digits, a length of 11, pre-auth limits) the general path reads, with the same result.
TEST(RespParserTest, OnePassPathEdges) {
  ExpectForAllSplits(Multibulk({""}) + Multibulk({"GET", ""}), Commands({{""}, {"GET", ""}}), 5);
  Args many(1'000'000, "k");
  many[0] = "DEL";
  EXPECT_EQ(FeedWhole(Multibulk(many)), Commands({many}));
  many.resize(999'999);
  EXPECT_EQ(FeedWhole(Multibulk(many)), Commands({many}));
  ParserLimits limits;
  limits.max_bulk_len = 99'999'999'999;
  EXPECT_EQ(FeedWhole("*1\r\n$10000000000\r\n", limits), Commands({}, 18));
  EXPECT_EQ(FeedWhole("*1\r\n$9999999999\r\n", limits), Commands({}, 17));
  limits.unauthenticated = true;
  EXPECT_EQ(FeedWhole(Multibulk({"AUTH", "pw"}), limits), Commands({{"AUTH", "pw"}}));
  EXPECT_EQ(FeedWhole(Multibulk({"x", "y"}) + "*11\r\n", limits),
            Error("ERR Protocol error: unauthenticated multibulk length", {{"x", "y"}}));
}

TEST(RespParserTest, EmptyCommandsAreSkipped) {
  // protocol.tcl: "Handle an empty query", "Negative multibulk length".
  ExpectForAllSplits("\r\nPING\r\n", Commands({{"PING"}}));
  ExpectForAllSplits("*-10\r\nPING\r\n", Commands({{"PING"}}));
  ExpectForAllSplits("\n\r\n   \r\n \t \n*0\r\n*-1\r\n*-10\r\n*-2147483648\r\nPING\r\n",
                     Commands({{"PING"}}));
  ExpectForAllSplits("*1\r\n$4\r\nPING\r\n\r\n\r\nPING\r\n", Commands({{"PING"}, {"PING"}}));
  ExpectForAllSplits("\r\n*0\r\n", Commands({}));
}

TEST(RespParserTest, SkippedEmptyCommandsAreReportedAsConsumed) {
  ParserLimits limits;
  RespParser p(&limits);
  size_t consumed = 0;
  EXPECT_EQ(p.Parse("\r\n", &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 2u);
  EXPECT_EQ(p.Parse("*0\r\n\n*-10\r\n", &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 11u);
  // Skipped commands before an incomplete one are consumed; the incomplete one is not.
  EXPECT_EQ(p.Parse("\r\n*1\r\n$4\r\nPI", &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 2u);
  EXPECT_EQ(p.Parse("*1\r\n$4\r\nPING\r\n", &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(consumed, 14u);
  EXPECT_EQ(p.args(), (std::vector<std::string_view>{"PING"}));
}

TEST(RespParserTest, TwoBytesAfterABulkAreNotChecked) {
  // Redis skips the two bytes after a bulk payload without looking at them.
  ExpectForAllSplits("*1\r\n$4\r\nPINGxy*1\r\n$4\r\nPING\r\n", Commands({{"PING"}, {"PING"}}));
}

TEST(RespParserTest, CountLineNeedsOneByteAfterTheCarriageReturn) {
  // Redis finds the count line by its '\r' and skips the next byte, whatever it is.
  ExpectForAllSplits("*1\rX$4\r\nPING\r\n", Commands({{"PING"}}));
  ExpectForAllSplits("*1\r\n$4\rXPING\r\n", Commands({{"PING"}}));
  ExpectForAllSplits("*1\r", Commands({}, 3));
  ExpectForAllSplits("*1\r\n$4\r", Commands({}, 7));
}

TEST(RespParserTest, IncompleteCommandsWait) {
  const std::string full = Multibulk({"SET", "key", "value"});
  for (size_t n = 0; n < full.size(); ++n) {
    EXPECT_EQ(FeedWhole(full.substr(0, n)), Commands({}, n)) << n;
  }
  EXPECT_EQ(FeedWhole("GET k"), Commands({}, 5));
  EXPECT_EQ(FeedWhole("GET k\r"), Commands({}, 6));
}

TEST(RespParserTest, InlineQuoting) {
  ExpectForAllSplits("SET \"a b\" 'c d'\r\n", Commands({{"SET", "a b", "c d"}}));
  ExpectForAllSplits("ECHO \"\\n\\r\\t\\b\\a\\\\\\\"\\q\"\r\n",
                     Commands({{"ECHO", "\n\r\t\b\a\\\"q"}}));
  ExpectForAllSplits("ECHO \"\\x41\\x4a\\xff\\x00z\"\r\n",
                     Commands({{"ECHO", std::string("AJ\xff\0z", 5)}}));
  ExpectForAllSplits("ECHO \"a\\x4g\"\r\n", Commands({{"ECHO", "ax4g"}}));
  ExpectForAllSplits("ECHO 'it\\'s' 'a\\nb'\r\n", Commands({{"ECHO", "it's", "a\\nb"}}));
  ExpectForAllSplits("ECHO \"\" ''\r\n", Commands({{"ECHO", "", ""}}));
  ExpectForAllSplits("ECHO a\"b c\"\r\n", Commands({{"ECHO", "ab c"}}));
}

TEST(RespParserTest, InlineWordsStayValidWhenStorageGrows) {
  std::string line = "MSET";
  Args expected = {"MSET"};
  for (int i = 0; i < 3000; ++i) {
    const std::string w = "\"word number " + std::to_string(i) + "\"";
    line += " " + w;
    expected.push_back("word number " + std::to_string(i));
  }
  ExpectForAllSplits(line + "\r\n", Commands({expected}), 5);
}

// ---------------------------------------------------------------------------------------------
// Protocol errors, each with Redis's exact message.

TEST(RespParserTest, UnbalancedQuotes) {
  // protocol.tcl "Unbalanced number of quotes".
  ExpectForAllSplits("set \"\"\"test-key\"\"\" test-value\r\nping\r\n", Error(kUnbalanced));
  ExpectForAllSplits("ECHO \"a\"b\r\n", Error(kUnbalanced));
  ExpectForAllSplits("ECHO 'a'b\r\n", Error(kUnbalanced));
  ExpectForAllSplits("ECHO \"abc\r\n", Error(kUnbalanced));
  ExpectForAllSplits("ECHO 'abc\r\n", Error(kUnbalanced));
  ExpectForAllSplits("ECHO \"a\\\r\n", Error(kUnbalanced));
  ExpectForAllSplits("PING\r\nECHO \"x\r\nPING\r\n", Error(kUnbalanced, {{"PING"}}));
}

TEST(RespParserTest, InvalidMultibulkLength) {
  // protocol.tcl "Out of range multibulk length".
  for (const char* line :
       {"*3000000000", "*abc", "*-", "*+1", "*01", "*00", "*", "*-0", "*2147483648", "* 1", "*1 ",
        "*1\n", "*9223372036854775808", "*-9223372036854775809", "*123456789012345678901"}) {
    SCOPED_TRACE(line);
    ExpectForAllSplits(std::string(line) + "\r\n", Error(kInvalidMultibulk), 20);
  }
  // The count line ends at the first '\r', so an LF before it is part of the number.
  ExpectForAllSplits("*1\n\r\n$4\r\nPING\r\n", Error(kInvalidMultibulk));
  ExpectForAllSplits("PING\r\n*x\r\nPING\r\n", Error(kInvalidMultibulk, {{"PING"}}));
}

TEST(RespParserTest, LargestMultibulkCountIsAccepted) {
  // INT_MAX itself is a valid count: the parser waits for the arguments.
  EXPECT_EQ(FeedWhole("*2147483647\r\n"), Commands({}, 13));
}

TEST(RespParserTest, ExpectedDollar) {
  // protocol.tcl "Wrong multibulk payload header" and "Multi bulk request not followed by bulk
  // arguments".
  ExpectForAllSplits("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n",
                     Error("ERR Protocol error: expected '$', got 'f'"));
  ExpectForAllSplits("*1\r\nfoo\r\n", Error("ERR Protocol error: expected '$', got 'f'"));
  ExpectForAllSplits("*2\r\n$1\r\na\r\n*1\r\n", Error("ERR Protocol error: expected '$', got '*'"));
  // A CR or LF is written as a space so the error stays on one line (as real Redis replies).
  ExpectForAllSplits("*1\r\n\r\n", Error("ERR Protocol error: expected '$', got ' '"));
  ExpectForAllSplits("*1\r\n\nfoo\r\n", Error("ERR Protocol error: expected '$', got ' '"));
  // The line's first byte is its '\r' (resp_parser_fuzz found 0cff978 looking past it for a later
  // one, and waiting for more input when whole).
  ExpectForAllSplits("$\n*1\r\n\r3\r", Error("ERR Protocol error: expected '$', got ' '", {{"$"}}));
  ExpectForAllSplits("*1\r\n\r3\r\n", Error("ERR Protocol error: expected '$', got ' '"));
}

TEST(RespParserTest, InvalidBulkLength) {
  // protocol.tcl "Negative multibulk payload length", "Out of range multibulk payload length",
  // "Non-number multibulk payload length".
  for (const char* line : {"$-10", "$2000000000", "$blabla", "$", "$-0", "$-1", "$01", "$+1",
                           "$536870913", "$9223372036854775808", "$ 1", "$1 "}) {
    SCOPED_TRACE(line);
    ExpectForAllSplits("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n" + std::string(line) + "\r\n",
                       Error(kInvalidBulk), 20);
  }
}

TEST(RespParserTest, BulkLengthLimitIsConfigurable) {
  EXPECT_EQ(FeedWhole("*1\r\n$536870912\r\n"), Commands({}, 16));  // the default limit itself
  ParserLimits limits;
  limits.max_bulk_len = 10;
  EXPECT_EQ(FeedWhole("*1\r\n$10\r\n0123456789\r\n", limits), Commands({{"0123456789"}}));
  EXPECT_EQ(FeedWhole("*1\r\n$11\r\n", limits), Error(kInvalidBulk));
}

TEST(RespParserTest, TooBigInlineRequest) {
  const std::string line(64 * 1024, 'a');
  // Exactly PROTO_INLINE_MAX_SIZE bytes without a newline still wait; one more is an error.
  EXPECT_EQ(FeedWhole(line), Commands({}, line.size()));
  EXPECT_EQ(FeedWhole(line + "a"), Error(kTooBigInline));
  EXPECT_EQ(FeedPieces(line + "aaaa", {1000, 60000, 4536, 1, 1, 1, 1}), Error(kTooBigInline));
  // The limit counts from the start of the current command.
  EXPECT_EQ(FeedWhole("PING\r\n" + line), Commands({{"PING"}}, line.size()));
  // A line within the limit is fine.
  EXPECT_EQ(FeedPieces("ECHO " + std::string(60000, 'x') + "\r\n", RandomSizes(60007, 3)),
            Commands({{"ECHO", std::string(60000, 'x')}}));
}

TEST(RespParserTest, TooBigMbulkCountString) {
  const std::string line = "*" + std::string(64 * 1024 - 1, '1');
  EXPECT_EQ(FeedWhole(line), Commands({}, line.size()));
  EXPECT_EQ(FeedWhole(line + "1"), Error(kTooBigMbulk));
  EXPECT_EQ(FeedPieces(line + "11", {100, 70000}), Error(kTooBigMbulk));
}

TEST(RespParserTest, TooBigBulkCountString) {
  const std::string head = "*2\r\n$1\r\na\r\n";
  const std::string line = "$" + std::string(64 * 1024 - 1, '1');
  EXPECT_EQ(FeedWhole(head + line), Commands({}, head.size() + line.size()));
  EXPECT_EQ(FeedWhole(head + line + "1"), Error(kTooBigBulk));
  EXPECT_EQ(FeedPieces(head + line + "11", {3, 10000, 100000}), Error(kTooBigBulk));
}

TEST(RespParserTest, SizeLimitsApplyOnlyWhileNoCarriageReturnIsSeen) {
  // Redis checks the size only when it found no '\r' at all; a '\r' that is the last byte
  // received makes it wait for one more byte, and then the number is parsed (and rejected).
  const std::string count = "*" + std::string(70000, '1') + "\r";
  EXPECT_EQ(FeedWhole(count), Commands({}, count.size()));
  EXPECT_EQ(FeedPieces(count + "\n", {count.size(), 1}), Error(kInvalidMultibulk));
  const std::string bulk = "*1\r\n$" + std::string(70000, '1') + "\r";
  EXPECT_EQ(FeedWhole(bulk), Commands({}, bulk.size()));
  EXPECT_EQ(FeedPieces(bulk + "\n", {bulk.size(), 1}), Error(kInvalidBulk));
}

TEST(RespParserTest, UnauthenticatedLimits) {
  ParserLimits limits;
  limits.unauthenticated = true;
  Args ten(10, "x");
  ExpectForAllSplits(Multibulk(ten), Commands({ten}), 10, limits);
  ExpectForAllSplits("*11\r\n", Error("ERR Protocol error: unauthenticated multibulk length"), 10,
                     limits);
  const Args big = {"AUTH", std::string(16384, 'p')};
  ExpectForAllSplits(Multibulk(big), Commands({big}), 10, limits);
  ExpectForAllSplits("*2\r\n$4\r\nAUTH\r\n$16385\r\n",
                     Error("ERR Protocol error: unauthenticated bulk length"), 10, limits);
  // Malformed lengths are reported as such first; empty commands are still skipped.
  ExpectForAllSplits("*3000000000\r\n", Error(kInvalidMultibulk), 10, limits);
  ExpectForAllSplits("*1\r\n$2000000000\r\n", Error(kInvalidBulk), 10, limits);
  ExpectForAllSplits("*-100\r\nPING\r\n", Commands({{"PING"}}), 10, limits);
  // Inline commands have no such limits.
  ExpectForAllSplits("AUTH " + std::string(20000, 'p') + "\r\n",
                     Commands({{"AUTH", std::string(20000, 'p')}}), 5, limits);
  // Without the flag the same requests are accepted.
  EXPECT_EQ(FeedWhole("*11\r\n"), Commands({}, 5));
  EXPECT_EQ(FeedWhole("*2\r\n$4\r\nAUTH\r\n$16385\r\n"), Commands({}, 22));
}

TEST(RespParserTest, CustomUnauthenticatedLimits) {
  ParserLimits limits;
  limits.unauthenticated = true;
  limits.unauthenticated_max_args = 2;
  limits.unauthenticated_max_bulk_len = 3;
  EXPECT_EQ(FeedWhole("*2\r\n$3\r\nabc\r\n$1\r\nd\r\n", limits), Commands({{"abc", "d"}}));
  EXPECT_EQ(FeedWhole("*3\r\n", limits),
            Error("ERR Protocol error: unauthenticated multibulk length"));
  EXPECT_EQ(FeedWhole("*1\r\n$4\r\n", limits),
            Error("ERR Protocol error: unauthenticated bulk length"));
}

// ---------------------------------------------------------------------------------------------
// NUL bytes. Redis looks for line ends with strchr(), which stops at a NUL: a NUL before the
// line end hides the line end, and the request waits until it is too big. (Checked against
// redis-server 7.0.15: none of these inputs gets a reply.)

TEST(RespParserTest, NulBeforeInlineLineEndHidesIt) {
  EXPECT_EQ(FeedWhole(std::string("\0\r\nPING\r\n", 9)), Commands({}, 9));
  EXPECT_EQ(FeedWhole(std::string("PING\0x\r\nPING\r\n", 14)), Commands({}, 14));
  EXPECT_EQ(FeedByteByByte(std::string("PING\0x\r\nPING\r\n", 14)), Commands({}, 14));
  // The request then grows until it is too big.
  const std::string nul_line = std::string("GET \0", 5) + std::string(64 * 1024, '\n');
  EXPECT_EQ(FeedWhole(nul_line), Error(kTooBigInline));
  // A NUL after the line end belongs to the next request.
  EXPECT_EQ(FeedWhole(std::string("PING\r\n\0", 7)), Commands({{"PING"}}, 1));
}

TEST(RespParserTest, NulBeforeCountLineEndHidesIt) {
  EXPECT_EQ(FeedWhole(std::string("*1\0\r\n$4\r\nPING\r\n", 15)), Commands({}, 15));
  const std::string s = std::string("*1\0\r\n", 5) + std::string(64 * 1024, '\r');
  EXPECT_EQ(FeedWhole(s), Error(kTooBigMbulk));
}

TEST(RespParserTest, NulBeforeBulkLineEndHidesIt) {
  EXPECT_EQ(FeedWhole(std::string("*1\r\n$4\0\r\nPING\r\n", 15)), Commands({}, 15));
  // A NUL where '$' is expected: Redis never sees a line there (so it never reports
  // "expected '$', got '\0'"); it waits until the bulk count string is too big.
  EXPECT_EQ(FeedWhole(std::string("*1\r\n\0\r\n", 7)), Commands({}, 7));
  EXPECT_EQ(FeedByteByByte(std::string("*1\r\n\0\r\n", 7)), Commands({}, 7));
  // Even when digits follow it, as in a length line.
  EXPECT_EQ(FeedWhole(std::string("*1\r\n\0"
                                  "4\r\nPING\r\n",
                                  14)),
            Commands({}, 14));
  const std::string s = std::string("*1\r\n\0\r\n", 7) + std::string(64 * 1024, '\r');
  EXPECT_EQ(FeedWhole(s), Error(kTooBigBulk));
  // NULs inside a bulk payload are ordinary data.
  EXPECT_EQ(FeedWhole(std::string("*1\r\n$3\r\n\0\r\n\r\n", 13)),
            Commands({{std::string("\0\r\n", 3)}}));
}

// protocol.tcl "Protocol desync regression test #1..#3": after these bytes a client keeps
// sending 1 KB lines; the connection must end with a protocol error, not execute them.
TEST(RespParserTest, ProtocolDesyncRegression) {
  const std::string payload = std::string(1024, 'A') + "\n";
  const std::pair<std::string, const char*> cases[] = {
      {std::string(1, '\0'), kTooBigInline},
      {std::string("*\0", 2), kTooBigMbulk},
      {std::string("$\0", 2), kTooBigInline},
  };
  for (const auto& [seq, message] : cases) {
    SCOPED_TRACE(message);
    Feeder f;
    ASSERT_TRUE(f.Feed(seq));
    int sent = 0;
    while (f.Feed(payload) && sent < 1000) ++sent;
    ASSERT_TRUE(f.outcome().error.has_value());
    EXPECT_EQ(*f.outcome().error, message);
    EXPECT_TRUE(f.outcome().commands.empty());
    EXPECT_LE(sent, 65);
  }
  // The test as written in protocol.tcl sends the literal word "payload" instead of $payload.
  for (const auto& [seq, message] : cases) {
    SCOPED_TRACE(message);
    Feeder f;
    ASSERT_TRUE(f.Feed(seq));
    int sent = 0;
    while (f.Feed("payload") && sent < 100000) ++sent;
    ASSERT_TRUE(f.outcome().error.has_value());
    EXPECT_EQ(*f.outcome().error, message);
    EXPECT_TRUE(f.outcome().commands.empty());
  }
}

// ---------------------------------------------------------------------------------------------
// Memory and resumption.

TEST(RespParserTest, HugeClaimedCountReservesNothingBig) {
  ParserLimits limits;
  RespParser p(&limits);
  std::string input = "*2147483647\r\n";
  std::string more = input;
  for (int i = 0; i < 1000; ++i) more += "$1\r\nx\r\n";
  size_t consumed = 0;
  AllocationWatch watch;
  EXPECT_EQ(p.Parse(input, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
  // More arguments arrive: still waiting, and nothing allocated in proportion to the claimed
  // count (Redis itself preallocates at most 1024 argument slots).
  EXPECT_EQ(p.Parse(more, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
  EXPECT_LT(watch.largest(), 64u * 1024);
}

TEST(RespParserTest, HugeClaimedBulkReservesNothingBig) {
  ParserLimits limits;
  RespParser p(&limits);
  const std::string input = "*1\r\n$536870912\r\n";
  const std::string more = input + std::string(1 << 20, 'x');
  size_t consumed = 0;
  AllocationWatch watch;
  EXPECT_EQ(p.Parse(input, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(p.Parse(more, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
  EXPECT_LT(watch.largest(), 64u * 1024);
}

TEST(RespParserTest, BulkLongerThanAnyMemoryIsOnlyAWait) {
  // With a raised limit a claimed terabyte is accepted as a length, and costs nothing.
  ParserLimits limits;
  limits.max_bulk_len = int64_t{1} << 40;
  RespParser p(&limits);
  const std::string input = "*2\r\n$1099511627776\r\n";
  const std::string more = input + std::string(100000, 'y');
  size_t consumed = 0;
  AllocationWatch watch;
  EXPECT_EQ(p.Parse(input, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(p.Parse(more, &consumed), RespParser::Status::kNeedMore);
  EXPECT_EQ(consumed, 0u);
  EXPECT_LT(watch.largest(), 64u * 1024);
}

TEST(RespParserTest, LargeBulkArrivingInPiecesCompletes) {
  const size_t kSize = 10 * 1024 * 1024;
  std::string value(kSize, 'v');
  for (size_t i = 0; i < kSize; i += 4093) value[i] = static_cast<char>(i);
  const std::string input = Multibulk({"SET", "big", value}) + "PING\r\n";
  Feeder f;
  size_t calls = 0;
  for (size_t off = 0; off < input.size(); off += 1024) {
    ASSERT_TRUE(f.Feed(std::string_view(input).substr(off, 1024)));
    ++calls;
  }
  ASSERT_EQ(f.outcome().commands.size(), 2u);
  EXPECT_EQ(f.outcome().commands[0][0], "SET");
  EXPECT_EQ(f.outcome().commands[0][1], "big");
  EXPECT_TRUE(f.outcome().commands[0][2] == value);
  EXPECT_EQ(f.outcome().commands[1], Args{"PING"});
  EXPECT_GT(calls, 10000u);
}

TEST(RespParserTest, ResumesFromWhereItStoppedWithoutRescanning) {
  // The parser keeps its position in the command between calls. Overwriting the framing bytes it
  // has already read does not disturb it: a parser that started over would now see an inline
  // command ("XX...") instead.
  ParserLimits limits;
  RespParser p(&limits);
  std::string input = "*2\r\n$3\r\nSET\r\n$100000\r\n";
  size_t consumed = 0;
  ASSERT_EQ(p.Parse(input, &consumed), RespParser::Status::kNeedMore);
  input[0] = 'X';
  input[1] = 'X';
  input[4] = 'X';
  for (int i = 0; i < 100; ++i) {
    input += std::string(1000, 'z');
    ASSERT_EQ(p.Parse(input, &consumed), RespParser::Status::kNeedMore);
    ASSERT_EQ(consumed, 0u);
  }
  input += "\r\n";
  ASSERT_EQ(p.Parse(input, &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(consumed, input.size());
  ASSERT_EQ(p.args().size(), 2u);
  EXPECT_EQ(p.args()[0], "SET");
  EXPECT_EQ(p.args()[1], std::string(100000, 'z'));
}

TEST(RespParserTest, ResumesAfterTheCallerMovesTheBytes) {
  ParserLimits limits;
  RespParser p(&limits);
  const std::string full = Multibulk({"SET", "k", std::string(5000, 'q')});
  size_t consumed = 0;
  std::string first = full.substr(0, 2000);
  ASSERT_EQ(p.Parse(first, &consumed), RespParser::Status::kNeedMore);
  // A fresh copy somewhere else in memory, as after a buffer reallocation.
  std::string moved = full;
  ASSERT_EQ(p.Parse(moved, &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(consumed, full.size());
  EXPECT_EQ(p.args()[2].data(), moved.data() + full.size() - 5002);
}

TEST(RespParserTest, ResetForgetsAPartialCommand) {
  ParserLimits limits;
  RespParser p(&limits);
  size_t consumed = 0;
  ASSERT_EQ(p.Parse("*3\r\n$3\r\nSET\r\n$1\r\n", &consumed), RespParser::Status::kNeedMore);
  p.Reset();
  ASSERT_EQ(p.Parse("PING\r\n", &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(p.args(), (std::vector<std::string_view>{"PING"}));
  ASSERT_EQ(p.Parse("GET k", &consumed), RespParser::Status::kNeedMore);
  p.Reset();
  ASSERT_EQ(p.Parse("*1\r\n$4\r\nPING\r\n", &consumed), RespParser::Status::kCommand);
  EXPECT_EQ(p.args(), (std::vector<std::string_view>{"PING"}));
  ASSERT_EQ(p.Parse("*abc\r\n", &consumed), RespParser::Status::kError);
  EXPECT_EQ(p.error(), ProtocolError::kInvalidMultibulkLength);
  p.Reset();
  EXPECT_EQ(p.error(), ProtocolError::kNone);
  EXPECT_EQ(p.ErrorMessage(), "");
  ASSERT_EQ(p.Parse("PING\r\n", &consumed), RespParser::Status::kCommand);
}

TEST(RespParserTest, ErrorCodes) {
  const std::pair<std::string, ProtocolError> cases[] = {
      {"*x\r\n", ProtocolError::kInvalidMultibulkLength},
      {"*1\r\n$x\r\n", ProtocolError::kInvalidBulkLength},
      {"*1\r\nx\r\n", ProtocolError::kExpectedDollar},
      {std::string(70000, 'a'), ProtocolError::kTooBigInline},
      {"*" + std::string(70000, '1'), ProtocolError::kTooBigMbulkCount},
      {"*1\r\n$" + std::string(70000, '1'), ProtocolError::kTooBigBulkCount},
      {"\"\r\n", ProtocolError::kUnbalancedQuotes},
  };
  for (const auto& [input, code] : cases) {
    ParserLimits limits;
    RespParser p(&limits);
    size_t consumed = 7;
    EXPECT_EQ(p.Parse(input, &consumed), RespParser::Status::kError);
    EXPECT_EQ(consumed, 0u);
    EXPECT_EQ(p.error(), code);
  }
  ParserLimits limits;
  limits.unauthenticated = true;
  RespParser p(&limits);
  size_t consumed = 0;
  EXPECT_EQ(p.Parse("*100\r\n", &consumed), RespParser::Status::kError);
  EXPECT_EQ(p.error(), ProtocolError::kUnauthenticatedMultibulkLength);
  p.Reset();
  EXPECT_EQ(p.Parse("*1\r\n$100000\r\n", &consumed), RespParser::Status::kError);
  EXPECT_EQ(p.error(), ProtocolError::kUnauthenticatedBulkLength);
}

}  // namespace
}  // namespace kv
