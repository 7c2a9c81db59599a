// BlockSource: reads a CSV stream in blocks that end on row boundaries (the parallel-parse unit).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/formats/csv/chunker.h"

namespace recflow::csv {

/// A run of whole rows, parseable on its own (see ParseBlock).
struct Block {
  /// The bytes.
  std::shared_ptr<Buffer> data;
  /// Byte offset of data[0] in the input (a skipped BOM counts).
  int64_t offset = 0;
  /// 1-based line of data[0].
  int64_t first_line = 1;
};

/// Reads `block_size` bytes at a time, skips a leading UTF-8 BOM, and cuts after the last row
/// boundary the Chunker finds; the incomplete last row is carried into the next block.
/// Memory: one block plus the longest row, bounded by `max_row_bytes`.
class BlockSource {
 public:
  /// Reads `in` with the given dialect and sizes (validated by ReadOptions::Validate).
  BlockSource(std::unique_ptr<InputStream> in, const Dialect& dialect, int64_t block_size, int64_t max_row_bytes);

  /// The next block, or nullopt at the end of the input.
  Result<std::optional<Block>> Next();
  /// The input's name for error messages.
  const std::string& name() const { return in_->name(); }

 private:
  Block Cut(int64_t length);

  std::unique_ptr<InputStream> in_;
  Chunker chunker_;
  int64_t block_size_;
  int64_t max_row_bytes_;
  std::string pending_;  // bytes after the last cut, all scanned by the chunker
  int64_t offset_ = 0;   // input offset of pending_[0]
  int64_t next_line_ = 1;
  bool started_ = false;
  bool at_end_ = false;
};

}  // namespace recflow::csv
