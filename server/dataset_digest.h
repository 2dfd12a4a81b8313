#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "storage/db.h"

namespace kv {

class DbSet;

// Redis's DEBUG DIGEST and DEBUG DIGEST-VALUE (debug.c): SHA-1 based digests of values and of the
// whole dataset, equal to Redis's for the same data, so that the test suite can compare a value
// with its copy, or a dataset before and after an operation. Order-free collections (sets,
// hashes, sorted sets, the keys of a database) combine their elements' digests by xor; a list
// feeds each element through the running digest, so that order counts.
using Digest = std::array<uint8_t, 20>;

// xorObjectDigest: the digest of `value` at `key` in `db` (its type, its contents, and whether
// the key has a TTL), xored into `*digest`.
void XorValueDigest(const Db& db, std::string_view key, const Value& value, Digest* digest);

// computeDatasetDigest: every database's number and every key with its value; all zeros for an
// empty dataset.
Digest DatasetDigest(const DbSet& dbs);

// The 40 lower-case hex digits Redis replies with.
std::string DigestHex(const Digest& digest);

}  // namespace kv
