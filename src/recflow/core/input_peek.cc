// PeekInput: the head of an input read for detection and, for non-seekable inputs, kept to be read again.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "recflow/core/input_peek_internal.h"

namespace recflow {

namespace {

/// Non-seekable inputs whose head was peeked, by path, until FileInputStream::Open takes them.
struct PeekedInputs {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<FileInputStream>> streams;
};

PeekedInputs& Peeked() {
  static PeekedInputs* peeked = new PeekedInputs();  // never destroyed: used until exit
  return *peeked;
}

}  // namespace

namespace internal {

std::unique_ptr<FileInputStream> TakePeekedInput(const std::string& path) {
  PeekedInputs& peeked = Peeked();
  std::lock_guard<std::mutex> lock(peeked.mutex);
  auto it = peeked.streams.find(path);
  if (it == peeked.streams.end()) return nullptr;
  std::unique_ptr<FileInputStream> stream = std::move(it->second);
  peeked.streams.erase(it);
  return stream;
}

}  // namespace internal

Result<std::string> PeekInput(const std::string& path, int64_t n) {
  if (n < 0) return Status::InvalidArgument("PeekInput: negative size");
  PeekedInputs& peeked = Peeked();
  std::lock_guard<std::mutex> lock(peeked.mutex);
  std::unique_ptr<FileInputStream>& kept = peeked.streams[path];
  if (kept == nullptr) {
    Result<std::unique_ptr<FileInputStream>> opened = FileInputStream::OpenUnpeeked(path);
    if (!opened.ok()) {
      peeked.streams.erase(path);
      return opened.status();
    }
    kept = std::move(opened).ValueUnsafe();
  }
  FileInputStream& in = *kept;
  // Read more only for an input seen from the start: never after Read returned its bytes.
  if (in.position_ == 0) {
    std::string& head = in.peeked_;
    const size_t want = static_cast<size_t>(n);
    while (head.size() < want) {
      const size_t before = head.size();
      head.resize(want);
      ssize_t got;
      do {
        got = ::read(in.fd_, head.data() + before, want - before);
      } while (got < 0 && errno == EINTR);
      if (got < 0) {
        const int err = errno;
        head.resize(before);
        return Status::IOError(in.name_ + ": cannot read: " + std::strerror(err));
      }
      head.resize(before + static_cast<size_t>(got));
      if (got == 0) break;
    }
  }
  std::string head = in.peeked_.substr(0, static_cast<size_t>(n));
  // A regular file reopens at its start: nothing needs keeping.
  if (in.regular_size_ >= 0) peeked.streams.erase(path);
  return head;
}

}  // namespace recflow
