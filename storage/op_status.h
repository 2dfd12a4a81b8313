#pragma once

#include <utility>

namespace kv {

// Outcomes of storage operations. Storage never produces reply text: the server maps each status
// to Redis's exact error string in one table (server/errors.h).
enum class OpStatus {
  kOk,
  kKeyNotFound,
  kWrongType,
  kSkipped,  // a condition (NX, XX, ...) was not met
};

template <typename T>
class OpResult {
 public:
  OpResult(T value) : status_(OpStatus::kOk), value_(std::move(value)) {}
  OpResult(OpStatus status) : status_(status) {}

  bool ok() const { return status_ == OpStatus::kOk; }
  OpStatus status() const { return status_; }
  const T& value() const { return value_; }
  T& value() { return value_; }
  const T& operator*() const { return value_; }

 private:
  OpStatus status_;
  T value_{};
};

}  // namespace kv
