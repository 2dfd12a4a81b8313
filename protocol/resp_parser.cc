#include "protocol/resp_parser.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "protocol/inline_splitter.h"
#include "protocol/number.h"

namespace kv {
namespace {

// Redis's strchr(): the first `c` in `s`, or nullptr when a NUL byte (or the end) comes first.
const char* FindBeforeNul(const char* s, size_t n, char c) {
  const char* p = static_cast<const char*>(std::memchr(s, c, n));
  return std::memchr(s, '\0', p ? static_cast<size_t>(p - s) : n) ? nullptr : p;
}

// The fast path's length: plain digits (no sign, no leading zero, at most kMaxDigits) at `p`,
// up to a '\r' with at least one byte after it. Returns that '\r', or nullptr for anything else.
template <int kMaxDigits>
inline const char* ReadPlainLength(const char* p, const char* end, int64_t* value) {
  const char* digits = p;
  int64_t v = 0;
  while (p < end && static_cast<unsigned>(*p - '0') <= 9) {
    if (p - digits == kMaxDigits) return nullptr;
    v = v * 10 + (*p - '0');
    ++p;
  }
  if (p == digits || end - p < 2 || *p != '\r' || (*digits == '0' && p - digits > 1)) {
    return nullptr;
  }
  *value = v;
  return p;
}

}  // namespace

bool RespParser::ParseWhole(std::string_view in, size_t* consumed) {
  if (limits_->unauthenticated) return false;
  const char* end = in.data() + in.size();
  int64_t count = 0;
  const char* cr = ReadPlainLength<6>(in.data() + 1, end, &count);
  if (cr == nullptr || count == 0) return false;
  const char* p = cr + 2;
  args_.clear();
  for (int64_t i = 0; i < count; ++i) {
    int64_t len = 0;
    if (p == end || *p != '$') return false;
    cr = ReadPlainLength<10>(p + 1, end, &len);
    if (cr == nullptr || len > limits_->max_bulk_len) return false;
    p = cr + 2;
    // Like Redis, the two bytes after the payload are skipped without being checked.
    if (end - p < len + 2) return false;
    args_.emplace_back(p, static_cast<size_t>(len));
    p += len + 2;
  }
  *consumed = static_cast<size_t>(p - in.data());
  return true;
}

void RespParser::Reset() {
  in_multibulk_ = false;
  pos_ = 0;
  args_left_ = 0;
  bulk_len_ = -1;
  inline_scanned_ = 0;
  arg_bounds_.clear();
  error_ = ProtocolError::kNone;
}

RespParser::Status RespParser::Parse(std::string_view input, size_t* consumed) {
  *consumed = 0;
  // The previous command's arguments are no longer needed: after a command of very many
  // arguments, their vectors are given back rather than kept for the connection's lifetime, as
  // Redis frees a client's argv after every command.
  if (!in_multibulk_ &&
      (args_.capacity() > kKeptArgCapacity || arg_bounds_.capacity() > kKeptArgCapacity)) {
    std::vector<std::string_view>().swap(args_);
    std::vector<std::pair<size_t, size_t>>().swap(arg_bounds_);
  }
  while (true) {
    std::string_view rest = input.substr(*consumed);
    if (rest.empty()) return Status::kNeedMore;
    size_t used = 0;
    Status st = (in_multibulk_ || (pos_ == 0 && inline_scanned_ == 0 && rest[0] == '*'))
                    ? ParseMultibulk(rest, &used)
                    : ParseInline(rest, &used);
    if (st == Status::kError) {
      *consumed = 0;
      return st;
    }
    *consumed += used;
    // An empty command (blank inline line, "*0" or a negative count) is skipped silently.
    if (st == Status::kCommand && args_.empty()) continue;
    return st;
  }
}

RespParser::Status RespParser::ParseMultibulk(std::string_view in, size_t* consumed) {
  if (!in_multibulk_ && ParseWhole(in, consumed)) return Status::kCommand;
  if (!in_multibulk_) {
    // The count line. Like Redis, look for '\r' and require one more byte after it; the size
    // limit applies only while no '\r' has been seen at all.
    const char* cr = FindBeforeNul(in.data(), in.size(), '\r');
    if (cr == nullptr) {
      if (in.size() > limits_->max_inline_len) return Fail(ProtocolError::kTooBigMbulkCount);
      return Status::kNeedMore;
    }
    if (static_cast<size_t>(cr - in.data()) + 2 > in.size()) return Status::kNeedMore;
    const size_t line_len = cr - in.data();
    auto count = ParseInt64(in.substr(1, line_len - 1));
    if (!count || *count > INT_MAX) return Fail(ProtocolError::kInvalidMultibulkLength);
    if (limits_->unauthenticated && *count > limits_->unauthenticated_max_args) {
      return Fail(ProtocolError::kUnauthenticatedMultibulkLength);
    }
    pos_ = line_len + 2;
    args_.clear();
    if (*count <= 0) {
      *consumed = pos_;
      pos_ = 0;
      return Status::kCommand;
    }
    in_multibulk_ = true;
    args_left_ = *count;
    bulk_len_ = -1;
    arg_bounds_.clear();
    // Never trust a claimed count for memory: reserve at most what Redis preallocates.
    arg_bounds_.reserve(static_cast<size_t>(std::min<int64_t>(*count, kKeptArgCapacity)));
  }

  while (args_left_ > 0) {
    if (bulk_len_ < 0) {
      if (pos_ >= in.size()) return Status::kNeedMore;
      const char* start = in.data() + pos_;
      const size_t avail = in.size() - pos_;
      const char* cr = FindBeforeNul(start, avail, '\r');
      if (cr == nullptr) {
        if (avail > limits_->max_inline_len) return Fail(ProtocolError::kTooBigBulkCount);
        return Status::kNeedMore;
      }
      if (static_cast<size_t>(cr - start) + 2 > avail) return Status::kNeedMore;
      if (*start != '$') {
        unexpected_ = *start;
        return Fail(ProtocolError::kExpectedDollar);
      }
      const size_t line_len = cr - start;
      auto len = ParseInt64(std::string_view(start + 1, line_len - 1));
      if (!len || *len < 0 || *len > limits_->max_bulk_len) {
        return Fail(ProtocolError::kInvalidBulkLength);
      }
      if (limits_->unauthenticated && *len > limits_->unauthenticated_max_bulk_len) {
        return Fail(ProtocolError::kUnauthenticatedBulkLength);
      }
      bulk_len_ = *len;
      pos_ += line_len + 2;
    }
    // Like Redis, the two bytes after the payload are skipped without being checked.
    const size_t need = static_cast<size_t>(bulk_len_) + 2;
    if (in.size() - pos_ < need) return Status::kNeedMore;
    arg_bounds_.emplace_back(pos_, static_cast<size_t>(bulk_len_));
    pos_ += need;
    bulk_len_ = -1;
    --args_left_;
  }

  args_.clear();
  args_.reserve(arg_bounds_.size());
  for (auto [off, len] : arg_bounds_) args_.emplace_back(in.data() + off, len);
  *consumed = pos_;
  in_multibulk_ = false;
  pos_ = 0;
  return Status::kCommand;
}

RespParser::Status RespParser::ParseInline(std::string_view in, size_t* consumed) {
  const char* scan = in.data() + inline_scanned_;
  const size_t avail = in.size() - inline_scanned_;
  const char* nl = static_cast<const char*>(std::memchr(scan, '\n', avail));
  // Redis finds the newline with strchr: a NUL byte before it hides it, so the request never
  // completes (until it is too big). Scanning stops at the NUL, which is found again next time.
  const char* nul = static_cast<const char*>(std::memchr(scan, '\0', nl ? nl - scan : avail));
  if (nl == nullptr || nul != nullptr) {
    if (in.size() > limits_->max_inline_len) return Fail(ProtocolError::kTooBigInline);
    inline_scanned_ = nul != nullptr ? static_cast<size_t>(nul - in.data()) : in.size();
    return Status::kNeedMore;
  }
  inline_scanned_ = 0;
  size_t line_len = nl - in.data();
  const size_t total = line_len + 1;
  if (line_len > 0 && in[line_len - 1] == '\r') --line_len;
  if (!SplitInlineArgs(in.substr(0, line_len), &inline_storage_, &args_)) {
    return Fail(ProtocolError::kUnbalancedQuotes);
  }
  *consumed = total;
  return Status::kCommand;
}

std::string RespParser::ErrorMessage() const {
  switch (error_) {
    case ProtocolError::kNone:
      return {};
    case ProtocolError::kInvalidMultibulkLength:
      return "ERR Protocol error: invalid multibulk length";
    case ProtocolError::kInvalidBulkLength:
      return "ERR Protocol error: invalid bulk length";
    case ProtocolError::kExpectedDollar: {
      // Redis formats this with %c into a C string: a NUL cuts the message, CR/LF become spaces.
      std::string msg = "ERR Protocol error: expected '$', got '";
      if (unexpected_ == '\0') return msg;
      msg += (unexpected_ == '\r' || unexpected_ == '\n') ? ' ' : unexpected_;
      msg += '\'';
      return msg;
    }
    case ProtocolError::kTooBigInline:
      return "ERR Protocol error: too big inline request";
    case ProtocolError::kTooBigMbulkCount:
      return "ERR Protocol error: too big mbulk count string";
    case ProtocolError::kTooBigBulkCount:
      return "ERR Protocol error: too big bulk count string";
    case ProtocolError::kUnbalancedQuotes:
      return "ERR Protocol error: unbalanced quotes in request";
    case ProtocolError::kUnauthenticatedMultibulkLength:
      return "ERR Protocol error: unauthenticated multibulk length";
    case ProtocolError::kUnauthenticatedBulkLength:
      return "ERR Protocol error: unauthenticated bulk length";
  }
  return {};
}

}  // namespace kv
