#include "server/command_stats.h"

#include <bit>
#include <cmath>

namespace kv {

size_t LatencyHistogram::BucketOf(uint64_t ns) {
  constexpr uint64_t kSub = 1 << kSubBits;
  if (ns < kSub) return ns;
  const int exponent = std::bit_width(ns) - 1;  // >= kSubBits
  if (exponent > kMaxExponent) return kBuckets - 1;
  const uint64_t sub = (ns >> (exponent - kSubBits)) & (kSub - 1);
  return kSub * (exponent - kSubBits + 1) + sub;
}

uint64_t LatencyHistogram::HighestValueOf(size_t bucket) {
  constexpr uint64_t kSub = 1 << kSubBits;
  if (bucket < kSub) return bucket;
  const int exponent = static_cast<int>(bucket / kSub) - 1 + kSubBits;
  const uint64_t lowest = (kSub + bucket % kSub) << (exponent - kSubBits);
  return lowest + (uint64_t{1} << (exponent - kSubBits)) - 1;
}

uint64_t LatencyHistogram::ValueAtPercentile(double percentile) const {
  if (count_ == 0) return 0;
  const double wanted = std::ceil(percentile / 100.0 * static_cast<double>(count_));
  const uint64_t rank = wanted < 1 ? 1 : static_cast<uint64_t>(wanted);
  uint64_t seen = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return HighestValueOf(b);
  }
  return HighestValueOf(kBuckets - 1);
}

std::vector<std::pair<uint64_t, uint64_t>> LatencyHistogram::CumulativeByPowersOfTwo() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  constexpr int kLevels = 21;  // 1024 ns << 20 is past Redis's one-second maximum
  size_t b = 0;
  uint64_t below = 0;
  for (int k = 0; k < kLevels && below < count_; ++k) {
    const uint64_t level = uint64_t{1024} << k;
    if (k == kLevels - 1) {
      below = count_;
    } else {
      for (; b < kBuckets && HighestValueOf(b) < level; ++b) below += buckets_[b];
    }
    // HDR with 2 significant digits: values from `level` up to level + 2^(k+3) - 1 are
    // equivalent to it.
    const uint64_t key = (level + (uint64_t{1} << (k + 3)) - 1) / 1000;
    if (below > (out.empty() ? 0 : out.back().second)) out.emplace_back(key, below);
  }
  return out;
}

void ErrorStats::Record(std::string_view reply) {
  if (!enabled_) return;
  // Redis's afterErrorReply: the code runs from after the '-' to the first space within the
  // first 32 bytes; without one the code is ERR.
  std::string_view code = "ERR";
  const size_t space = reply.substr(0, 32).find(' ');
  if (space != std::string_view::npos) code = reply.substr(1, space - 1);
  auto it = counts_.find(code);
  if (it != counts_.end()) {
    ++it->second;
    return;
  }
  // Redis's ERROR_STATS_NUMBER.
  if (counts_.size() >= 128) {
    counts_.clear();
    enabled_ = false;
    return;
  }
  counts_.emplace(code, 1);
}

}  // namespace kv
