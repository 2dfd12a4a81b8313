#include "server/persistence/rdb_writer.h"

#include <liblzf/lzf.h>

#include <cstring>

#include "protocol/number.h"
#include "server/persistence/rdb_format.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/value.h"
#include "storage/zset.h"

namespace kv {
namespace {

void AppendLittleEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

void RdbWriter::Length(uint64_t len) {
  if (len < (1 << 6)) {
    Byte(static_cast<uint8_t>(len));
  } else if (len < (1 << 14)) {
    Byte(static_cast<uint8_t>((len >> 8) | (rdb::k14BitLen << 6)));
    Byte(static_cast<uint8_t>(len & 0xff));
  } else if (len <= UINT32_MAX) {
    Byte(rdb::k32BitLen);
    for (int shift = 24; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(len >> shift));
  } else {
    Byte(rdb::k64BitLen);
    for (int shift = 56; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(len >> shift));
  }
}

void RdbWriter::Integer(int64_t v) {
  // rdbEncodeInteger: 8, 16 or 32 bits, little-endian, after the special-encoding byte.
  if (v >= INT8_MIN && v <= INT8_MAX) {
    Byte((rdb::kEncVal << 6) | rdb::kEncInt8);
    AppendLittleEndian(out_, static_cast<uint64_t>(v), 1);
  } else if (v >= INT16_MIN && v <= INT16_MAX) {
    Byte((rdb::kEncVal << 6) | rdb::kEncInt16);
    AppendLittleEndian(out_, static_cast<uint64_t>(v), 2);
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    Byte((rdb::kEncVal << 6) | rdb::kEncInt32);
    AppendLittleEndian(out_, static_cast<uint64_t>(v), 4);
  } else {
    char buf[kMaxInt64Chars];
    const size_t n = FormatInt64(v, buf);
    Length(n);
    Raw({buf, n});
  }
}

void RdbWriter::String(std::string_view s) {
  // rdbTryIntegerEncoding: a canonical integer (string2ll and back gives the same text) of up
  // to 32 bits.
  if (s.size() <= 11) {
    if (auto v = ParseInt64(s); v && *v >= INT32_MIN && *v <= INT32_MAX) return Integer(*v);
  }
  if (compress_ && s.size() > 20 && TryLzf(s)) return;
  Length(s.size());
  Raw(s);
}

bool RdbWriter::TryLzf(std::string_view s) {
  // Worth it only if the result is at least 4 bytes shorter (Redis passes len - 4 as the room).
  const size_t room = s.size() - 4;
  if (lzf_.size() < room + 1) lzf_.resize(room + 1);
  const unsigned int n = lzf_compress(s.data(), static_cast<unsigned int>(s.size()), lzf_.data(),
                                      static_cast<unsigned int>(room));
  if (n == 0) return false;
  LzfBlob({lzf_.data(), n}, s.size());
  return true;
}

void RdbWriter::LzfBlob(std::string_view compressed, size_t original_len) {
  Byte((rdb::kEncVal << 6) | rdb::kEncLzf);
  Length(compressed.size());
  Length(original_len);
  Raw(compressed);
}

void RdbWriter::BinaryDouble(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  AppendLittleEndian(out_, bits, 8);
}

void RdbWriter::Int64(int64_t v) { AppendLittleEndian(out_, static_cast<uint64_t>(v), 8); }

void RdbWriter::Aux(std::string_view key, std::string_view value) {
  Byte(rdb::kOpAux);
  String(key);
  String(value);
}

void RdbWriter::Aux(std::string_view key, int64_t value) {
  char buf[kMaxInt64Chars];
  Aux(key, std::string_view(buf, FormatInt64(value, buf)));
}

bool RdbWriter::ObjectType(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      Byte(rdb::kTypeString);
      return true;
    case ValueType::kList:
      Byte(rdb::kTypeListQuickList2);
      return true;
    case ValueType::kSet:
      Byte(v.As<Set>().is_intset() ? rdb::kTypeSetIntSet : rdb::kTypeSet);
      return true;
    case ValueType::kZSet:
      Byte(v.As<ZSet>().is_listpack() ? rdb::kTypeZSetListPack : rdb::kTypeZSet2);
      return true;
    case ValueType::kHash:
      Byte(v.As<Hash>().listpack() != nullptr ? rdb::kTypeHashListPack : rdb::kTypeHash);
      return true;
    case ValueType::kStream:
      Byte(rdb::kTypeStreamListPacks2);
      return true;
    default:
      return false;
  }
}

void RdbWriter::Object(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return String(v.str());
    case ValueType::kList: {
      // The node count, then per node its container and its bytes: a compressed node's LZF data
      // as it is, any other node's list pack (or plain element) as a string.
      const QuickList& ql = v.As<List>().items();
      Length(ql.node_count());
      ql.ForEachNode([&](const QuickList::NodeView& node) {
        Length(node.plain ? rdb::kContainerPlain : rdb::kContainerPacked);
        if (node.compressed) {
          LzfBlob(node.stored, node.uncompressed_bytes);
        } else {
          String(node.stored);
        }
      });
      return;
    }
    case ValueType::kSet: {
      const Set& set = v.As<Set>();
      if (set.is_intset()) return String(set.intset().view());
      Length(set.size());
      for (std::string_view m : *set.table()) String(m);
      return;
    }
    case ValueType::kZSet: {
      const ZSet& z = v.As<ZSet>();
      if (z.is_listpack()) return String(z.listpack().view());
      // From the highest score to the lowest, as Redis walks its skiplist backwards (so that
      // loading inserts each member at the head).
      Length(z.size());
      char buf[ListPackValue::kIntBufSize];
      for (ZSet::Iterator it = z.Seek(z.size() - 1); it.valid(); it.Prev()) {
        String(it.member(buf));
        BinaryDouble(it.score());
      }
      return;
    }
    case ValueType::kHash: {
      const Hash& h = v.As<Hash>();
      if (const ListPack* lp = h.listpack()) return String(lp->view());
      Length(h.size());
      h.ForEach([&](std::string_view field, std::string_view value) {
        String(field);
        String(value);
        return true;
      });
      return;
    }
    case ValueType::kStream:
      return StreamObject(v.As<Stream>());
    default:
      return;
  }
}

}  // namespace kv
