#include "server/persistence/child_info.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace kv {

namespace {

constexpr int64_t kCowDutyCycle = 100;  // CHILD_COW_DUTY_CYCLE

int64_t MonotonicUs() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

}  // namespace

size_t PrivateDirtyBytes() {
  std::FILE* f = std::fopen("/proc/self/smaps", "r");
  if (f == nullptr) return 0;
  char line[1024];
  size_t bytes = 0;
  constexpr char kField[] = "Private_Dirty:";
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, kField, sizeof kField - 1) == 0) {
      bytes += std::strtoull(line + sizeof kField - 1, nullptr, 10) * 1024;  // in kB
    }
  }
  std::fclose(f);
  return bytes;
}

void ChildInfo::Open(uint64_t keys_total) {
  Close();
  if (::pipe2(fds_, O_NONBLOCK | O_CLOEXEC) == -1) fds_[0] = fds_[1] = -1;
  current_cow_peak_ = 0;
  current_cow_size_ = 0;
  current_cow_updated_us_ = 0;
  keys_processed_ = 0;
  keys_total_ = keys_total;
}

void ChildInfo::Close() {
  for (int& fd : fds_) {
    if (fd != -1) ::close(fd);
    fd = -1;
  }
  buffered_ = 0;
  current_cow_peak_ = 0;
  current_cow_size_ = 0;
  current_cow_updated_us_ = 0;
  keys_processed_ = 0;
  keys_total_ = 0;
}

void ChildInfo::Send(Type type, uint64_t keys) {
  if (fds_[1] == -1) return;
  const int64_t now = MonotonicUs();
  if (type != Type::kCurrent || cow_updated_us_ == 0 ||
      now - cow_updated_us_ > cow_update_cost_us_ * kCowDutyCycle) {
    cow_ = PrivateDirtyBytes();
    cow_updated_us_ = MonotonicUs();
    cow_update_cost_us_ = cow_updated_us_ - now;
  }
  Message m{};
  m.type = static_cast<int>(type);
  m.keys = keys;
  m.cow = cow_;
  m.cow_updated_us = cow_updated_us_;
  // The pipe holds far more than the few messages a child sends between two crons; a message
  // that does not fit is dropped (the next one says more).
  const ssize_t ignored = ::write(fds_[1], &m, sizeof m);
  (void)ignored;
}

void ChildInfo::KeySaved() {
  if ((keys_saved_++ & 1023) != 0 || fds_[1] == -1) return;
  const int64_t now_ms = MonotonicUs() / 1000;
  if (now_ms - info_sent_ms_ < 1000) return;
  info_sent_ms_ = now_ms;
  Send(Type::kCurrent, keys_saved_);
}

void ChildInfo::Receive() {
  if (fds_[0] == -1) return;
  while (true) {
    const ssize_t n =
        ::read(fds_[0], reinterpret_cast<char*>(&buffer_) + buffered_, sizeof buffer_ - buffered_);
    if (n <= 0) return;
    buffered_ += static_cast<size_t>(n);
    if (buffered_ < sizeof buffer_) continue;
    buffered_ = 0;
    // updateChildInfo
    if (buffer_.cow > current_cow_peak_) current_cow_peak_ = buffer_.cow;
    switch (static_cast<Type>(buffer_.type)) {
      case Type::kCurrent:
        current_cow_size_ = buffer_.cow;
        current_cow_updated_us_ = buffer_.cow_updated_us;
        keys_processed_ = buffer_.keys;
        break;
      case Type::kAofCowSize:
        aof_last_cow_size_ = current_cow_peak_;
        break;
      case Type::kRdbCowSize:
        rdb_last_cow_size_ = current_cow_peak_;
        break;
    }
  }
}

uint64_t ChildInfo::current_cow_size_age_s() const {
  if (current_cow_updated_us_ == 0) return 0;
  return static_cast<uint64_t>((MonotonicUs() - current_cow_updated_us_) / 1000000);
}

}  // namespace kv
