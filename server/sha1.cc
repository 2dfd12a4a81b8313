#include "server/sha1.h"

#include <algorithm>
#include <cstring>

namespace kv {
namespace {

uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

}  // namespace

void Sha1::Update(const void* data, size_t len) {
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

Sha1::Digest Sha1::Final() {
  const uint64_t bits = total_ * 8;
  // The 0x80 marker, zeros up to 56 bytes into a block, then the length in bits, big-endian.
  uint8_t pad[72] = {0x80};
  const size_t zeros = (used_ < 56 ? 56 : 120) - used_;
  for (int i = 0; i < 8; ++i) pad[zeros + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  Update(pad, zeros + 8);
  Digest out;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(h_[i] >> (24 - 8 * j));
  }
  return out;
}

void Sha1::Compress() {
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

void Sha1Hex(std::string_view data, char out[40]) {
  Sha1 sha;
  sha.Update(data);
  const Sha1::Digest digest = sha.Final();
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 0xF];
  }
}

}  // namespace kv
