// Status: the error value every fallible recflow function returns (free on success).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace recflow {

/// What went wrong, coarsely; the CLI maps these to exit codes.
enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidArgument,  ///< the caller asked for something impossible (usage error, exit 2)
  kIOError,          ///< the operating system refused (open, read, write, rename)
  kDataError,        ///< the input is malformed: bad framing, bad CRC, bad wire bytes
  kTypeError,        ///< a value does not fit the schema
  kNotFound,         ///< a file, column or key does not exist
  kAlreadyExists,    ///< an output that must not exist does
  kOutOfMemory,      ///< an allocation failed
  kInternal,         ///< a broken invariant inside recflow
  kCancelled,        ///< the run was asked to stop (its ExecContext's stop token), e.g. on SIGINT
};

/// Where in the input an error happened. Unknown parts are empty / negative.
struct ErrorContext {
  std::string file;      ///< path or name of the input
  int64_t offset = -1;   ///< byte offset in the (decompressed) input
  int64_t record = -1;   ///< 0-based record or row index
  std::string field;     ///< feature, column or field name
};

/// The outcome of an operation: OK, or a code, a message and where it happened.
/// An OK Status holds no allocation, so returning it is as cheap as returning a pointer.
class [[nodiscard]] Status {
 public:
  /// OK.
  Status() noexcept = default;
  Status(StatusCode code, std::string message);
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status DataError(std::string msg) { return {StatusCode::kDataError, std::move(msg)}; }
  static Status TypeError(std::string msg) { return {StatusCode::kTypeError, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
  static Status OutOfMemory(std::string msg) { return {StatusCode::kOutOfMemory, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {StatusCode::kCancelled, std::move(msg)}; }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  /// The bare message, without context.
  const std::string& message() const;
  /// Where it happened (empty context for OK).
  const ErrorContext& context() const;

  /// Returns a copy with the file set (when not already set).
  Status WithFile(std::string_view file) const;
  /// Returns a copy with the byte offset set (when not already set).
  Status WithOffset(int64_t offset) const;
  /// Returns a copy with the record index set (when not already set).
  Status WithRecord(int64_t record) const;
  /// Returns a copy whose record index, when set, is shifted by `base` (for errors found in a
  /// piece of input whose first record is record `base` of the whole).
  Status RebaseRecord(int64_t base) const;
  /// Returns a copy with the field name set (when not already set).
  Status WithField(std::string_view field) const;
  /// Returns a copy whose message ends with `note` (context kept); OK stays OK.
  Status WithNote(std::string_view note) const;
  /// Returns a copy whose message starts with `prefix` (context kept); OK stays OK.
  Status WithPrefix(std::string_view prefix) const;

  /// "FILE: record R, byte offset O, field F: message" — the parts that are known.
  std::string ToString() const;

 private:
  struct State {
    StatusCode code;
    std::string message;
    ErrorContext context;
  };
  std::unique_ptr<State> state_;
};

/// A human-readable name of a status code ("data error", ...).
std::string_view StatusCodeName(StatusCode code);

namespace internal {
/// Prints `status` on stderr as the error a value was taken from, then aborts: what
/// Result::ValueOrDie does on an error, in every build type.
[[noreturn]] void DieWithStatus(const Status& status);
}  // namespace internal

}  // namespace recflow

/// Returns the Status from the enclosing function when `expr` is not OK.
#define RETURN_NOT_OK(expr)                          \
  do {                                               \
    ::recflow::Status _st = (expr);                  \
    if (!_st.ok()) [[unlikely]] return _st;          \
  } while (false)

#define RECFLOW_CONCAT_INNER(a, b) a##b
#define RECFLOW_CONCAT(a, b) RECFLOW_CONCAT_INNER(a, b)

#define RECFLOW_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                  \
  if (!tmp.ok()) [[unlikely]] return tmp.status();     \
  lhs = std::move(tmp).ValueUnsafe();

/// Evaluates a Result; returns its Status when not OK, else assigns (or declares) `lhs`.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  RECFLOW_ASSIGN_OR_RETURN_IMPL(RECFLOW_CONCAT(_result_, __COUNTER__), lhs, rexpr)
