// The flags every reading command shares and the inputs they resolve to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/pipeline/io_specs.h"

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
  std::vector<std::string> files;  ///< expanded: directories walked, globs matched
  example::RecordType record_type = example::RecordType::kExample;
  tfrecord::ReaderOptions reader_options;
};

/// The TFRecord reader options the flags ask for (--compression, --no-verify, --skip-corrupt,
/// --max-record-bytes).
Result<tfrecord::ReaderOptions> ReaderOptionsFromFlags(const InputFlags& flags, const pipeline::InputSpec& source);

/// Expands the paths (ExpandInputs) and converts the flags.
Result<Inputs> ResolveInputs(const InputFlags& flags, const pipeline::InputSpec& source);

/// A reader of `path` ("-": standard input, streamed) with inputs.reader_options; `read_all` is false
/// when only the first records will be read (compressed input is then inflated as consumed).
Result<std::unique_ptr<tfrecord::RecordReader>> OpenRecordReader(const std::string& path, const Inputs& inputs,
                                                                 bool read_all);

/// Reads the records of one input, optionally printing a warning to stderr for each corrupt
/// region the reader skips (with --skip-corrupt).
class InputFile {
 public:
  /// Opens `path` ("-": standard input, streamed) with inputs.reader_options.
  /// `read_all` is false when only the first records will be read (compressed input is then
  /// inflated as consumed, not whole).
  static Result<std::unique_ptr<InputFile>> Open(const std::string& path, const Inputs& inputs, bool warn,
                                                 bool read_all = true);

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
