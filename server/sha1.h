#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kv {

// SHA-1 (FIPS 180-4), fed in pieces: what script names (EVALSHA, SCRIPT LOAD, redis.sha1hex)
// and DEBUG DIGEST's digests are made of.
class Sha1 {
 public:
  using Digest = std::array<uint8_t, 20>;

  void Update(const void* data, size_t len);
  void Update(std::string_view data) { Update(data.data(), data.size()); }
  Digest Final();

 private:
  void Compress();

  uint32_t h_[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  uint8_t block_[64];
  size_t used_ = 0;
  uint64_t total_ = 0;
};

// The SHA-1 of `data` as 40 lower-case hex digits.
void Sha1Hex(std::string_view data, char out[40]);

}  // namespace kv
