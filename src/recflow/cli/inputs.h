// The flags every reading command shares and the inputs they resolve to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/cli/source_flags.h"
#include "recflow/core/result.h"
#include "recflow/dataset/dataset_factory.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::cli {

/// Raw values of the input flags, as parsed by CLI11.
struct InputFlags {
  std::vector<std::string> paths;
  std::string record_type = "example";
  std::string compression = "auto";
  bool no_verify = false;
  bool skip_corrupt = false;
};

/// The files to read and how to read them.
struct Inputs {
  /// How the flags say to read them (ReadSpecOf).
  dataset::InputSpec spec;
  /// Expanded (directories walked, globs matched), partitions discovered and each file detected,
  /// once per command (dataset::DetectInputs).
  dataset::ResolvedInputs resolved;
  example::RecordType record_type = example::RecordType::kExample;
  /// As the flags say; a file is read with its detected codec unless --compression names one
  /// (tfrecord::WithDetectedCodec).
  tfrecord::ReaderOptions reader_options;
};

/// The read spec of a command reading records: InputSpecOf(source) with --record-type, corrupt
/// records skipped with --skip-corrupt, and the TFRecord reader words of --compression,
/// --no-verify and --skip-corrupt.
dataset::InputSpec ReadSpecOf(const InputFlags& flags, const SourceFlags& source);

/// Detects the inputs (dataset::DetectInputs with --from) and converts the flags. Detection
/// errors (a format recflow does not read, bytes that say nothing) end here, before any reading.
Result<Inputs> ResolveInputs(const InputFlags& flags, const SourceFlags& source);

/// A reader of `file` ("-": standard input, streamed) with inputs.reader_options and its detected
/// codec.
Result<std::unique_ptr<tfrecord::RecordReader>> OpenRecordReader(const dataset::ResolvedInput& file,
                                                                 const Inputs& inputs);

/// Reads the records of one input, optionally printing a warning to stderr for each corrupt
/// region the reader skips (with --skip-corrupt).
class InputFile {
 public:
  /// Opens `file` as OpenRecordReader does.
  static Result<std::unique_ptr<InputFile>> Open(const dataset::ResolvedInput& file, const Inputs& inputs, bool warn);

  /// Next record; false at end.
  Result<bool> Next(std::string_view* record);
  /// The underlying reader (record index and offset of the last record, counters).
  const tfrecord::RecordReader& reader() const { return *reader_; }
  /// A record-level error (undecodable record) decorated with this file, record and offset.
  Status Decorate(const Status& st) const;

  /// Use Open().
  InputFile(std::unique_ptr<tfrecord::RecordReader> reader, bool warn) : reader_(std::move(reader)), warn_(warn) {}

 private:
  std::unique_ptr<tfrecord::RecordReader> reader_;
  bool warn_;
  int64_t warned_ = 0;  // corrupt regions already reported
};

/// Prints "recflow: warning: <status>" to stderr.
void Warn(const Status& st);

}  // namespace recflow::cli
