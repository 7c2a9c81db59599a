// Result<T>: a value or the Status explaining why there is none.
#pragma once

#include <optional>
#include <utility>

#include "recflow/core/status.h"

namespace recflow {

/// Holds either a T or a non-OK Status. Use ASSIGN_OR_RETURN to unwrap in fallible code.
template <typename T>
class [[nodiscard]] Result {
 public:
  /// A failed result; `status` must not be OK.
  Result(Status status) : status_(std::move(status)) {  // NOLINT(runtime/explicit)
    if (status_.ok()) status_ = Status::Internal("Result constructed from an OK Status");
  }
  /// A successful result.
  Result(T value) : value_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U>
    requires(std::is_convertible_v<U &&, T> && !std::is_same_v<std::decay_t<U>, Status> &&
             !std::is_same_v<std::decay_t<U>, T>)
  Result(U&& value) : value_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  /// The value. On an error, prints the status on stderr and aborts (in release builds too).
  const T& ValueOrDie() const& {
    if (!ok()) [[unlikely]] internal::DieWithStatus(status_);
    return *value_;
  }
  T& ValueOrDie() & {
    if (!ok()) [[unlikely]] internal::DieWithStatus(status_);
    return *value_;
  }
  T ValueOrDie() && {
    if (!ok()) [[unlikely]] internal::DieWithStatus(status_);
    return std::move(*value_);
  }
  /// Moves the value out without checking (used by ASSIGN_OR_RETURN after checking ok()).
  T ValueUnsafe() && { return std::move(*value_); }

  /// ValueOrDie(): aborts with the status on an error.
  const T& operator*() const& { return ValueOrDie(); }
  T& operator*() & { return ValueOrDie(); }
  T operator*() && { return std::move(*this).ValueOrDie(); }
  const T* operator->() const { return &ValueOrDie(); }
  T* operator->() { return &ValueOrDie(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace recflow
