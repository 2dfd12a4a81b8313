#pragma once

#include <fmt/format.h>

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/number.h"
#include "server/config.h"
#include "storage/list.h"
#include "storage/value.h"

namespace kv {

// The encoding Redis reports for a string value (OBJECT ENCODING, DEBUG OBJECT):
// tryObjectEncoding() makes a canonical integer that fits a long "int" and any other string of up
// to 44 bytes "embstr"; APPEND and SETRANGE change a string in place, which makes it "raw"
// whatever its content.
inline std::string_view StringEncoding(const Value& v) {
  if (v.changed_in_place()) return "raw";
  const std::string_view s = v.str();
  if (s.size() <= 20 && ParseInt64(s)) return "int";
  return s.size() <= 44 ? "embstr" : "raw";
}

// Redis's name for a value's type (TYPE, SCAN ... TYPE).
inline std::string_view TypeName(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return "string";
    case ValueType::kList:
      return "list";
    case ValueType::kSet:
      return "set";
    case ValueType::kZSet:
      return "zset";
    case ValueType::kHash:
      return "hash";
    case ValueType::kStream:
      return "stream";
  }
  return "none";
}

// OBJECT ENCODING's name for any value.
inline std::string_view EncodingName(const Value& v) {
  if (v.is_string()) return StringEncoding(v);
  switch (v.aggregate()->encoding()) {
    case Encoding::kRaw:
      return "raw";
    case Encoding::kInt:
      return "int";
    case Encoding::kEmbStr:
      return "embstr";
    case Encoding::kHashTable:
      return "hashtable";
    case Encoding::kIntSet:
      return "intset";
    case Encoding::kListPack:
      return "listpack";
    case Encoding::kQuickList:
      return "quicklist";
    case Encoding::kSkipList:
      return "skiplist";
    case Encoding::kStream:
      return "stream";
  }
  return "unknown";
}

// The reference count Redis reports (OBJECT REFCOUNT, DEBUG OBJECT). Integers 0..9999 are
// Redis's shared objects, whose count is INT_MAX, unless a maxmemory with an LRU or LFU policy
// needs each value's own access data (Redis decides when the value is made; kvserver when asked).
inline int64_t ObjectRefcount(const Config& config, const Value& v) {
  const MaxmemoryPolicy p = config.maxmemory_policy;
  const bool own_access_data =
      config.maxmemory != 0 &&
      (IsLfuPolicy(p) || p == MaxmemoryPolicy::kVolatileLru || p == MaxmemoryPolicy::kAllkeysLru);
  if (!own_access_data && v.is_string() && !v.unshared() && StringEncoding(v) == "int") {
    const int64_t n = *ParseInt64(v.str());
    if (n >= 0 && n < 10000) return INT_MAX;
  }
  return 1;
}

// What DEBUG OBJECT adds after lru_seconds_idle for the value's encoding: for a quicklist, its
// node count, elements per node, fill, whether compression is on and its bytes uncompressed.
inline std::string DebugObjectExtras(const Value& v) {
  if (v.type() != ValueType::kList) return {};
  const QuickList& ql = v.As<List>().items();
  return fmt::format(
      " ql_nodes:{} ql_avg_node:{:.2f} ql_listpack_max:{} ql_compressed:{} ql_uncompressed_size:{}",
      ql.node_count(), static_cast<double>(ql.size()) / static_cast<double>(ql.node_count()),
      ql.fill(), ql.compress_depth() != 0 ? 1 : 0, ql.UncompressedBytes());
}

}  // namespace kv
