#pragma once

#include <cstdint>

#include "storage/value.h"

namespace kv {

// Redis's objectSetLRUOrLFU with its lru_multiplier of 1000 (RESTORE's IDLETIME and FREQ, an RDB
// file's IDLE and FREQ opcodes): under an LFU policy a frequency (0-255) given becomes the
// counter, stamped now; otherwise an idle time given in seconds sets the LRU clock back by it.
// -1 means not given.
inline void SetLruOrLfu(Value& v, bool lfu_policy, int64_t now_ms, int64_t lfu_freq,
                        int64_t lru_idle) {
  const int64_t now_s = now_ms / 1000;
  if (lfu_policy) {
    if (lfu_freq >= 0) v.set_lru(static_cast<uint32_t>(((now_s / 60) & 0xffff) << 8 | lfu_freq));
  } else if (lru_idle >= 0) {
    const int64_t lru_clock = now_s & Value::kLruMax;
    // lru_idle * 1000 / 1000 in Redis; wider here so that a huge idle time cannot overflow.
    __int128 lru_abs = static_cast<__int128>(lru_clock) - lru_idle;
    if (lru_abs < 0) lru_abs += Value::kLruMax;
    v.set_lru(static_cast<uint32_t>(static_cast<uint64_t>(lru_abs)));
  }
}

}  // namespace kv
