// ReadOptions: batching, memory limits and bad-block policy of an Avro object container file reader.
#pragma once

#include <cstdint>
#include <functional>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/status.h"
#include "recflow/formats/source.h"

namespace recflow::avro {

/// What a reader does with a container block it cannot read.
enum class BadBlocksMode : uint8_t {
  kFail,  ///< stop with a DataError naming file, byte offset, record and (for values) field
  kSkip,  ///< leave the block out, report it, and resume after the next sync marker
};

/// How an AvroReader or an Avro Source reads its input.
struct ReadOptions {
  /// Records per RecordBatch of an AvroReader (the last batch may be shorter). Sources make
  /// one batch per container block instead.
  int64_t batch_rows = 65536;
  /// Largest block accepted, both as stored and decompressed: a guard against decompression
  /// bombs and hostile block sizes. 256 MiB.
  int64_t max_block_bytes = int64_t{256} << 20;
  /// Fail on the first bad block, or skip bad blocks.
  BadBlocksMode bad_blocks = BadBlocksMode::kFail;
  /// Receives every skipped block (AvroReader with BadBlocksMode::kSkip; a Source reports them
  /// in DecodedUnit::skipped instead). The SkippedRecord's text is empty.
  std::function<void(const SkippedRecord&)> on_skipped_block;
  /// Where files opened by path are found ("-", standard input, is always the process's own).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();

  /// 65536 records per batch, blocks of up to 256 MiB, fail on bad blocks, local files.
  static ReadOptions Defaults() { return {}; }
  /// Checks that batch_rows and max_block_bytes are positive and there is a file system.
  Status Validate() const;
};

}  // namespace recflow::avro
