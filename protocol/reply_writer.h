#pragma once

#include <cstdint>
#include <string_view>

#include "protocol/io_buffer.h"

namespace kv {

// Encodes replies into an output buffer in the connection's protocol (RESP2 or RESP3).
// Handlers state what a reply is ("a map of N pairs", "a null") and the writer picks the bytes:
// a map is `%N` in RESP3 and `*2N` in RESP2, a null `_` or `$-1`, and so on.
class ReplyWriter {
 public:
  explicit ReplyWriter(IoBuffer* out, int protocol = 2) : out_(out), protocol_(protocol) {}

  int protocol() const { return protocol_; }
  void set_protocol(int protocol) { protocol_ = protocol; }
  IoBuffer* buffer() { return out_; }
  void set_buffer(IoBuffer* out) { out_ = out; }

  void Ok() { out_->Append("+OK\r\n"); }
  void Pong() { out_->Append("+PONG\r\n"); }
  void SimpleString(std::string_view s);
  // Redis's addReplyError: a message without a leading '-CODE' gets "-ERR " in front, and CR/LF
  // inside are turned into spaces so the reply stays one line.
  void Error(std::string_view message);
  void Integer(int64_t v);
  void Bulk(std::string_view s);
  void Null();       // the null bulk string: $-1 / _
  void NullArray();  // the null array: *-1 / _
  void ArrayHeader(size_t n) { AggregateHeader('*', n); }
  void MapHeader(size_t n);  // n key/value pairs
  void SetHeader(size_t n) { AggregateHeader(protocol_ >= 3 ? '~' : '*', n); }
  void PushHeader(size_t n) { AggregateHeader(protocol_ >= 3 ? '>' : '*', n); }
  void Double(double v);
  void Bool(bool v);
  // RESP3 verbatim string ("txt" format); a bulk string in RESP2.
  void Verbatim(std::string_view s);
  // Bytes that are already a complete RESP reply.
  void Raw(std::string_view bytes) { out_->Append(bytes); }

 private:
  void AggregateHeader(char type, size_t n);

  IoBuffer* out_;
  int protocol_;
};

}  // namespace kv
