#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace kv {

// Redis's pqsort (pqsort.c: Bentley and McIlroy's quicksort, skipping the partitions outside the
// wanted range), followed step by step: GEOSEARCH ... COUNT and SORT ... BY ... LIMIT sort only
// the part they return, and elements that compare equal come out in the order this algorithm
// leaves them, which a client sees.
//
// `cmp(a, b)` returns <0, 0 or >0 as Redis's comparison function of the two elements.
template <typename T, typename Compare>
class PartialSorter {
 public:
  PartialSorter(std::vector<T>& v, Compare cmp) : v_(v), cmp_(std::move(cmp)) {}

  // Sorts so that positions [lo, hi] hold what a full sort would put there.
  void Sort(size_t lo, size_t hi) { Run(0, v_.size(), lo, hi); }

 private:
  int Cmp(size_t a, size_t b) { return cmp_(v_[a], v_[b]); }
  void Swap(size_t a, size_t b) { std::swap(v_[a], v_[b]); }
  void VecSwap(size_t a, size_t b, size_t n) {
    for (size_t i = 0; i < n; ++i) Swap(a + i, b + i);
  }
  size_t Med3(size_t a, size_t b, size_t c) {
    return Cmp(a, b) < 0 ? (Cmp(b, c) < 0 ? b : (Cmp(a, c) < 0 ? c : a))
                         : (Cmp(b, c) > 0 ? b : (Cmp(a, c) < 0 ? a : c));
  }
  static bool Overlaps(size_t first, size_t last, size_t lo, size_t hi) {
    return !((lo < first && hi < first) || (lo > last && hi > last));
  }

  void Run(size_t a, size_t n, size_t lo, size_t hi) {
    for (;;) {
      if (n < 7) {
        for (size_t pm = a + 1; pm < a + n; ++pm) {
          for (size_t pl = pm; pl > a && Cmp(pl - 1, pl) > 0; --pl) Swap(pl, pl - 1);
        }
        return;
      }
      size_t pm = a + n / 2;
      if (n > 7) {
        size_t pl = a;
        size_t pn = a + n - 1;
        if (n > 40) {
          const size_t d = n / 8;
          pl = Med3(pl, pl + d, pl + 2 * d);
          pm = Med3(pm - d, pm, pm + d);
          pn = Med3(pn - 2 * d, pn - d, pn);
        }
        pm = Med3(pl, pm, pn);
      }
      Swap(a, pm);
      size_t pa = a + 1, pb = a + 1;
      // pc and pd may step below a + 1 by one: kept signed.
      int64_t pc = static_cast<int64_t>(a + n - 1), pd = pc;
      for (;;) {
        int r;
        while (static_cast<int64_t>(pb) <= pc && (r = Cmp(pb, a)) <= 0) {
          if (r == 0) {
            Swap(pa, pb);
            ++pa;
          }
          ++pb;
        }
        while (static_cast<int64_t>(pb) <= pc && (r = Cmp(static_cast<size_t>(pc), a)) >= 0) {
          if (r == 0) {
            Swap(static_cast<size_t>(pc), static_cast<size_t>(pd));
            --pd;
          }
          --pc;
        }
        if (static_cast<int64_t>(pb) > pc) break;
        Swap(pb, static_cast<size_t>(pc));
        ++pb;
        --pc;
      }
      const size_t pn = a + n;
      size_t r = std::min(pa - a, pb - pa);
      VecSwap(a, pb - r, r);
      r = std::min(static_cast<size_t>(pd - pc), pn - static_cast<size_t>(pd) - 1);
      VecSwap(pb, pn - r, r);
      if ((r = pb - pa) > 1 && Overlaps(a, a + r - 1, lo, hi)) Run(a, r, lo, hi);
      if ((r = static_cast<size_t>(pd - pc)) > 1) {
        a = pn - r;
        n = r;
        if (Overlaps(a, a + r - 1, lo, hi)) continue;
      }
      return;
    }
  }

  std::vector<T>& v_;
  Compare cmp_;
};

}  // namespace kv
