#include "server/rdb_length.h"

#include <liblzf/lzf.h>

#include <cstdint>
#include <memory>

#include "protocol/number.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/value.h"
#include "storage/zset.h"

namespace kv {
namespace {

// Redis's rdbSaveLen: 1, 2, 5 or 9 bytes.
size_t LenBytes(uint64_t len) {
  if (len < (1 << 6)) return 1;
  if (len < (1 << 14)) return 2;
  if (len <= UINT32_MAX) return 5;
  return 9;
}

// RDB_TYPE_LIST_QUICKLIST_2: the node count, then per node its container (1 plain, 2 packed) and
// its bytes: a compressed node's LZF data as it is (rdbSaveLzfBlob), any other as a string.
size_t RdbQuickListLength(const QuickList& ql) {
  size_t n = LenBytes(ql.node_count());
  ql.ForEachNode([&](const QuickList::NodeView& node) {
    n += 1;
    if (node.compressed) {
      n +=
          1 + LenBytes(node.stored.size()) + LenBytes(node.uncompressed_bytes) + node.stored.size();
    } else {
      n += RdbStringLength(node.stored);
    }
  });
  return n;
}

}  // namespace

size_t RdbStringLength(std::string_view s) {
  // rdbTryIntegerEncoding: a canonical integer (string2ll's) that fits 8, 16 or 32 bits.
  if (s.size() <= 11) {
    if (auto v = ParseInt64(s)) {
      if (*v >= INT8_MIN && *v <= INT8_MAX) return 2;
      if (*v >= INT16_MIN && *v <= INT16_MAX) return 3;
      if (*v >= INT32_MIN && *v <= INT32_MAX) return 5;
    }
  }
  // rdbSaveLzfStringObject: worth it only if the result is at least 4 bytes shorter.
  if (s.size() > 20) {
    const size_t out_len = s.size() - 4;
    auto out = std::make_unique_for_overwrite<char[]>(out_len + 1);
    const unsigned int compressed = lzf_compress(s.data(), static_cast<unsigned int>(s.size()),
                                                 out.get(), static_cast<unsigned int>(out_len));
    if (compressed > 0) return 1 + LenBytes(compressed) + LenBytes(s.size()) + compressed;
  }
  return LenBytes(s.size()) + s.size();
}

size_t RdbValueLength(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return RdbStringLength(v.str());
    case ValueType::kHash: {
      // A list pack is saved as one string (its bytes); a table as its size and each field and
      // value as a string.
      const Hash& h = v.As<Hash>();
      if (const ListPack* lp = h.listpack()) return RdbStringLength(lp->view());
      size_t bytes = LenBytes(h.size());
      h.ForEach([&](std::string_view field, std::string_view value) {
        bytes += RdbStringLength(field) + RdbStringLength(value);
        return true;
      });
      return bytes;
    }
    case ValueType::kSet: {
      // An intset is saved as one string of its bytes; a hash table as its size and each member.
      const Set& set = v.As<Set>();
      if (set.is_intset()) return RdbStringLength(set.intset().view());
      size_t n = LenBytes(set.size());
      for (std::string_view m : *set.table()) n += RdbStringLength(m);
      return n;
    }
    case ValueType::kList:
      return RdbQuickListLength(v.As<List>().items());
    case ValueType::kZSet: {
      // rdbSaveObject: a listpack as one string; a skiplist as its length, then each member as a
      // string and its score as an 8-byte binary double.
      const ZSet& z = v.As<ZSet>();
      if (z.is_listpack()) return RdbStringLength(z.listpack().view());
      size_t n = LenBytes(z.size());
      z.ForEach([&](std::string_view member, double) { n += RdbStringLength(member) + 8; });
      return n;
    }
    default:
      // Each aggregate type adds its RDB encoding's length here as it lands.
      return 0;
  }
}

}  // namespace kv
