#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "storage/releasable.h"

namespace kv {

// Redis's object types, numbered as its OBJ_* constants.
enum class ValueType : uint8_t {
  kString = 0,
  kList = 1,
  kSet = 2,
  kZSet = 3,
  kHash = 4,
  kStream = 6,
};

// Redis's object encodings, as OBJECT ENCODING names them. Each type reports the encoding Redis
// would have for the same history, whatever kvserver's representation is.
enum class Encoding : uint8_t {
  kRaw,
  kInt,
  kEmbStr,
  kHashTable,
  kIntSet,
  kListPack,
  kQuickList,
  kSkipList,
  kStream,
};

// A value of an aggregate type (list, hash, set, sorted set, stream). Each type is a class of its
// own in storage/ (List, Hash, Set, ...) holding its compact and big representations; a Value
// holds one behind its type tag, and the command families reach it through typed lookups. What
// every type must answer for the generic commands is here: COPY, OBJECT ENCODING, MEMORY USAGE,
// and for lazy freeing the effort estimate and freeing in steps (Releasable::ReleaseSome).
class Aggregate : public Releasable {
 public:
  virtual ValueType type() const = 0;
  virtual Encoding encoding() const = 0;
  // Elements: list items, hash fields, set members.
  virtual size_t size() const = 0;
  // A deep copy (COPY), with the same encoding.
  virtual std::unique_ptr<Aggregate> Clone() const = 0;
  // The bytes of every block the value owns (not counting this object's own block, which the
  // caller measures), for MEMORY USAGE. With `samples` > 0, a big value may measure that many
  // elements and extrapolate, as Redis's objectComputeSize does; 0 measures everything.
  virtual size_t AllocatedBytes(size_t samples) const = 0;
  // Redis's lazyfreeGetFreeEffort: about how many allocations freeing the value takes. Values
  // over a threshold are freed in steps between events when lazy freeing applies.
  virtual size_t FreeEffort() const = 0;
};

}  // namespace kv
