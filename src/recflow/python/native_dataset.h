// NativeDataset: what recflow.read opens — inputs detected once, their schema, their splits, and reads of all of them
// or of some splits as Arrow C streams fed by the engine's run thread.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "recflow/columnar/c_data_abi.h"
#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/dataset/io_specs.h"

namespace recflow::python {

/// `inputs` (read with `options`) cut into splits of about `target_bytes` (dataset::MakeSplits),
/// each as its JSON line (dataset::SplitToJson).
Result<std::vector<std::string>> SplitLines(const dataset::ResolvedInputs& inputs, const dataset::InputOptions& options,
                                            int64_t target_bytes);

/// Inputs read from Python: files, directories, globs and Hive partitions of any registered
/// format, detected and opened (schema settled) once. Thread-safe.
class NativeDataset {
 public:
  /// Detects `paths` (dataset::DetectInputs) and settles their schema (dataset::OpenInputs), read
  /// as `spec` says, on the local file system, whose mappings of files this dataset's reads keep
  /// for the next reads (KeptMappings).
  static Result<std::shared_ptr<NativeDataset>> Open(const std::vector<std::string>& paths,
                                                     const dataset::InputSpec& spec);

  /// The columns every batch has: the data columns, then the Hive partition columns.
  const SchemaPtr& schema() const { return schema_; }

  /// The inputs cut into splits of about `target_bytes` (dataset::MakeSplits), each as its JSON
  /// line (dataset::SplitToJson): the pieces DataLoader workers and ranks share out.
  Result<std::vector<std::string>> Splits(int64_t target_bytes) const;

  /// Fills `out` with a stream of every record, in input order, decoded by the stage executor on
  /// `threads` threads (0: every core) on a thread of its own (ExportRunStream over
  /// pipeline::ReadIntoStream). Releasing the stream early stops the read, and so does a stop
  /// requested on `stop` (the stream's stop source, see ExportRunStream).
  Status Read(int threads, ArrowArrayStream* out, StopSource stop = StopSource());

  /// The records of `splits` (SplitToJson lines of this dataset's inputs), in the order given,
  /// as one Source (dataset::OpenSplits with this dataset's schema).
  Result<std::unique_ptr<Source>> OpenSplits(const std::vector<std::string>& splits) const;
  /// As Read, over the records of `splits` (SplitToJson lines of this dataset's inputs), in the
  /// order given (dataset::OpenSplits with this dataset's schema).
  Status ReadSplits(const std::vector<std::string>& splits, int threads, ArrowArrayStream* out,
                    StopSource stop = StopSource()) const;

 private:
  NativeDataset() = default;

  /// Streams `source` as Read says.
  Status Stream(std::shared_ptr<Source> source, int threads, ArrowArrayStream* out, StopSource stop) const;

  dataset::ResolvedInputs inputs_;
  dataset::InputOptions options_;
  SchemaPtr schema_;
  std::mutex mutex_;
  std::unique_ptr<Source> unread_;  ///< the Source the schema was settled with, until the first Read takes it
};

}  // namespace recflow::python
