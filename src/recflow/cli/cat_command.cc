// `recflow cat`: sample-based schema inference, then batched decoding rendered as JSON Lines.
#include "recflow/cli/cat_command.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/core.h>

#include "recflow/cli/tabular_inputs.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/stream_client.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/tfrecord/sampled_schema.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"

namespace recflow::cli {
namespace {

/// Infers from kInferenceSample records spread over the inputs (all with --infer-all).
Result<tfrecord::SampledSchema> InferSchema(const Inputs& inputs, bool infer_all) {
  const std::vector<dataset::ResolvedInput>& files = inputs.resolved.files;
  auto open = [&](size_t k) { return OpenRecordReader(files[k], inputs); };
  // With --skip-corrupt the decoding pass reports (and skips) undecodable records.
  return tfrecord::InferSampledSchema(files.size(), open, inputs.record_type,
                                      infer_all ? INT64_MAX : kInferenceSample, inputs.reader_options.skip_corrupt);
}

/// `st` with a hint that the schema came from a sample, keeping its context.
Status WithSampleHint(const Status& st) {
  return st.WithNote(" (the schema was inferred from a sample of " + std::to_string(kInferenceSample) +
                     " records; --infer-all observes every record)");
}

/// Prints rows as JSON Lines until the limit is reached or the reader of `out` goes away.
class RowPrinter {
 public:
  RowPrinter(const Schema& schema, example::RecordType type, int64_t limit, StdoutWriter* out)
      : renderer_(schema, type == example::RecordType::kSequenceExample), limit_(limit), out_(out) {}

  /// Rows still wanted (INT64_MAX without a limit).
  int64_t remaining() const { return limit_ < 0 ? INT64_MAX : limit_ - printed_; }
  /// True when no more rows are wanted.
  bool done() const { return out_->closed() || remaining() <= 0; }

  /// Prints the rows of `batch` (as many as the limit allows).
  Status Print(const RecordBatch& batch) {
    jsonl::JsonWriter writer(out_->buffer());
    for (int64_t row = 0; row < batch.num_rows() && !done(); ++row) {
      RETURN_NOT_OK(renderer_.Render(batch, row, &writer));
      out_->buffer()->push_back('\n');
      ++printed_;
      RETURN_NOT_OK(out_->MaybeFlush());
    }
    return Status::OK();
  }

 private:
  jsonl::RowJsonRenderer renderer_;
  int64_t limit_;
  int64_t printed_ = 0;
  StdoutWriter* out_;
};

/// Prints the rows of a Source, unit by unit, until the limit; skipped records are warned about.
Status CatSource(Source* source, const CatFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(example::RecordType type, example::ParseRecordType(flags.inputs.record_type));
  RowPrinter printer(*source->schema(), type, flags.limit, out);
  int64_t seen = 0;  // input records before the next unit
  int64_t skipped = 0;
  while (!printer.done()) {
    ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, NextSourceUnit(*source));
    if (unit == nullptr) break;
    Result<DecodedUnit> decoded = DecodeUnit(*unit);
    if (!decoded.ok()) return decoded.status().RebaseRecord(seen);
    for (const SkippedRecord& record : decoded->skipped) Warn(record.error.RebaseRecord(seen));
    skipped += static_cast<int64_t>(decoded->skipped.size());
    seen += decoded->input_records;
    RETURN_NOT_OK(printer.Print(*decoded->batch));
  }
  RETURN_NOT_OK(out->Flush());
  if (flags.inputs.skip_corrupt) fmt::print(stderr, "recflow: {} corrupt record(s) skipped\n", skipped);
  return Status::OK();
}

/// Prints the batches a `recflow serve` endpoint sends for one pass.
Status CatEndpoint(const std::string& endpoint, const CatFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(auto client, serve::StreamClient::Connect(endpoint));
  RowPrinter printer(*client->schema(), example::RecordType::kExample, flags.limit, out);
  while (!printer.done()) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, client->Next());
    if (batch == nullptr) break;
    RETURN_NOT_OK(printer.Print(*batch));
  }
  return out->Flush();
}

