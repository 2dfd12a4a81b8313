#include "server/persistence/rdb_reader.h"

#include <liblzf/lzf.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "protocol/number.h"
#include "server/persistence/legacy_encodings.h"
#include "server/persistence/rdb_format.h"
#include "storage/intset.h"
#include "storage/list.h"
#include "storage/listpack.h"
#include "storage/set.h"

namespace kv {
namespace {

// LZF turns at most 3 input bytes into 264 output bytes (a back reference of the longest
// length): a claimed size past this ratio cannot be real, and is refused before allocating.
constexpr uint64_t kLzfMaxRatio = 88;

// A quicklist node counts its elements in 16 bits.
constexpr size_t kMaxNodeElements = UINT16_MAX;

std::string ToString(ListPackValue v) {
  char buf[ListPackValue::kIntBufSize];
  return std::string(v.ToString(buf));
}

void AppendValue(ListPack& lp, ListPackValue v) {
  if (v.is_int) {
    lp.AppendInteger(v.num);
  } else {
    lp.Append(v.str);
  }
}

// A list pack or ziplist of pairs (hash fields and values, sorted set members and scores) turned
// into a list pack, checking that the pairs are complete and the first of each pair distinct
// (lpPairsValidateIntegrityAndDups, ziplistPairsConvertAndValidateIntegrity). `max_len` gets the
// longest element's length (for the zipmap's conversion test).
class PairsCheck {
 public:
  bool Add(ListPackValue v) {
    if ((count_++ & 1) == 0) {
      if (!seen_.insert(ToString(v)).second) return false;
    }
    return true;
  }
  bool complete() const { return (count_ & 1) == 0; }
  size_t count() const { return count_; }

