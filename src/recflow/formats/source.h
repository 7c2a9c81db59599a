// Source: a format reader split into a serial part that cuts the input into units and a
// parallel part that decodes one unit into a RecordBatch — the contract of convert's pipeline.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// A record a source left out under a skip-bad-records policy.
struct SkippedRecord {
  /// The record's raw text (a CSV row or JSON line without its terminator; empty for binary
  /// formats).
  std::string text;
  /// Why: a DataError naming the file, byte offset and (where known) line, record and field.
  /// Its record index is relative to the unit; the pipeline rebases it (see DecodedUnit).
  Status error;
};

/// What decoding one unit produced.
struct DecodedUnit {
  /// The unit's records, in input order, in the source's schema (may have zero rows).
  std::shared_ptr<RecordBatch> batch;
  /// Records left out, in input order.
  std::vector<SkippedRecord> skipped;
  /// Input records the unit covered (decoded + skipped), so record indices can be rebased.
  int64_t input_records = 0;
};

/// A mark that flows in input order between units and carries no rows: a watermark (no later
/// record of the input has an earlier event time), a timer firing, or the processing-time clock
/// moving on (a test stream's clock). What streaming builds its windows on; a bounded file input
/// sends none.
struct FlowToken {
  enum class Kind { kWatermark, kTimer, kProcessingTime };
  Kind kind = Kind::kWatermark;
  /// The watermark's event time, the time the timer fires at, or the processing time now (epoch
  /// milliseconds for the first and the last).
  int64_t time = 0;
};

/// One independently decodable piece of input (a CSV block of whole rows, a run of TFRecord
/// records, an Avro block). Decode() may run on any thread, concurrently with other units'
/// Decode() and with Source::NextUnit(); a unit is decoded at most once. A unit owns (or
/// shares) everything Decode() needs: it may be decoded after its Source is destroyed (inputs
/// read one after another drop a file's source while its last units are still in flight).
class SourceUnit {
 public:
  virtual ~SourceUnit() = default;
  /// Decodes the unit. Errors carry file and byte offset; record indices in them are relative
  /// to the unit's first record (the pipeline adds the records of earlier units).
  virtual Result<DecodedUnit> Decode() = 0;
  /// Input bytes (as read from disk, compressed or not) the unit consumed, for progress.
  virtual int64_t input_bytes() const = 0;
  /// A token that follows the unit's records, in input order (none by default). A unit made
  /// only to carry a token decodes to zero rows. Called once per unit, from the reading thread.
  virtual std::optional<FlowToken> token() const { return std::nullopt; }
};

/// A reader that yields units in input order. NextUnit() is called from one thread at a time;
/// memory held by the source itself stays bounded (about one unit) whatever the input size.
class Source {
 public:
  virtual ~Source() = default;
  /// The schema every unit's batch has.
  virtual const SchemaPtr& schema() const = 0;
  /// The next unit in input order, or nullptr after the last one. After an error, every
  /// call returns it.
  virtual Result<std::unique_ptr<SourceUnit>> NextUnit() = 0;
  /// The input's name for messages.
  virtual const std::string& name() const = 0;
  /// The file the unit NextUnit() returned last came from (name() when there is one file).
  virtual const std::string& current_file() const { return name(); }
  /// The input's size in bytes as stored (for progress and ETA), or -1 when unknown.
  virtual int64_t stored_bytes() const { return -1; }
  /// The run committed every output the records this source returned went into (called once,
  /// after the last NextUnit, never when the run failed or was cancelled): a source whose
  /// records are acknowledged (a broker's messages) acknowledges them now. Does nothing by
  /// default.
  virtual Status Committed() { return Status::OK(); }
  /// True for an input with no end of its own (a directory watch, a broker subscription): a
  /// drain (ExecContext::drain_token) ends it, and it is never asked for another unit after.
  virtual bool unbounded() const { return false; }
};

/// A unit whose records are decoded already (a batch held in memory, messages decoded on the
/// reading thread): Decode() hands `decoded` over. `input_bytes` and `token` as SourceUnit's.
std::unique_ptr<SourceUnit> MakeDecodedUnit(DecodedUnit decoded, int64_t input_bytes,
                                            std::optional<FlowToken> token = std::nullopt);

/// MakeDecodedUnit of `batch`, every row of it an input record.
std::unique_ptr<SourceUnit> MakeBatchUnit(std::shared_ptr<RecordBatch> batch, int64_t input_bytes,
                                          std::optional<FlowToken> token = std::nullopt);

/// unit.Decode(), with an allocation failure (std::bad_alloc) turned into an OutOfMemory status
/// that the caller decorates with the file and record like any other decoding error: a huge
/// input never ends the process with a bare bad_alloc. Callers decode units through this.
Result<DecodedUnit> DecodeUnit(SourceUnit& unit);

/// source.NextUnit(), with an allocation failure turned into an OutOfMemory status naming
/// source.current_file(). Callers take units through this.
Result<std::unique_ptr<SourceUnit>> NextSourceUnit(Source& source);

}  // namespace recflow
