// OutputFormat: how convert's sink turns rows into the bytes of a data file (TFRecord, JSON
// Lines, CSV, Arrow IPC); compression and sharding are the sink's business, not the format's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// Serialized records, back to back, with the end offset of each.
struct EncodedRecords {
  /// The bytes of every record, framing included (a TFRecord frame, a JSON line with its LF).
  std::string bytes;
  /// ends[i] is the offset just past record i in `bytes`; ends is ascending.
  std::vector<int64_t> ends;
  /// Empties both, keeping their capacity.
  void Clear() {
    bytes.clear();
    ends.clear();
  }
};

/// Serializes rows; one per thread (an encoder may keep scratch state and counters).
class RecordEncoder {
 public:
  virtual ~RecordEncoder() = default;
  /// Appends the rows `rows` (indices into `batch`, any order, repeats allowed) of `batch`,
  /// whose schema equals the format's, to `*out`, one entry of out->ends per row. On error
  /// nothing is appended; the Status names the column (field) and the row index in `batch`
  /// (record).
  virtual Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) = 0;
  /// float64 values written as float32 that do not round-trip (TFRecord only; else 0).
  virtual int64_t narrowed_doubles() const { return 0; }
};

/// Where an encoded batch sits in a data file (for formats whose files index their batches).
struct BatchBlock {
  int64_t offset = 0;           ///< from the start of the file
  int64_t metadata_length = 0;  ///< bytes of framing and metadata before the body
  int64_t body_length = 0;
};

/// One framed batch of rows, as a batch-encoded format writes it, possibly preceded by
/// messages it needs (Arrow: dictionary batches). Its bytes are pieces that point into memory
/// `keep` holds (the rows' own buffers among them), so that the sink writes them with one
/// gathered write and no copy (OutputStream::WriteGathered).
struct EncodedBatch {
  std::vector<std::string_view> pieces;  ///< the bytes, in order
  std::shared_ptr<const void> keep;      ///< owns what `pieces` point into
  int64_t size = 0;                      ///< bytes of all the pieces
  BatchBlock block;  ///< the batch; its offset is from the start of the bytes (the sink places them)
  std::vector<BatchBlock> dictionary_blocks;  ///< the dictionary batches before it, likewise
};

/// What a batch-encoded format keeps about one data file while its batches are assigned, in
/// file order (Arrow: the dictionaries the file already holds).
class BatchFileState {
 public:
  virtual ~BatchFileState() = default;
};

/// What one batch of a file needs besides its rows, decided in file order by PlanBatch (Arrow:
/// the dictionary batches to write before it and index rewrites). Immutable.
class BatchPlan {
 public:
  virtual ~BatchPlan() = default;
};

/// Formats whose files hold batches of rows rather than independently framed records (Arrow
/// IPC): the sink gives them each run of rows that lands in one file, and ends each file with
/// a trailer that may index the batches. Their RecordEncoder only measures rows (EncodedRecords
/// with estimated sizes and no bytes), for size-based sharding. Each file has a state that
/// PlanBatch advances run by run in file order (one thread at a time), so that EncodeBatch can
/// then run on any thread and the bytes of a file do not depend on threads or timing.
class BatchEncoding {
 public:
  virtual ~BatchEncoding() = default;
  /// A fresh state for one data file.
  virtual std::unique_ptr<BatchFileState> NewFileState() const = 0;
  /// Plans the next run of the file of `state`, rows of `batch`, and advances `state` past it.
  /// The plan may be null (nothing needed).
  virtual Result<std::shared_ptr<const BatchPlan>> PlanBatch(BatchFileState* state, const RecordBatch& batch) const = 0;
  /// Encodes the rows `rows` of `batch` (in that order) as one batch, after what `plan` (from
  /// PlanBatch for this run; may be null) says must precede it. Thread-safe.
  virtual Result<EncodedBatch> EncodeBatch(const RecordBatch& batch, std::span<const int64_t> rows,
                                           const BatchPlan* plan) const = 0;
  /// The bytes that end a file whose dictionary batches are `dictionaries` and record batches `blocks`.
  virtual std::string FileTrailer(const std::vector<BatchBlock>& dictionaries,
                                  const std::vector<BatchBlock>& blocks) const = 0;
};

/// A data file format of convert's output. Immutable and shareable across threads.
class OutputFormat {
 public:
  virtual ~OutputFormat() = default;
  /// The format's name as the CLI spells it ("tfrecord", "jsonl", "csv").
  virtual std::string name() const = 0;
  /// The file name suffix before any compression suffix (".tfrecord", ".jsonl", ".csv").
  virtual std::string suffix() const = 0;
  /// A fresh encoder for one thread.
  virtual Result<std::unique_ptr<RecordEncoder>> NewEncoder() const = 0;
  /// Bytes every file starts with (a CSV header line); empty by default.
  virtual std::string FileHeader() const { return {}; }
  /// Non-null for batch-encoded formats (see BatchEncoding).
  virtual const BatchEncoding* batch_encoding() const { return nullptr; }
};

}  // namespace recflow
