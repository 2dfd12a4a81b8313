#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "storage/hash.h"
#include "storage/value.h"
#include "storage/zset.h"

namespace kv {

struct StreamId;

// The encoding thresholds a loaded value is converted by, as Redis's rdbLoadObject reads them
// from the server's configuration.
struct RdbLoadLimits {
  int list_fill = -2;  // list-max-listpack-size
  int list_compress_depth = 0;
  size_t list_packed_threshold = size_t{1} << 30;
  Hash::Limits hash;
  size_t set_max_intset_entries = 512;
  ZSet::Limits zset{128, 64};
};

// Reads Redis's RDB encodings (rdb.c's rdbLoad* functions) from bytes in memory: a DUMP payload,
// or a whole RDB file. Everything read is checked against the input's end and the formats'
// rules (list packs, intsets and ziplists deeply, duplicates included, whatever
// sanitize-dump-payload says: kvserver's structures trust their bytes), so corrupt input fails
// with an error and never reads outside the input or allocates more than it could hold.
class RdbReader {
 public:
  explicit RdbReader(std::string_view data) : data_(data) {}

  size_t position() const { return at_; }
  size_t remaining() const { return data_.size() - at_; }
  // Why the last read failed, for the log (rdbReportCorruptRDB's texts where Redis has one).
  const std::string& error() const { return error_; }
  // Whether the last LoadObject failed only because the value was empty (RDB_LOAD_ERR_EMPTY_KEY:
  // a file's loader skips the key, RESTORE refuses it).
  bool empty_key() const { return empty_key_; }

  bool Byte(uint8_t* b);
  // rdbLoadLen; `encoded` is set for the special string encodings (the length is then the
  // encoding's number).
  bool Length(uint64_t* len, bool* encoded = nullptr);
  // rdbGenericLoadStringObject: the string's bytes, a view of the input when stored plainly,
  // else decoded (an integer's decimal text, LZF decompressed) into `scratch`.
  bool String(std::string_view* s, std::string* scratch);
  bool String(std::string* s);
  bool BinaryDouble(double* v);
  // rdbLoadDoubleValue: the old text form (a length byte, 253 nan, 254 +inf, 255 -inf).
  bool TextDouble(double* v);
  bool Int64(int64_t* v);
  bool Int32(int32_t* v);
  // Skips `n` bytes.
  bool Skip(size_t n);

  // rdbLoadObject for object type `type` (a byte IsObjectType accepted).
  bool LoadObject(int type, const RdbLoadLimits& limits, DetachedValue* out);

 private:
  bool Fail(std::string_view why);
  bool LoadList(int type, const RdbLoadLimits& limits, DetachedValue* out);
  bool LoadSet(const RdbLoadLimits& limits, DetachedValue* out);
  bool LoadZSet(int type, const RdbLoadLimits& limits, DetachedValue* out);
  bool LoadHash(const RdbLoadLimits& limits, DetachedValue* out);
  bool LoadEncoded(int type, const RdbLoadLimits& limits, DetachedValue* out);
  // Streams (rdb_stream.cc): types 15 and 19, and a PEL's raw 16-byte id.
  bool LoadStream(int type, DetachedValue* out);
  bool RawId(StreamId* id);
  bool StreamMetaLength(uint64_t* v);
  bool EmptyKey();

  std::string_view data_;
  size_t at_ = 0;
  std::string error_;
  bool empty_key_ = false;
};

}  // namespace kv
