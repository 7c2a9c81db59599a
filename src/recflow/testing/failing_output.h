// FailingOutputStream: a test OutputStream that accepts a budget of bytes and fails every write after it.
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/io.h"

namespace recflow::testing {

/// Accepts `budget` bytes, then fails every write with IOError(`message`); counts write calls.
class FailingOutputStream final : public OutputStream {
 public:
  explicit FailingOutputStream(int64_t budget, std::string message = "disk full")
      : budget_(budget), message_(std::move(message)) {}
  Status Write(const void* /*data*/, int64_t n) override {
    ++writes_;
    if (position_ + n > budget_) return Status::IOError(message_);
    position_ += n;
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }
  /// Write calls so far, failed ones included.
  int writes() const { return writes_; }

 private:
  int64_t budget_;
  std::string message_;
  int64_t position_ = 0;
  int writes_ = 0;
  std::string name_ = "failing";
};

}  // namespace recflow::testing
