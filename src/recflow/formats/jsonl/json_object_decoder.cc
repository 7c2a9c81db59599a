// JsonObjectDecoder: each object copied behind simdjson's padding, parsed and converted as a JSON Lines line is.
#include "recflow/formats/jsonl/json_object_decoder.h"

#include "recflow/formats/jsonl/read_options.h"
#include "recflow/formats/jsonl/record_converter_internal.h"
#include "recflow/formats/jsonl/record_parser_internal.h"

namespace recflow::jsonl {

Result<std::unique_ptr<JsonObjectDecoder>> JsonObjectDecoder::Make(SchemaPtr schema, int max_depth) {
  ReadOptions options = ReadOptions::Defaults();
  options.schema = schema;
  options.max_depth = max_depth;
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto converter, RecordConverter::Make(std::move(schema)));
  return std::make_unique<JsonObjectDecoder>(std::make_unique<RecordParser>(max_depth), std::move(converter));
}

JsonObjectDecoder::JsonObjectDecoder(std::unique_ptr<RecordParser> parser, std::unique_ptr<RecordConverter> converter)
    : parser_(std::move(parser)), converter_(std::move(converter)) {}

JsonObjectDecoder::~JsonObjectDecoder() = default;

Status JsonObjectDecoder::Append(std::string_view json) {
  padded_.assign(json);
  padded_.append(static_cast<size_t>(kLinePadding), '\0');
  Line line;
  line.text = std::string_view(padded_.data(), json.size());
  ASSIGN_OR_RETURN(simdjson::dom::element record, parser_->Parse(line));
  RETURN_NOT_OK(converter_->Check(record));
  return converter_->Append(record);
}

Result<std::shared_ptr<RecordBatch>> JsonObjectDecoder::Finish() { return converter_->Finish(); }

}  // namespace recflow::jsonl
