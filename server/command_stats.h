#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {

// Command latencies in nanoseconds, in log-linear buckets (8 per power of two, so a percentile
// is exact to within 1/8), standing in for Redis's HDR histogram at a fixed, small cost per call.
class LatencyHistogram {
 public:
  void Record(uint64_t ns) {
    ++buckets_[BucketOf(ns)];
    ++count_;
  }
  // The highest value of the bucket holding the `percentile`th (0..100) value, as HDR
  // histograms answer; 0 when empty.
  uint64_t ValueAtPercentile(double percentile) const;
  uint64_t count() const { return count_; }
  // LATENCY HISTOGRAM's histogram_usec, as Redis's fillCommandCDF walks its HDR histogram: at
  // each power of two from 1024 ns to 2^30 ns (where Redis's histogram ends: longer calls count
  // there), the number of calls that took less, keyed by that level in microseconds as HDR's
  // highest equivalent value (1, 2, 4, 8, 16, 33, ...), listed only where the number grew.
  std::vector<std::pair<uint64_t, uint64_t>> CumulativeByPowersOfTwo() const;

 private:
  static constexpr int kSubBits = 3;
  static constexpr int kMaxExponent = 40;  // about 18 minutes; longer calls land in the last bucket
  // Values under 8 have a bucket each; then 8 buckets per exponent from kSubBits to kMaxExponent.
  static constexpr size_t kBuckets = (1 << kSubBits) * (kMaxExponent - kSubBits + 2);
  static size_t BucketOf(uint64_t ns);
  static uint64_t HighestValueOf(size_t bucket);

  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
};

// One command's (or subcommand's) line in INFO commandstats and latencystats.
struct CommandStats {
  uint64_t calls = 0;
  uint64_t nanoseconds = 0;
  uint64_t rejected_calls = 0;                // refused before running: wrong arity
  uint64_t failed_calls = 0;                  // ran and replied with an error
  std::unique_ptr<LatencyHistogram> latency;  // made on the first call

  // `track_latency`: latency-tracking (INFO latencystats' histogram).
  void RecordCall(uint64_t ns, bool failed, bool track_latency = true) {
    ++calls;
    nanoseconds += ns;
    failed_calls += failed;
    if (!track_latency) return;
    if (!latency) latency = std::make_unique<LatencyHistogram>();
    latency->Record(ns);
  }
};

// INFO errorstats: error replies counted by their code (the first word, "ERR" when the text has
// none), as Redis's incrementErrorCount. Like Redis, once more than 128 different codes are
// seen, counting stops (and the table empties) until CONFIG RESETSTAT.
class ErrorStats {
 public:
  // `reply` is an error reply's bytes, starting with '-'.
  void Record(std::string_view reply);
  void Reset() {
    counts_.clear();
    enabled_ = true;
  }
  const std::map<std::string, uint64_t, std::less<>>& counts() const { return counts_; }

 private:
  std::map<std::string, uint64_t, std::less<>> counts_;
  bool enabled_ = true;
};

}  // namespace kv
