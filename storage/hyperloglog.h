#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "storage/compact_string.h"

namespace kv::hll {

// Redis's HyperLogLog, byte for byte (hyperloglog.c): the value is a plain string
//
//   "HYLL" [encoding: 0 dense, 1 sparse] [3 bytes 0] [cached cardinality: 8 bytes LE, the top
//   bit set when stale] [registers]
//
// with 16384 6-bit registers, packed (dense, 12288 bytes), or run-length coded (sparse: ZERO
// runs of up to 64 registers in one byte, XZERO runs of up to 16384 in two, VAL runs of up to 4
// registers holding 1..32 in one byte). A new HLL is sparse; it turns dense once a register
// needs more than 32 or the sparse form would grow past hll-sparse-max-bytes. Elements are hashed
// with MurmurHash64A (seed 0xadc83b19), so an HLL written by Redis counts the same here, and the
// cardinality is Ertl's improved estimator, as Redis 7.0's. Corrupted sparse HLLs get Redis's
// answers too: the runs must cover exactly every register (as Redis 7.0.15 with the
// CVE-2025-32023 fix checks), and an XZERO opcode cut short by the string's end reads what Redis
// holds past the end (its NUL, or a byte an earlier split left there).

constexpr size_t kHeaderSize = 16;
constexpr size_t kRegisters = 16384;
constexpr size_t kDenseSize = kHeaderSize + (kRegisters * 6 + 7) / 8;
constexpr uint8_t kDense = 0;
constexpr uint8_t kSparse = 1;

// An empty HLL (sparse: one XZERO run covering every register).
std::string Create();

// isHLLObjectOrReply: long enough for the header, the magic, a known encoding, and a dense one of
// exactly the dense size. A sparse one may still be corrupt inside.
bool LooksValid(std::string_view s);
inline uint8_t EncodingOf(std::string_view s) { return static_cast<uint8_t>(s[4]); }

// hllAdd: 1 if a register changed, 0 if not, -1 for a corrupt sparse HLL (unchanged then).
int Add(CompactString& s, std::string_view element, size_t sparse_max_bytes);
// hllSparseSet / hllDenseSet of register `index` to at least `count`: 1 if it changed, 0, -1.
int SetRegister(CompactString& s, size_t index, uint8_t count, size_t sparse_max_bytes);
// hllSparseToDense; false (and `s` unchanged) for a corrupt sparse HLL.
bool SparseToDense(CompactString& s);

// The cached cardinality, when valid.
bool CachedCardinality(std::string_view s, uint64_t* card);
void SetCachedCardinality(CompactString& s, uint64_t card);
void InvalidateCache(CompactString& s);

// hllCount of a valid-looking HLL; false for a corrupt sparse one.
bool Count(std::string_view s, uint64_t* card);
// hllMerge: each register of `s` into max[i] = MAX(max[i], register); false for a corrupt
// sparse HLL (its runs not covering exactly every register, as in SparseToDense).
bool MergeInto(std::string_view s, uint8_t* max);
// hllCount of registers held one per byte (PFCOUNT of several keys).
uint64_t CountRaw(const uint8_t* registers);

// For PFDEBUG and PFSELFTEST.
uint8_t DenseRegister(std::string_view s, size_t index);
void SetDenseRegister(uint8_t* registers, size_t index, uint8_t value);
uint8_t GetDenseRegister(const uint8_t* registers, size_t index);
// PFDEBUG DECODE of a sparse HLL: "z:<len> Z:<len> v:<value>,<len> ...".
std::string DecodeSparse(std::string_view s);

uint64_t MurmurHash64A(const void* key, int len, uint32_t seed);
// hllPatLen: the element's register and its run of zeros plus one.
int PatternLength(std::string_view element, size_t* index);

}  // namespace kv::hll
