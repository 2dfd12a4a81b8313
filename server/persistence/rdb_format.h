#pragma once

#include <cstdint>

// Redis's RDB format constants (rdb.h), version 10 as Redis 7.0 writes it.
namespace kv::rdb {

constexpr int kVersion = 10;

// Object types (RDB_TYPE_*).
enum Type : uint8_t {
  kTypeString = 0,
  kTypeList = 1,
  kTypeSet = 2,
  kTypeZSet = 3,
  kTypeHash = 4,
  kTypeZSet2 = 5,
  kTypeModule = 6,
  kTypeModule2 = 7,
  kTypeHashZipMap = 9,
  kTypeListZipList = 10,
  kTypeSetIntSet = 11,
  kTypeZSetZipList = 12,
  kTypeHashZipList = 13,
  kTypeListQuickList = 14,
  kTypeStreamListPacks = 15,
  kTypeHashListPack = 16,
  kTypeZSetListPack = 17,
  kTypeListQuickList2 = 18,
  kTypeStreamListPacks2 = 19,
};

// Whether a byte read where a type or opcode is expected is an object type (rdbIsObjectType).
constexpr bool IsObjectType(int t) { return (t >= 0 && t <= 7) || (t >= 9 && t <= 19); }

// Special opcodes.
enum Opcode : uint8_t {
  kOpFunction2 = 245,
  kOpFunction = 246,
  kOpModuleAux = 247,
  kOpIdle = 248,
  kOpFreq = 249,
  kOpAux = 250,
  kOpResizeDb = 251,
  kOpExpireTimeMs = 252,
  kOpExpireTime = 253,
  kOpSelectDb = 254,
  kOpEof = 255,
};

// Length encodings: the top two bits of the first byte.
constexpr uint8_t k6BitLen = 0;
constexpr uint8_t k14BitLen = 1;
constexpr uint8_t k32BitLen = 0x80;
constexpr uint8_t k64BitLen = 0x81;
constexpr uint8_t kEncVal = 3;
// Special string encodings (after kEncVal).
constexpr uint8_t kEncInt8 = 0;
constexpr uint8_t kEncInt16 = 1;
constexpr uint8_t kEncInt32 = 2;
constexpr uint8_t kEncLzf = 3;

// Quicklist node containers (QUICKLIST_NODE_CONTAINER_*).
constexpr uint64_t kContainerPlain = 1;
constexpr uint64_t kContainerPacked = 2;

}  // namespace kv::rdb