 private:
  absl::flat_hash_set<std::string> seen_;
  size_t count_ = 0;
};

}  // namespace

bool RdbReader::Fail(std::string_view why) {
  if (error_.empty()) error_ = std::string(why);
  return false;
}

bool RdbReader::EmptyKey() {
  empty_key_ = true;
  return Fail("Empty keys skipped");
}

bool RdbReader::Byte(uint8_t* b) {
  if (at_ >= data_.size()) return Fail("Unexpected EOF reading RDB file");
  *b = static_cast<uint8_t>(data_[at_++]);
  return true;
}

bool RdbReader::Skip(size_t n) {
  if (n > remaining()) return Fail("Unexpected EOF reading RDB file");
  at_ += n;
  return true;
}

bool RdbReader::Length(uint64_t* len, bool* encoded) {
  if (encoded != nullptr) *encoded = false;
  uint8_t first;
  if (!Byte(&first)) return false;
  switch (first >> 6) {
    case rdb::k6BitLen:
      *len = first & 0x3f;
      return true;
    case rdb::k14BitLen: {
      uint8_t second;
      if (!Byte(&second)) return false;
      *len = (uint64_t{first} & 0x3f) << 8 | second;
      return true;
    }
    case rdb::kEncVal:
      // Where no encoding is expected, Redis's rdbLoadLen takes the 6 bits as the length.
      if (encoded != nullptr) *encoded = true;
      *len = first & 0x3f;
      return true;
    default: {
      int bytes;
      if (first == rdb::k32BitLen) {
        bytes = 4;
      } else if (first == rdb::k64BitLen) {
        bytes = 8;
      } else {
        return Fail("Unknown length encoding in rdbLoadLen()");
      }
      if (remaining() < static_cast<size_t>(bytes)) return Fail("Unexpected EOF reading RDB file");
      uint64_t v = 0;
      for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<uint8_t>(data_[at_++]);
      *len = v;
      return true;
    }
  }
}

bool RdbReader::String(std::string_view* s, std::string* scratch) {
  bool encoded;
  uint64_t len;
  if (!Length(&len, &encoded)) return false;
  if (!encoded) {
    if (len > remaining()) return Fail("Unexpected EOF reading RDB file");
    *s = data_.substr(at_, len);
    at_ += len;
    return true;
  }
  switch (len) {
    case rdb::kEncInt8:
    case rdb::kEncInt16:
    case rdb::kEncInt32: {
      const int bytes = len == rdb::kEncInt8 ? 1 : len == rdb::kEncInt16 ? 2 : 4;
      if (remaining() < static_cast<size_t>(bytes)) return Fail("Unexpected EOF reading RDB file");
      uint64_t v = 0;
      for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(data_[at_ + i]);
      at_ += bytes;
      const int shift = 64 - 8 * bytes;
      const int64_t value = static_cast<int64_t>(v << shift) >> shift;
      scratch->resize(kMaxInt64Chars);
      scratch->resize(FormatInt64(value, scratch->data()));
      *s = *scratch;
      return true;
    }
    case rdb::kEncLzf: {
      uint64_t clen, ulen;
      if (!Length(&clen) || !Length(&ulen)) return false;
      if (clen > remaining()) return Fail("Unexpected EOF reading RDB file");
      if (clen == 0 || ulen > clen * kLzfMaxRatio || ulen > UINT32_MAX) {
        return Fail("Invalid LZF compressed string");
      }
      scratch->resize(ulen);
      if (ulen > 0 && lzf_decompress(data_.data() + at_, static_cast<unsigned>(clen),
                                     scratch->data(), static_cast<unsigned>(ulen)) != ulen) {
        return Fail("Invalid LZF compressed string");
      }
      at_ += clen;
      *s = *scratch;
      return true;
    }
    default:
      return Fail("Unknown RDB string encoding type " + std::to_string(len));
  }
}

bool RdbReader::String(std::string* s) {
  std::string_view view;
  std::string scratch;
  if (!String(&view, &scratch)) return false;
  if (view.data() == scratch.data()) {
    *s = std::move(scratch);
  } else {
    s->assign(view);
  }
  return true;
}

bool RdbReader::BinaryDouble(double* v) {
  int64_t bits;
  if (!Int64(&bits)) return false;
  std::memcpy(v, &bits, sizeof *v);
  return true;
}

bool RdbReader::TextDouble(double* v) {
  uint8_t len;
  if (!Byte(&len)) return false;
  switch (len) {
    case 255:
      *v = -HUGE_VAL;
      return true;
    case 254:
      *v = HUGE_VAL;
      return true;
    case 253:
      *v = NAN;
      return true;
    default: {
      if (len > remaining()) return Fail("Unexpected EOF reading RDB file");
      char buf[256];
      std::memcpy(buf, data_.data() + at_, len);
      buf[len] = '\0';
      at_ += len;
      // Redis reads it with sscanf("%lg"): whatever prefix parses.
      *v = std::strtod(buf, nullptr);
      return true;
    }
  }
}

bool RdbReader::Int64(int64_t* v) {
  if (remaining() < 8) return Fail("Unexpected EOF reading RDB file");
  uint64_t u = 0;
  for (int i = 7; i >= 0; --i) u = u << 8 | static_cast<uint8_t>(data_[at_ + i]);
  at_ += 8;
  *v = static_cast<int64_t>(u);
  return true;
}

bool RdbReader::Int32(int32_t* v) {
  if (remaining() < 4) return Fail("Unexpected EOF reading RDB file");
  uint32_t u = 0;
  for (int i = 3; i >= 0; --i) u = u << 8 | static_cast<uint8_t>(data_[at_ + i]);
  at_ += 4;
  *v = static_cast<int32_t>(u);
  return true;
}

bool RdbReader::LoadObject(int type, const RdbLoadLimits& limits, DetachedValue* out) {
  error_.clear();
  empty_key_ = false;
  *out = DetachedValue{};
  switch (type) {
    case rdb::kTypeString: {
      std::string_view s;
      std::string scratch;
      if (!String(&s, &scratch)) return false;
      out->str.assign(s);
      return true;
    }
    case rdb::kTypeList:
    case rdb::kTypeListQuickList:
    case rdb::kTypeListQuickList2:
      return LoadList(type, limits, out);
    case rdb::kTypeSet:
      return LoadSet(limits, out);
    case rdb::kTypeZSet:
    case rdb::kTypeZSet2:
      return LoadZSet(type, limits, out);
    case rdb::kTypeHash:
      return LoadHash(limits, out);
    case rdb::kTypeHashZipMap:
    case rdb::kTypeListZipList:
    case rdb::kTypeSetIntSet:
    case rdb::kTypeZSetZipList:
    case rdb::kTypeZSetListPack:
    case rdb::kTypeHashZipList:
    case rdb::kTypeHashListPack:
      return LoadEncoded(type, limits, out);
    case rdb::kTypeStreamListPacks:
    case rdb::kTypeStreamListPacks2:
      return LoadStream(type, out);
    case rdb::kTypeModule:
    case rdb::kTypeModule2:
      return Fail("The RDB file contains module data I can't load: no matching module");
    default:
      return Fail("Unknown RDB encoding type " + std::to_string(type));
  }
}

bool RdbReader::LoadList(int type, const RdbLoadLimits& limits, DetachedValue* out) {
  uint64_t len;
  if (!Length(&len)) return false;
  if (len == 0) return EmptyKey();
  auto list = std::make_unique<List>(limits.list_fill, limits.list_compress_depth,
                                     limits.list_packed_threshold);
  std::string scratch;
  std::string_view s;
  if (type == rdb::kTypeList) {
    // Every element on its own, pushed as RPUSH would.
    while (len-- > 0) {
      if (!String(&s, &scratch)) return false;
      list->Push(s, List::End::kTail);
    }
  } else {
    // Whole nodes, kept as they were saved.
    while (len-- > 0) {
      uint64_t container = rdb::kContainerPacked;
      if (type == rdb::kTypeListQuickList2) {
        if (!Length(&container)) return false;
        if (container != rdb::kContainerPacked && container != rdb::kContainerPlain) {
          return Fail("Quicklist integrity check failed.");
        }
      }
      if (!String(&s, &scratch)) return false;
      if (s.empty()) return Fail("Quicklist integrity check failed.");
      if (container == rdb::kContainerPlain) {
        list->items().AppendPlainNode(s);
        continue;
      }
      ListPack lp;
      if (type == rdb::kTypeListQuickList2) {
        auto checked = ListPack::FromBytes(s, /*deep=*/true);
        if (!checked) return Fail("Listpack integrity check failed.");
        lp = std::move(*checked);
      } else if (!WalkZipList(s, [&](ListPackValue v) {
                   AppendValue(lp, v);
                   return true;
                 })) {
        return Fail("Ziplist integrity check failed.");
      }
      // Empty nodes are skipped, as Redis does; an empty list fails below.
      if (lp.empty()) continue;
      if (lp.size() > kMaxNodeElements) return Fail("Listpack integrity check failed.");
      list->items().AppendListPackNode(std::move(lp));
    }
    if (list->size() == 0) return EmptyKey();
  }
  out->aggregate = std::move(list);
  return true;
}

bool RdbReader::LoadSet(const RdbLoadLimits& limits, DetachedValue* out) {
  uint64_t len;
  if (!Length(&len)) return false;
  if (len == 0) return EmptyKey();
  const size_t max_entries = std::min(limits.set_max_intset_entries, Set::kIntSetEntriesCap);
  auto set = std::make_unique<Set>();
  // A table from the start when there are too many members (sized by what the input can hold).
  if (len > max_entries) set->ConvertToTable(std::min<uint64_t>(len, remaining()));
  std::string scratch;
  std::string_view s;
  for (uint64_t i = 0; i < len; ++i) {
    if (!String(&s, &scratch)) return false;
    if (!set->Add(s, max_entries)) return Fail("Duplicate set members detected");
  }
  out->aggregate = std::move(set);
  return true;
}

bool RdbReader::LoadZSet(int type, const RdbLoadLimits& limits, DetachedValue* out) {
  uint64_t len;
  if (!Length(&len)) return false;
  if (len == 0) return EmptyKey();
  auto zset = std::make_unique<ZSet>(/*big=*/true);
  size_t maxelelen = 0, totelelen = 0;
  std::string scratch;
  std::string_view member;
  while (len-- > 0) {
    if (!String(&member, &scratch)) return false;
    double score;
    if (!(type == rdb::kTypeZSet2 ? BinaryDouble(&score) : TextDouble(&score))) return false;
    if (std::isnan(score)) return Fail("Zset with NAN score detected");
    double existing;
    if (zset->Score(member, &existing)) return Fail("Duplicate zset fields detected");
    maxelelen = std::max(maxelelen, member.size());
    totelelen += member.size();
    zset->AddNew(score, member);
  }
  // Converted after loading, as the members are not saved in order of the list pack.
  zset->ConvertToListPackIfNeeded(maxelelen, totelelen, limits.zset);
  out->aggregate = std::move(zset);
  return true;
}

bool RdbReader::LoadHash(const RdbLoadLimits& limits, DetachedValue* out) {
  uint64_t len;
  if (!Length(&len)) return false;
  if (len == 0) return EmptyKey();
  auto hash = std::make_unique<Hash>();
  // Too many fields: a table from the start.
  if (len > limits.hash.max_listpack_entries) hash->ConvertToTable();
  std::string field_scratch, value_scratch;
  std::string_view field, value;
  while (len-- > 0) {
    if (!String(&field, &field_scratch) || !String(&value, &value_scratch)) return false;
    if (!hash->Set(field, value, limits.hash)) return Fail("Duplicate hash fields detected");
  }
  out->aggregate = std::move(hash);
  return true;
}

bool RdbReader::LoadEncoded(int type, const RdbLoadLimits& limits, DetachedValue* out) {
  std::string scratch;
  std::string_view bytes;
  if (!String(&bytes, &scratch)) return false;
  switch (type) {
    case rdb::kTypeHashZipMap: {
      ListPack lp;
      absl::flat_hash_set<std::string> seen;
      size_t maxlen = 0;
      const bool ok = WalkZipMap(bytes, [&](std::string_view f, std::string_view v) {
        if (!seen.insert(std::string(f)).second) return false;
        if (!lp.SafeToAdd(f.size() + v.size())) return false;
        maxlen = std::max({maxlen, f.size(), v.size()});
        lp.Append(f);
        lp.Append(v);
        return true;
      });
      if (!ok) return Fail("Zipmap integrity check failed.");
      if (lp.empty()) return EmptyKey();
      auto hash = std::make_unique<Hash>(std::move(lp));
      if (hash->size() > limits.hash.max_listpack_entries ||
          maxlen > limits.hash.max_listpack_value) {
        hash->ConvertToTable();
      }
      out->aggregate = std::move(hash);
      return true;
    }
    case rdb::kTypeListZipList: {
      auto list = std::make_unique<List>(limits.list_fill, limits.list_compress_depth,
                                         limits.list_packed_threshold);
      const bool ok = WalkZipList(bytes, [&](ListPackValue v) {
        char buf[ListPackValue::kIntBufSize];
        list->Push(v.ToString(buf), List::End::kTail);
        return true;
      });
      if (!ok) return Fail("List ziplist integrity check failed.");
      if (list->size() == 0) return EmptyKey();
      out->aggregate = std::move(list);
      return true;
    }
    case rdb::kTypeSetIntSet: {
      auto intset = IntSet::FromBytes(bytes, /*deep=*/true);
      if (!intset) return Fail("Intset integrity check failed.");
      auto set = std::make_unique<Set>(std::move(*intset));
      if (set->size() > limits.set_max_intset_entries) set->ConvertToTable(set->size());
      out->aggregate = std::move(set);
      return true;
    }
    case rdb::kTypeZSetZipList:
    case rdb::kTypeHashZipList:
    case rdb::kTypeZSetListPack:
    case rdb::kTypeHashListPack: {
      const bool is_zset = type == rdb::kTypeZSetZipList || type == rdb::kTypeZSetListPack;
      PairsCheck pairs;
      ListPack lp;
      if (type == rdb::kTypeZSetZipList || type == rdb::kTypeHashZipList) {
        const bool ok = WalkZipList(bytes, [&](ListPackValue v) {
          if (!pairs.Add(v)) return false;
          AppendValue(lp, v);
          return true;
        });
        if (!ok || !pairs.complete()) {
          return Fail(is_zset ? "Zset ziplist integrity check failed."
                              : "Hash ziplist integrity check failed.");
        }
      } else {
        const bool ok = ListPack::Validate(bytes, [&](ListPackValue v) { return pairs.Add(v); });
        if (!ok || !pairs.complete()) {
          return Fail(is_zset ? "Zset listpack integrity check failed."
                              : "Hash listpack integrity check failed.");
        }
        lp = std::move(*ListPack::FromBytes(bytes, /*deep=*/false));
      }
      if (lp.empty()) return EmptyKey();
      if (is_zset) {
        auto zset = std::make_unique<ZSet>(std::move(lp));
        if (zset->size() > limits.zset.max_listpack_entries) zset->ConvertToBig();
        out->aggregate = std::move(zset);
      } else {
        auto hash = std::make_unique<Hash>(std::move(lp));
        if (hash->size() > limits.hash.max_listpack_entries) hash->ConvertToTable();
        out->aggregate = std::move(hash);
      }
      return true;
    }
    default:
      return Fail("Unknown RDB encoding type " + std::to_string(type));
  }
}

}  // namespace kv
