#include "server/rdb_length.h"

#include <liblzf/lzf.h>

#include <cstdint>
#include <memory>

#include "protocol/number.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/stream.h"
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

// RDB_TYPE_STREAM_LISTPACKS_2 (rdbSaveObject): the nodes (each a 16-byte key and its listpack as
// strings), the counters and ids as lengths, then each group with its PEL and consumers.
size_t RdbStreamLength(const Stream& s) {
  size_t n = LenBytes(s.nodes().size());
  // A node's key is 16 bytes: too long for an integer, too short for LZF.
  for (const auto& [id, lp] : s.nodes()) n += 1 + 16 + RdbStringLength(lp.view());
  n += LenBytes(s.length());
  for (StreamId id : {s.last_id(), s.first_id(), s.max_deleted_id()}) {
    n += LenBytes(id.ms) + LenBytes(id.seq);
  }
  n += LenBytes(s.entries_added());
  n += LenBytes(s.groups().size());
  for (const auto& [name, g] : s.groups()) {
    n += RdbStringLength(name);
    n += LenBytes(g->last_id.ms) + LenBytes(g->last_id.seq);
    n += LenBytes(static_cast<uint64_t>(g->entries_read));
    // The group's PEL: each id raw, its delivery time (8 bytes) and count.
    n += LenBytes(g->pel.size());
    for (const auto& [id, nack] : g->pel) n += 16 + 8 + LenBytes(nack.delivery_count);
    n += LenBytes(g->consumers.size());
    for (const auto& [cname, c] : g->consumers) {
      n += RdbStringLength(cname) + 8 + LenBytes(c->pel.size()) + 16 * c->pel.size();
    }
  }
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
    case ValueType::kStream:
      return RdbStreamLength(v.As<Stream>());
    default:
      // Each aggregate type adds its RDB encoding's length here as it lands.
      return 0;
  }
}

}  // namespace kv
