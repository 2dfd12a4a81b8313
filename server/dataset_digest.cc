#include "server/dataset_digest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "storage/db_set.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/listpack.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/zset.h"

namespace kv {
namespace {

// SHA-1 (FIPS 180-4), the hash Redis's digests are made of.
class Sha1 {
 public:
  void Update(const void* data, size_t len) {
    const auto* p = static_cast<const uint8_t*>(data);
    total_ += len;
    while (len > 0) {
      const size_t take = std::min(len, sizeof(block_) - used_);
      std::memcpy(block_ + used_, p, take);
      used_ += take;
      p += take;
      len -= take;
      if (used_ == sizeof(block_)) {
        Compress();
        used_ = 0;
      }
    }
  }

  Digest Final() {
    const uint64_t bits = total_ * 8;
    const uint8_t pad = 0x80;
    Update(&pad, 1);
    const uint8_t zero = 0;
    while (used_ != 56) Update(&zero, 1);
    uint8_t length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    Update(length, 8);
    Digest out;
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(h_[i] >> (24 - 8 * j));
    }
    return out;
  }

 private:
  static uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

  void Compress() {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = static_cast<uint32_t>(block_[4 * i]) << 24 |
             static_cast<uint32_t>(block_[4 * i + 1]) << 16 |
             static_cast<uint32_t>(block_[4 * i + 2]) << 8 | block_[4 * i + 3];
    }
    for (int i = 16; i < 80; ++i) w[i] = Rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDC;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6;
      }
      const uint32_t t = Rotl(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = Rotl(b, 30);
      b = a;
      a = t;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
  }

  uint32_t h_[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  uint8_t block_[64];
  size_t used_ = 0;
  uint64_t total_ = 0;
};

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
