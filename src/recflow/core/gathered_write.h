// Gathered writes: byte pieces handed to writev(2)/pwritev(2)/sendmsg(2) in batches of IOV_MAX, resumed after partial writes; closing a written descriptor.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/status.h"

namespace recflow {

/// The pieces of one gathered write that the kernel has not taken yet, as iovecs.
class IovecCursor {
 public:
  /// Appends `piece` (an empty one is skipped). The bytes must stay valid until written.
  void Add(std::string_view piece);
  /// Appends every piece of `pieces`.
  void AddAll(std::span<const std::string_view> pieces);
  /// The next iovecs to hand to one system call: at most IOV_MAX, starting at the first byte
  /// not written. Empty when everything was written.
  std::span<iovec> Next();
  /// Marks `n` bytes (at most those left) as written: whole pieces are dropped, a piece written
  /// in part starts after what was written.
  void Advance(size_t n);
  /// True when every byte was written.
  bool done() const { return first_ == pieces_.size(); }
  /// Bytes not written yet.
  size_t remaining() const { return remaining_; }

 private:
  std::vector<iovec> pieces_;
  size_t first_ = 0;      // first piece not written completely
  size_t remaining_ = 0;  // bytes from first_ on
};

/// Writes everything `pieces` holds to `fd` with writev(2), retrying partial writes and EINTR;
/// an error names `name` and says how many bytes of this write went out before it.
Status WritevAll(int fd, const std::string& name, IovecCursor& pieces);

/// Writes everything `pieces` holds to `fd` from byte `offset` on with pwritev(2), retrying
/// partial writes and EINTR; the descriptor's file offset is left alone, so threads may write
/// distinct ranges of one file at once. An error names `name` and the offset of the write.
Status PwritevAll(int fd, const std::string& name, int64_t offset, IovecCursor& pieces);

/// Ends the writes to `fd`: fsync(2) first when `sync` (EINVAL, a descriptor that cannot sync
/// such as a pipe, is not an error), then close(2) when `close_fd`. The first failure is returned,
/// naming `name`; the descriptor is closed (when asked) even after a failed fsync.
Status FinishWrites(int fd, const std::string& name, bool sync, bool close_fd);

/// The sum of the sizes of `pieces`.
size_t TotalSize(std::span<const std::string_view> pieces);

}  // namespace recflow
