#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {

enum class ProtocolError {
  kNone,
  kInvalidMultibulkLength,
  kInvalidBulkLength,
  kExpectedDollar,
  kTooBigInline,
  kTooBigMbulkCount,
  kTooBigBulkCount,
  kUnbalancedQuotes,
  kUnauthenticatedMultibulkLength,
  kUnauthenticatedBulkLength,
};

struct ParserLimits {
  int64_t max_bulk_len = 512LL * 1024 * 1024;  // proto-max-bulk-len
  size_t max_inline_len = 64 * 1024;           // PROTO_INLINE_MAX_SIZE
  // Redis's tighter limits while a password is required and the client has not authenticated.
  bool unauthenticated = false;
  int64_t unauthenticated_max_args = 10;
  int64_t unauthenticated_max_bulk_len = 16384;
};

// An incremental parser of client requests: RESP multibulk ("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n")
// and inline ("GET k\r\n") commands, exactly as Redis's processMultibulkBuffer and
// processInlineBuffer accept them.
//
// Parse() is handed the unconsumed input, which always begins at the current command. When the
// command is incomplete it remembers how far it got (positions relative to the command start,
// so the caller may move the bytes) and continues from there on the next call: a large bulk that
// arrives in pieces is never rescanned. Nothing is allocated for a length a peer announces.
class RespParser {
 public:
  enum class Status { kCommand, kNeedMore, kError };

  explicit RespParser(const ParserLimits* limits) : limits_(limits) {}

  // Parses at most one command from the front of `input`. `*consumed` is set to the number of
  // bytes the caller must drop from the front: the command on kCommand, skipped empty commands
  // on kNeedMore, and 0 on kError.
  // On kCommand, args() stays valid until the next call or until the input bytes change.
  Status Parse(std::string_view input, size_t* consumed);

  const std::vector<std::string_view>& args() const { return args_; }
  ProtocolError error() const { return error_; }
  // The reply Redis sends for the error, without the leading '-' and the trailing CRLF.
  std::string ErrorMessage() const;
  // Changes the limits; only between commands (after kCommand, or before the first Parse).
  void set_limits(const ParserLimits* limits) { limits_ = limits; }
  // Forgets any partly parsed command.
  void Reset();

 private:
  Status ParseMultibulk(std::string_view input, size_t* consumed);
  // The usual case, a whole multibulk command of plain lengths, read in one pass straight into
  // args_. False for anything else (incomplete, an error, unusual digits, pre-auth limits): the
  // general path then reads the same bytes, with Redis's exact results.
  bool ParseWhole(std::string_view input, size_t* consumed);
  Status ParseInline(std::string_view input, size_t* consumed);
  Status Fail(ProtocolError e) {
    error_ = e;
    return Status::kError;
  }

  // Redis preallocates room for at most this many arguments; vectors that grew beyond it for one
  // command are freed before the next.
  static constexpr size_t kKeptArgCapacity = 1024;

  const ParserLimits* limits_;
  bool in_multibulk_ = false;
  size_t pos_ = 0;             // scan position relative to the command start
  int64_t args_left_ = 0;      // bulk arguments still expected
  int64_t bulk_len_ = -1;      // length of the bulk being read, -1 while its '$' line is awaited
  size_t inline_scanned_ = 0;  // bytes of an inline line already searched for '\n'
  std::vector<std::pair<size_t, size_t>> arg_bounds_;
  std::vector<std::string_view> args_;
  std::string inline_storage_;
  ProtocolError error_ = ProtocolError::kNone;
  char unexpected_ = 0;
};

}  // namespace kv
