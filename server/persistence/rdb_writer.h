#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kv {

class Stream;
class Value;

// Appends Redis's RDB encodings (rdb.c's rdbSave* functions) to a byte buffer: lengths, strings
// (integer-encoded when they are small canonical integers, LZF-compressed when `compress` and it
// saves at least 4 bytes), doubles, and whole values in the encodings Redis 7.0 writes. Each
// value's bytes are those Redis writes for the same encoding and contents; the lengths agree with
// RdbValueLength (DEBUG OBJECT's serializedlength).
//
// The buffer belongs to the caller, who may drain it between values (a file being written).
class RdbWriter {
 public:
  RdbWriter(std::string* out, bool compress) : out_(out), compress_(compress) {}

  std::string& out() { return *out_; }

  void Byte(uint8_t b) { out_->push_back(static_cast<char>(b)); }
  void Raw(std::string_view bytes) { out_->append(bytes); }
  // rdbSaveLen: 1, 2, 5 or 9 bytes.
  void Length(uint64_t len);
  // rdbSaveRawString.
  void String(std::string_view s);
  // rdbSaveLongLongAsStringObject: an integer as an integer encoding or its decimal string.
  void Integer(int64_t v);
  // rdbSaveLzfBlob: data already LZF-compressed (a quicklist's compressed node).
  void LzfBlob(std::string_view compressed, size_t original_len);
  // rdbSaveBinaryDoubleValue: 8 bytes, little-endian IEEE 754.
  void BinaryDouble(double v);
  // rdbSaveMillisecondTime and friends: a little-endian 64-bit integer.
  void Int64(int64_t v);
  // rdbSaveAuxFieldStrStr and rdbSaveAuxFieldStrInt.
  void Aux(std::string_view key, std::string_view value);
  void Aux(std::string_view key, int64_t value);

  // rdbSaveObjectType: the type byte for `v`'s encoding. False for a type this writer cannot
  // encode; nothing is written then.
  bool ObjectType(const Value& v);
  // rdbSaveObject: the value's body.
  void Object(const Value& v);

 private:
  // rdbSaveLzfStringObject: false when compression does not save 4 bytes.
  bool TryLzf(std::string_view s);
  // RDB_TYPE_STREAM_LISTPACKS_2's body (rdb_stream.cc).
  void StreamObject(const Stream& s);

  std::string* out_;
  bool compress_;
  std::string lzf_;  // compression scratch, reused
};

}  // namespace kv
