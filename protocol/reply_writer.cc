#include "protocol/reply_writer.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "protocol/number.h"

namespace kv {
namespace {

// Writes `prefix`, the decimal `v` and CRLF in one reservation.
inline void AppendPrefixedNumber(IoBuffer* out, char prefix, int64_t v) {
  char* p = out->PrepareWrite(kMaxInt64Chars + 3);
  p[0] = prefix;
  size_t n = 1 + FormatInt64(v, p + 1);
  p[n++] = '\r';
  p[n++] = '\n';
  out->CommitWrite(n);
}

}  // namespace

void ReplyWriter::SimpleString(std::string_view s) {
  char* p = out_->PrepareWrite(s.size() + 3);
  p[0] = '+';
  if (!s.empty()) std::memcpy(p + 1, s.data(), s.size());  // s.data() may be null when empty
  p[s.size() + 1] = '\r';
  p[s.size() + 2] = '\n';
  out_->CommitWrite(s.size() + 3);
}

void ReplyWriter::Error(std::string_view message) {
  const bool has_code = !message.empty() && message[0] == '-';
  const size_t prefix = has_code ? 0 : 5;
  char* p = out_->PrepareWrite(prefix + message.size() + 2);
  if (!has_code) std::memcpy(p, "-ERR ", 5);
  char* body = p + prefix;
  for (size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    body[i] = (c == '\r' || c == '\n') ? ' ' : c;
  }
  body[message.size()] = '\r';
  body[message.size() + 1] = '\n';
  out_->CommitWrite(prefix + message.size() + 2);
}

void ReplyWriter::Integer(int64_t v) {
  if (v == 0) return out_->Append(":0\r\n");
  if (v == 1) return out_->Append(":1\r\n");
  AppendPrefixedNumber(out_, ':', v);
}

void ReplyWriter::Bulk(std::string_view s) {
  char* p = out_->PrepareWrite(kMaxInt64Chars + 5 + s.size());
  p[0] = '$';
  size_t n = 1 + FormatInt64(static_cast<int64_t>(s.size()), p + 1);
  p[n++] = '\r';
  p[n++] = '\n';
  if (!s.empty()) std::memcpy(p + n, s.data(), s.size());  // s.data() may be null when empty
  n += s.size();
  p[n++] = '\r';
  p[n++] = '\n';
  out_->CommitWrite(n);
}

void ReplyWriter::Null() { out_->Append(protocol_ >= 3 ? std::string_view("_\r\n") : "$-1\r\n"); }

void ReplyWriter::NullArray() {
  out_->Append(protocol_ >= 3 ? std::string_view("_\r\n") : "*-1\r\n");
}

void ReplyWriter::AggregateHeader(char type, size_t n) {
  AppendPrefixedNumber(out_, type, static_cast<int64_t>(n));
}

void ReplyWriter::MapHeader(size_t n) {
  if (protocol_ >= 3) {
    AggregateHeader('%', n);
  } else {
    AggregateHeader('*', n * 2);
  }
}

void ReplyWriter::Double(double v) {
  // Redis's addReplyDouble: "%.17g" in RESP2 as a bulk string, a ',' double in RESP3,
  // with inf/-inf spelled out.
  char buf[kMaxDoubleChars];
  const size_t len = FormatDouble17g(v, buf);
  if (protocol_ >= 3) {
    char* p = out_->PrepareWrite(len + 3);
    p[0] = ',';
    std::memcpy(p + 1, buf, len);
    p[len + 1] = '\r';
    p[len + 2] = '\n';
    out_->CommitWrite(len + 3);
  } else {
    Bulk(std::string_view(buf, len));
  }
}

void ReplyWriter::Bool(bool v) {
  if (protocol_ >= 3) {
    out_->Append(v ? std::string_view("#t\r\n") : "#f\r\n");
  } else {
    Integer(v ? 1 : 0);
  }
}

void ReplyWriter::Verbatim(std::string_view s) {
  if (protocol_ < 3) return Bulk(s);
  AppendPrefixedNumber(out_, '=', static_cast<int64_t>(s.size() + 4));
  out_->Append("txt:");
  out_->Append(s);
  out_->Append("\r\n");
}

}  // namespace kv
