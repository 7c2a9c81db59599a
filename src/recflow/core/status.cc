// Status construction, context decoration and formatting.
#include "recflow/core/status.h"

#include <cstdio>
#include <cstdlib>

#include "recflow/core/url_redaction.h"

namespace recflow {

namespace {
const std::string& EmptyString() {
  static const std::string kEmpty;
  return kEmpty;
}
const ErrorContext& EmptyContext() {
  static const ErrorContext kEmpty;
  return kEmpty;
}
}  // namespace

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) {
    state_ = std::make_unique<State>(State{code, std::move(message), {}});
  }
}

Status::Status(const Status& other)
    : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
  return *this;
}

const std::string& Status::message() const { return state_ ? state_->message : EmptyString(); }
const ErrorContext& Status::context() const { return state_ ? state_->context : EmptyContext(); }

// The file as errors print it: a URL's password masked (a /vsicurl/ dataset named with one inline).
Status Status::WithFile(std::string_view file) const {
  Status s(*this);
  if (s.state_ && s.state_->context.file.empty()) s.state_->context.file = RedactUrlPasswords(file);
  return s;
}

Status Status::WithOffset(int64_t offset) const {
  Status s(*this);
  if (s.state_ && s.state_->context.offset < 0) s.state_->context.offset = offset;
  return s;
}

Status Status::WithRecord(int64_t record) const {
  Status s(*this);
  if (s.state_ && s.state_->context.record < 0) s.state_->context.record = record;
  return s;
}

Status Status::RebaseRecord(int64_t base) const {
  Status s(*this);
  if (s.state_ && s.state_->context.record >= 0) s.state_->context.record += base;
  return s;
}

Status Status::ShiftOffset(int64_t from, int64_t delta) const {
  Status s(*this);
  if (s.state_ && s.state_->context.offset >= from) s.state_->context.offset += delta;
  return s;
}

Status Status::WithField(std::string_view field) const {
  Status s(*this);
  if (s.state_ && s.state_->context.field.empty()) s.state_->context.field = field;
  return s;
}

Status Status::WithNote(std::string_view note) const {
  Status s(*this);
  if (s.state_) s.state_->message += note;
  return s;
}

Status Status::WithPrefix(std::string_view prefix) const {
  Status s(*this);
  if (s.state_) s.state_->message.insert(0, prefix);
  return s;
}

std::string Status::ToString() const {
  if (!state_) return "OK";
  const ErrorContext& c = state_->context;
  std::string where;
  auto add = [&where](const std::string& part) {
    if (!where.empty()) where += ", ";
    where += part;
  };
  if (c.record >= 0) add("record " + std::to_string(c.record));
  if (c.offset >= 0) add("byte offset " + std::to_string(c.offset));
  if (!c.field.empty()) add("field '" + c.field + "'");
  std::string out;
  if (!c.file.empty()) out = c.file + ": ";
  if (!where.empty()) out += where + ": ";
  out += state_->message;
  return out;
}

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kIOError: return "I/O error";
    case StatusCode::kDataError: return "data error";
    case StatusCode::kTypeError: return "type error";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kAlreadyExists: return "already exists";
    case StatusCode::kOutOfMemory: return "out of memory";
    case StatusCode::kInternal: return "internal error";
    case StatusCode::kCancelled: return "cancelled";
  }
  return "unknown";
}

namespace internal {

void DieWithStatus(const Status& status) {
  std::fprintf(stderr, "recflow: a value was taken from a failed Result (%s): %s\n",
               std::string(StatusCodeName(status.code())).c_str(), status.ToString().c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace internal

}  // namespace recflow
