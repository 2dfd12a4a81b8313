#pragma once

#include <cstddef>

namespace kv {

// Something whose memory can be given back a little at a time: a big value, or a flushed
// database's tables. Freeing ten million blocks takes a second; done in steps, between which the
// owner's thread does other work, no single step holds that thread for long. (The server's lazy
// freeing runs these steps on its event loop: freeing on another thread than the one that
// allocated stalls the allocating thread under mimalloc, see bench/results/lazyfree-10M.)
class Releasable {
 public:
  virtual ~Releasable() = default;
  // Frees about `budget` units of work, a unit being a block freed or a slot or bucket passed
  // over (a step may end early, or do a few units more). Returns true once nothing is left but
  // what the destructor frees in a few units. After the first call the object may only be
  // released further or destroyed (which frees whatever is left).
  virtual bool ReleaseSome(size_t budget) = 0;
};

}  // namespace kv
