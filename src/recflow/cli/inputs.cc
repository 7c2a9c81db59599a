// Input flags, their resolution, and record reading with corrupt-record warnings.
#include "recflow/cli/inputs.h"

#include <fmt/core.h>

#include "recflow/core/io.h"
#include "recflow/core/printable.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/tfrecord/tfrecord_format.h"

namespace recflow::cli {

dataset::InputSpec ReadSpecOf(const InputFlags& flags, const SourceFlags& source) {
  dataset::InputSpec spec = InputSpecOf(source, flags.record_type, flags.skip_corrupt);
  spec.args.Set("compression", flags.compression);
  spec.args.Set("verify_crc", flags.no_verify ? "false" : "true");
  spec.args.Set("skip_corrupt", flags.skip_corrupt ? "true" : "false");
  return spec;
}

Result<Inputs> ResolveInputs(const InputFlags& flags, const SourceFlags& source) {
  Inputs inputs;
  inputs.spec = ReadSpecOf(flags, source);
  ASSIGN_OR_RETURN(const formats::FormatDescriptor* format, formats::BuiltinFormats().ParseInputFormat(source.from));
  ASSIGN_OR_RETURN(inputs.resolved, dataset::DetectInputs(flags.paths, format));
  ASSIGN_OR_RETURN(inputs.record_type, example::ParseRecordType(flags.record_type));
  ASSIGN_OR_RETURN(inputs.reader_options, tfrecord::ReaderOptionsFromArgs(inputs.spec.args));
  return inputs;
}

Result<std::unique_ptr<tfrecord::RecordReader>> OpenRecordReader(const dataset::ResolvedInput& file,
                                                                 const Inputs& inputs) {
  return tfrecord::RecordReader::Open(file.path, tfrecord::WithDetectedCodec(inputs.reader_options, file.detected));
}

Result<std::unique_ptr<InputFile>> InputFile::Open(const dataset::ResolvedInput& file, const Inputs& inputs,
                                                   bool warn) {
  ASSIGN_OR_RETURN(std::unique_ptr<tfrecord::RecordReader> reader, OpenRecordReader(file, inputs));
  return std::make_unique<InputFile>(std::move(reader), warn);
}

Result<bool> InputFile::Next(std::string_view* record) {
  auto more = reader_->Next(record);
  const auto& problems = reader_->problems();
  for (; warn_ && warned_ < reader_->corrupt_records(); ++warned_) {
    if (static_cast<size_t>(warned_) < problems.size()) {
      Warn(problems[static_cast<size_t>(warned_)]);
    } else if (static_cast<size_t>(warned_) == problems.size()) {
      Warn(Status::DataError("more corrupt records skipped (only the first " + std::to_string(problems.size()) +
                             " are described)")
               .WithFile(reader_->name()));
    }
  }
  return more;
}

Status InputFile::Decorate(const Status& st) const {
  return st.WithFile(reader_->name()).WithRecord(reader_->record_index()).WithOffset(reader_->record_offset());
}

void Warn(const Status& st) { fmt::print(stderr, "recflow: warning: {}\n", PrintableText(st.ToString())); }

}  // namespace recflow::cli
