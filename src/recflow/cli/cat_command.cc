// `recflow cat`: sample-based schema inference, then batched decoding rendered as JSON Lines.
#include "recflow/cli/cat_command.h"

#include <algorithm>
#include <cstdint>

#include <fmt/core.h>

#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"

namespace recflow::cli {
namespace {

/// The inferred schema and whether every record (certainly) took part.
struct Inference {
  SchemaPtr schema;
  bool complete = true;
};

/// Observes up to kInferenceSample records (all with --infer-all): an even share of the
/// remaining budget from the start of each file in turn.
Result<Inference> InferSchema(const Inputs& inputs, bool infer_all) {
  Inference inference;
  example::SchemaInferrer inferrer(inputs.record_type);
  int64_t budget = kInferenceSample;
  for (size_t k = 0; k < inputs.files.size(); ++k) {
    const auto files_left = static_cast<int64_t>(inputs.files.size() - k);
    const int64_t share = infer_all ? INT64_MAX : budget / files_left + (budget % files_left != 0);
    ASSIGN_OR_RETURN(auto file, InputFile::Open(inputs.files[k], inputs, /*warn=*/false, /*read_all=*/infer_all));
    std::string_view record;
    int64_t taken = 0;
    while (taken < share) {
      ASSIGN_OR_RETURN(bool more, file->Next(&record));
      if (!more) break;
      Status st = inferrer.Observe(record);
      if (!st.ok()) {
        // With --skip-corrupt the decoding pass reports (and skips) this record.
        if (inputs.reader_options.skip_corrupt) continue;
        return file->Decorate(st);
      }
      ++taken;
    }
    // Reading on to learn whether the file had more records could fail on a record that --limit
    // never reaches, so a full share counts as a partial sample.
    if (taken == share) inference.complete = false;
    budget -= std::min(budget, taken);
  }
  inference.schema = inferrer.Finish();
  return inference;
}

/// `st` with a hint that the schema came from a sample, keeping its context.
Status WithSampleHint(const Status& st) {
  Status out(st.code(), st.message() + " (the schema was inferred from a sample of " +
                            std::to_string(kInferenceSample) + " records; --infer-all observes every record)");
  const ErrorContext& where = st.context();
  if (!where.file.empty()) out = out.WithFile(where.file);
  if (where.offset >= 0) out = out.WithOffset(where.offset);
  if (where.record >= 0) out = out.WithRecord(where.record);
  if (!where.field.empty()) out = out.WithField(where.field);
  return out;
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

}  // namespace

CLI::App* AddCatCommand(CLI::App* app, CatFlags* flags) {
  CLI::App* cmd = app->add_subcommand("cat", "Print records as JSON Lines (one object per record)");
  AddInputFlags(cmd, &flags->inputs);
  cmd->add_option("-n,--limit", flags->limit, "Print at most N records")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--infer-all", flags->infer_all,
                fmt::format("Infer the schema from every record (default: {} spread over the inputs)",
                            kInferenceSample));
  cmd->footer(
      "Values follow the inferred schema: scalars for scalar columns, arrays for lists, null for "
      "missing features. Floats print in the shortest form that round-trips; NaN and infinities as "
      "the strings \"NaN\", \"Infinity\", \"-Infinity\". Bytes print as UTF-8 strings when valid, "
      "else as {\"$base64\": \"...\"}. SequenceExample records print as "
      "{\"context\": {...}, \"feature_lists\": {...}}.");
  return cmd;
}

Status RunCat(const CatFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs));
  ASSIGN_OR_RETURN(Inference inference, InferSchema(inputs, flags.infer_all));
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(inference.schema, inputs.record_type));
  RowPrinter printer(*inference.schema, inputs.record_type, flags.limit, out);
  int64_t corrupt = 0;
  auto print_decoded = [&]() -> Status {
    ASSIGN_OR_RETURN(auto batch, decoder->Finish());
    return printer.Print(*batch);
  };
  for (const auto& path : inputs.files) {
    if (printer.done()) break;
    ASSIGN_OR_RETURN(auto file, InputFile::Open(path, inputs, /*warn=*/true, /*read_all=*/flags.limit < 0));
    std::string_view record;
    while (!printer.done()) {
      ASSIGN_OR_RETURN(bool more, file->Next(&record));
      if (!more) break;
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

}  // namespace recflow::cli
