#include "server/dataset_digest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "server/sha1.h"
#include "storage/db_set.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/listpack.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/zset.h"

namespace kv {
namespace {

// Redis's xorDigest: digest ^= SHA1(data).
void XorDigest(Digest* digest, std::string_view data) {
  Sha1 sha;
  sha.Update(data.data(), data.size());
  const Digest hash = sha.Final();
  for (size_t i = 0; i < hash.size(); ++i) (*digest)[i] ^= hash[i];
}

// Redis's mixDigest: digest = SHA1(digest ^ SHA1(data)), so that order counts.
void MixDigest(Digest* digest, std::string_view data) {
  XorDigest(digest, data);
  Sha1 sha;
  sha.Update(digest->data(), digest->size());
  *digest = sha.Final();
}

// A type code as Redis's htonl(o->type): 4 bytes, most significant first.
std::string_view BigEndian32(uint32_t v, char (&buf)[4]) {
  for (int i = 0; i < 4; ++i) buf[i] = static_cast<char>(v >> (24 - 8 * i));
  return {buf, 4};
}

}  // namespace

void XorValueDigest(const Db& db, std::string_view key, const Value& value, Digest* digest) {
  char type_buf[4];
  MixDigest(digest, BigEndian32(static_cast<uint32_t>(value.type()), type_buf));
  switch (value.type()) {
    case ValueType::kString:
      MixDigest(digest, value.str());
      break;
    case ValueType::kList: {
      // Walking a list decompresses each node while on it and compresses it again after: the
      // list is the same afterwards.
      List& list = value.As<List>();
      if (list.size() == 0) break;
      char buf[ListPackValue::kIntBufSize];
      list.ForRange(0, static_cast<long>(list.size()) - 1, false,
                    [&](ListPackValue v) { MixDigest(digest, v.ToString(buf)); });
      break;
    }
    case ValueType::kSet:
      value.As<Set>().ForEach([&](std::string_view member) { XorDigest(digest, member); });
      break;
    case ValueType::kZSet:
      // Both of Redis's encodings digest the member, then the score as "%.17g".
      value.As<ZSet>().ForEach([&](std::string_view member, double score) {
        Digest element{};
        MixDigest(&element, member);
        MixDigest(&element, fmt::format("{:.17g}", score));
        XorDigest(digest,
                  std::string_view(reinterpret_cast<const char*>(element.data()), element.size()));
      });
      break;
    case ValueType::kHash:
      value.As<Hash>().ForEach([&](std::string_view field, std::string_view v) {
        Digest element{};
        MixDigest(&element, field);
        MixDigest(&element, v);
        XorDigest(digest,
                  std::string_view(reinterpret_cast<const char*>(element.data()), element.size()));
        return true;
      });
      break;
    case ValueType::kStream: {
      // Each entry in order: its id as "<ms>.<seq>", then its fields and values (Redis's
      // debug.c; groups are not digested).
      Stream::Iterator it(value.As<Stream>(), {}, StreamId::Max(), false);
      StreamId id;
      int64_t num_fields;
      char fbuf[ListPackValue::kIntBufSize];
      char vbuf[ListPackValue::kIntBufSize];
      while (it.Next(&id, &num_fields)) {
        MixDigest(digest, std::to_string(id.ms) + "." + std::to_string(id.seq));
        for (int64_t i = 0; i < num_fields; ++i) {
          ListPackValue field;
          ListPackValue v;
          it.NextField(&field, &v);
          MixDigest(digest, field.ToString(fbuf));
          MixDigest(digest, v.ToString(vbuf));
        }
      }
      break;
    }
    default:
      break;
  }
  if (db.GetExpire(key) != kNoExpiry) XorDigest(digest, "!!expire!!");
}

Digest DatasetDigest(const DbSet& dbs) {
  Digest final{};
  for (size_t j = 0; j < dbs.count(); ++j) {
    const Db& db = dbs.db(j);
    if (db.size() == 0) continue;
    // The database's number, so that the same data in another database digests differently.
    char db_buf[4];
    MixDigest(&final, BigEndian32(static_cast<uint32_t>(j), db_buf));
    db.ForEach([&](std::string_view key, const Value& value) {
      Digest digest{};
      MixDigest(&digest, key);
      XorValueDigest(db, key, value, &digest);
      XorDigest(&final,
                std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
    });
  }
  return final;
}

std::string DigestHex(const Digest& digest) {
  std::string hex;
  hex.reserve(40);
  for (uint8_t b : digest) fmt::format_to(std::back_inserter(hex), "{:02x}", b);
  return hex;
}

}  // namespace kv
