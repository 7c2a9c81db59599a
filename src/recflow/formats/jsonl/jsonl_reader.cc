// JsonlReader: the inference sample, its replay, and the line → record → batch loop with bad-record policy.
#include "recflow/formats/jsonl/jsonl_reader.h"

#include <utility>

#include "recflow/formats/jsonl/inference_internal.h"
#include "recflow/formats/jsonl/line_source_internal.h"
#include "recflow/formats/jsonl/record_converter_internal.h"
#include "recflow/formats/jsonl/record_parser_internal.h"
#include "recflow/formats/schema_json.h"

namespace recflow::jsonl {

Result<std::unique_ptr<JsonlReader>> JsonlReader::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                             const ReadOptions& options) {
  return FromStream(std::make_unique<BufferInputStream>(std::move(data), std::move(name)), options);
}

Result<std::unique_ptr<JsonlReader>> JsonlReader::FromStream(std::unique_ptr<InputStream> in,
                                                             const ReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  auto reader = std::make_unique<JsonlReader>(std::move(in), options);
  RETURN_NOT_OK(reader->Init());
  return reader;
}

JsonlReader::JsonlReader(std::unique_ptr<InputStream> in, const ReadOptions& options)
    : options_(options), name_(in->name()) {
  source_ = std::make_unique<LineSource>(std::move(in), options_.block_size, options_.max_record_bytes);
  parser_ = std::make_unique<RecordParser>(options_.max_depth);
}

JsonlReader::~JsonlReader() = default;

Status JsonlReader::InferSchema() {
  TypeInference record(options_.infer_timestamps);
  bool whole_input = false;  // the sample reached the end of the input
  while (static_cast<int64_t>(sample_.size()) < options_.inference_rows) {
    ASSIGN_OR_RETURN(const std::optional<Line> line, source_->Next());
    whole_input = !line.has_value();
    if (!line.has_value()) break;
    sample_.push_back({sample_text_.size(), line->text.size(), line->offset, line->number});
    sample_text_.append(line->text).push_back('\n');
    auto parsed = parser_->Parse(*line);
    simdjson::dom::object object;
    if (parsed.ok() && !parsed->get_object().get(object)) record.ObserveMembers(object);
  }
  sample_text_.append(static_cast<size_t>(kLinePadding), ' ');
  // Past the sample a field may be null or missing: only a sample of the whole input decides.
  ASSIGN_OR_RETURN(schema_, ApplySchemaHints(Schema::Make(record.MakeMemberFields(options_.infer_nullability && whole_input)),
                                              options_.type_hints, name_));
  return Status::OK();
}

Status JsonlReader::Init() {
  if (options_.schema != nullptr) {
    schema_ = options_.schema;
  } else {
    RETURN_NOT_OK(InferSchema());
  }
  ASSIGN_OR_RETURN(converter_, RecordConverter::Make(schema_));
  return Status::OK();
}

Result<std::optional<Line>> JsonlReader::NextLine() {
  if (next_sampled_ < sample_.size()) {
    const SampledLine& s = sample_[next_sampled_++];
    return Line{std::string_view(sample_text_).substr(s.begin, s.size), s.offset, s.number};
  }
  if (!sample_.empty()) {  // the sample is replayed: release it
    sample_ = {};
    sample_text_ = {};
    next_sampled_ = 0;
  }
  return source_->Next();
}

Status JsonlReader::AppendLine(const Line& line) {
  Status st = ConvertLine(parser_.get(), converter_.get(), line, name_, next_record_++);
  if (st.ok() || options_.bad_rows == formats::BadRowsMode::kFail || st.code() != StatusCode::kDataError) return st;
  ++bad_rows_;
  if (options_.on_bad_row) options_.on_bad_row(formats::BadRow{line.text, line.number, std::move(st)});
  return Status::OK();
}

Status JsonlReader::FillBatch() {
  while (converter_->num_rows() < options_.batch_rows) {
    ASSIGN_OR_RETURN(const std::optional<Line> line, NextLine());
    if (!line.has_value()) return Status::OK();
    RETURN_NOT_OK(AppendLine(*line));
  }
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> JsonlReader::Next() {
  if (!error_.ok()) return error_;
  if (done_) return std::shared_ptr<RecordBatch>();
  Status st = FillBatch();
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  if (converter_->num_rows() == 0) {
    done_ = true;
    return std::shared_ptr<RecordBatch>();
  }
  return converter_->Finish();
}

}  // namespace recflow::jsonl
