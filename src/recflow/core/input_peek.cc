// PeekInput: the head of an input read for detection and, for non-seekable inputs, kept to be read again.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "recflow/core/input_peek_internal.h"

namespace recflow {

namespace {

/// One input being peeked: its lock is held while its head is read, so a slow writer blocks
/// only those who peek or open this input.
struct PeekedInput {
  std::mutex mutex;
  std::unique_ptr<FileInputStream> stream;  // null once FileInputStream::Open took it
};

/// Non-seekable inputs whose head was peeked, by path, until FileInputStream::Open takes them.
struct PeekedInputs {
  std::mutex mutex;  // guards the map only, never held while reading
  std::map<std::string, std::shared_ptr<PeekedInput>> inputs;
};

PeekedInputs& Peeked() {
  static PeekedInputs* peeked = new PeekedInputs();  // never destroyed: used until exit
  return *peeked;
}

/// The entry of `path`, created when absent.
std::shared_ptr<PeekedInput> EntryOf(const std::string& path) {
  PeekedInputs& peeked = Peeked();
  std::lock_guard<std::mutex> lock(peeked.mutex);
  std::shared_ptr<PeekedInput>& entry = peeked.inputs[path];
  if (entry == nullptr) entry = std::make_shared<PeekedInput>();
  return entry;
}

/// Forgets `path` when its entry is still `entry` and holds no stream.
void DropIfEmpty(const std::string& path, const std::shared_ptr<PeekedInput>& entry) {
  PeekedInputs& peeked = Peeked();
  std::lock_guard<std::mutex> lock(peeked.mutex);
  auto it = peeked.inputs.find(path);
  if (it != peeked.inputs.end() && it->second == entry && entry->stream == nullptr) peeked.inputs.erase(it);
}

/// One read(2) of up to `want` more bytes appended to `head`; returns how many came (0: the end).
Result<size_t> ReadOnce(int fd, const std::string& name, size_t want, std::string* head) {
  const size_t before = head->size();
  head->resize(before + want);
  ssize_t got;
  do {
    got = ::read(fd, head->data() + before, want);
  } while (got < 0 && errno == EINTR);
  if (got < 0) {
    const int err = errno;
    head->resize(before);
    return Status::IOError(name + ": cannot read: " + std::strerror(err));
  }
  head->resize(before + static_cast<size_t>(got));
  return static_cast<size_t>(got);
}

}  // namespace

namespace internal {

std::unique_ptr<FileInputStream> TakePeekedInput(const std::string& path) {
  std::shared_ptr<PeekedInput> entry;
  {
    PeekedInputs& peeked = Peeked();
    std::lock_guard<std::mutex> lock(peeked.mutex);
    auto it = peeked.inputs.find(path);
    if (it == peeked.inputs.end()) return nullptr;
    entry = it->second;
  }
  std::unique_ptr<FileInputStream> stream;
  {
    std::lock_guard<std::mutex> lock(entry->mutex);  // waits for a peek in progress
    stream = std::move(entry->stream);
  }
  DropIfEmpty(path, entry);
  return stream;
}

}  // namespace internal

Result<std::string> PeekInput(const std::string& path, int64_t n, const PeekEnough& enough) {
  if (n < 0) return Status::InvalidArgument("PeekInput: negative size");
  std::shared_ptr<PeekedInput> entry = EntryOf(path);
  std::unique_lock<std::mutex> lock(entry->mutex);
  if (entry->stream == nullptr) {
    Result<std::unique_ptr<FileInputStream>> opened = FileInputStream::OpenUnpeeked(path);
    if (!opened.ok()) {
      lock.unlock();
      DropIfEmpty(path, entry);
      return opened.status();
    }
    entry->stream = std::move(opened).ValueUnsafe();
  }
  FileInputStream& in = *entry->stream;
  const bool regular = in.regular_size_ >= 0;
  const size_t want = static_cast<size_t>(n);
  std::string& head = in.peeked_;
  // Read more only for an input seen from the start: never after Read returned its bytes. A
  // regular file does not block: its head is read whole; anything else only until it is enough.
  while (in.position_ == 0 && head.size() < want && (regular || enough == nullptr || !enough(head))) {
    Result<size_t> got = ReadOnce(in.fd_, in.name_, want - head.size(), &head);
    if (!got.ok()) return got.status();
    if (*got == 0) break;
  }
  std::string out = head.substr(0, want);
  if (regular) {  // a regular file reopens at its start: nothing needs keeping
    entry->stream.reset();
    lock.unlock();
    DropIfEmpty(path, entry);
  }
  return out;
}

}  // namespace recflow