/// Prints the records of TFRecord files (regular files: each is read twice): a sampled schema
/// first, then every record decoded in batches; the rows before a fault are printed before the
/// fault is returned.
Status CatRecords(const CatFlags& flags, const Inputs& inputs, StdoutWriter* out) {
  ASSIGN_OR_RETURN(tfrecord::SampledSchema inference, InferSchema(inputs, flags.infer_all));
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(inference.schema, inputs.record_type));
  RowPrinter printer(*inference.schema, inputs.record_type, flags.limit, out);
  int64_t corrupt = 0;
  auto print_decoded = [&]() -> Status {
    ASSIGN_OR_RETURN(auto batch, decoder->Finish());
    return printer.Print(*batch);
  };
  for (const dataset::ResolvedInput& input : inputs.resolved.files) {
    if (printer.done()) break;
    ASSIGN_OR_RETURN(auto file, InputFile::Open(input, inputs, /*warn=*/true));
    std::string_view record;
    while (!printer.done()) {
      Result<bool> more = file->Next(&record);
      if (!more.ok()) {
        if (decoder->num_rows() > 0) RETURN_NOT_OK(print_decoded());
        return more.status();
      }
      if (!*more) break;
      Status st = decoder->Append(record);
      if (!st.ok()) {
        if (!inputs.reader_options.skip_corrupt) {
          return inference.complete ? file->Decorate(st) : WithSampleHint(file->Decorate(st));
        }
        Warn(file->Decorate(st));
        ++corrupt;
        continue;
      }
      // Decode no further than the limit needs: a bad record past it must not fail the run.
      if (decoder->num_rows() >= std::min(kCatBatchRows, printer.remaining())) {
        RETURN_NOT_OK(print_decoded());
      }
    }
    corrupt += file->reader().corrupt_records();
  }
  if (decoder->num_rows() > 0) RETURN_NOT_OK(print_decoded());
  RETURN_NOT_OK(out->Flush());
  if (inputs.reader_options.skip_corrupt) {
    fmt::print(stderr, "recflow: {} corrupt record(s) skipped\n", corrupt);
  }
  return Status::OK();
}

Status CatInputs(const CatFlags& flags, StdoutWriter* out) {
  if (flags.inputs.paths.size() == 1 && serve::LooksLikeEndpoint(flags.inputs.paths[0])) {
    return CatEndpoint(flags.inputs.paths[0], flags, out);
  }
  if (flags.splits.given() == !flags.inputs.paths.empty()) {
    return Status::InvalidArgument("give PATH inputs or --split / --splits-from (one of them)");
  }
  if (flags.splits.given()) {
    ASSIGN_OR_RETURN(const std::vector<dataset::Split> splits, ReadSplitFlags(flags.splits));
    ASSIGN_OR_RETURN(const dataset::InputOptions options,
                     dataset::MakeInputOptions(ReadSpecOf(flags.inputs, flags.source), LocalFileSystem::Instance()));
    ASSIGN_OR_RETURN(std::unique_ptr<Source> source, OpenSplitInputs(splits, options));
    return CatSource(source.get(), flags, out);
  }
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  // Standard input and pipes cannot be read twice (a sample, then every record): a Source keeps
  // its sample.
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source,
                   OpenTabularInputs(inputs, /*pipes_as_source=*/true));
  if (source != nullptr) return CatSource(source.get(), flags, out);
  return CatRecords(flags, inputs, out);
}

}  // namespace

Status RunCat(const CatFlags& flags, StdoutWriter* out) {
  Status st = CatInputs(flags, out);
  if (!st.ok()) (void)out->Flush();  // the rows printed before a failure still go out
  return st;
}

}  // namespace recflow::cli
