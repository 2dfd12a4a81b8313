#pragma once

#include <cstddef>
#include <cstdint>

namespace kv {

// What a forked child (BGSAVE, BGREWRITEAOF) tells the server about itself, as Redis's
// childinfo.c: through a pipe, now and then (at most as often as a tenth of the time the reading
// costs allows) the memory it no longer shares with the server, copy-on-write, read from
// /proc/self/smaps as its private dirty pages, with the keys saved so far; at its end the final
// figures. INFO persistence shows them: current_cow_*, current_fork_perc, current_save_keys_*,
// rdb_last_cow_size, aof_last_cow_size.
class ChildInfo {
 public:
  enum class Type : int { kCurrent = 0, kAofCowSize = 1, kRdbCowSize = 2 };

  ChildInfo() = default;
  ~ChildInfo() { Close(); }
  ChildInfo(const ChildInfo&) = delete;
  ChildInfo& operator=(const ChildInfo&) = delete;

  // The server, before it forks (redisFork): a new pipe, the current figures reset, `keys_total`
  // the keys the child is to save.
  void Open(uint64_t keys_total);
  // The server, once the fork succeeded: INFO's total_forks and latest_fork_usec.
  void Forked(int64_t fork_us) {
    ++total_forks_;
    latest_fork_usec_ = fork_us;
  }
  // CONFIG RESETSTAT.
  void ResetForkStats() { total_forks_ = latest_fork_usec_ = 0; }
  // The server, once the child is reaped (resetChildState): the pipe closed, the current figures
  // reset.
  void Close();

  // In the child: sends its copy-on-write size and the keys saved. kCurrent is throttled (the
  // smaps reading is not free); the final types always read.
  void Send(Type type, uint64_t keys);
  // In the child, every key saved: a kCurrent report every 1024 keys once a second has passed
  // since the last (rdbSaveRio's).
  void KeySaved();

  // The server (its cron, and before it reaps the child): what the child sent so far.
  void Receive();

  uint64_t current_cow_peak() const { return current_cow_peak_; }
  uint64_t current_cow_size() const { return current_cow_size_; }
  // Seconds since the current figure was read (0 when none was).
  uint64_t current_cow_size_age_s() const;
  uint64_t keys_processed() const { return keys_processed_; }
  uint64_t keys_total() const { return keys_total_; }
  uint64_t rdb_last_cow_size() const { return rdb_last_cow_size_; }
  uint64_t aof_last_cow_size() const { return aof_last_cow_size_; }
  int64_t total_forks() const { return total_forks_; }
  int64_t latest_fork_usec() const { return latest_fork_usec_; }

 private:
  struct Message {
    int type;
    uint64_t keys;
    uint64_t cow;
    int64_t cow_updated_us;  // CLOCK_MONOTONIC, shared by the processes
  };

  int fds_[2] = {-1, -1};
  Message buffer_{};
  size_t buffered_ = 0;
  uint64_t current_cow_peak_ = 0;
  uint64_t current_cow_size_ = 0;
  int64_t current_cow_updated_us_ = 0;
  uint64_t keys_processed_ = 0;
  uint64_t keys_total_ = 0;
  uint64_t rdb_last_cow_size_ = 0;
  uint64_t aof_last_cow_size_ = 0;
  int64_t total_forks_ = 0;
  int64_t latest_fork_usec_ = 0;
  // The child's side.
  int64_t cow_updated_us_ = 0;
  int64_t cow_update_cost_us_ = 0;
  uint64_t cow_ = 0;
  uint64_t keys_saved_ = 0;
  int64_t info_sent_ms_ = 0;
};

// Redis's zmalloc_get_private_dirty(-1): the Private_Dirty of every mapping of this process, in
// bytes.
size_t PrivateDirtyBytes();

}  // namespace kv
