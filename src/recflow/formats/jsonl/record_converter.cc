// RecordConverter: one builder per column, check-then-append per record, batches on Finish().
#include "recflow/formats/jsonl/record_converter_internal.h"

#include <utility>

namespace recflow::jsonl {

Result<std::unique_ptr<RecordConverter>> RecordConverter::Make(SchemaPtr schema) {
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  std::vector<ArrayBuilder*> pointers;
  for (const auto& field : schema->fields()) {
    ASSIGN_OR_RETURN(auto builder, MakeBuilder(field->type()));
    pointers.push_back(builder.get());
    builders.push_back(std::move(builder));
  }
  ASSIGN_OR_RETURN(auto writer, ColumnWriter::MakeRecord(*schema, pointers));
  return std::make_unique<RecordConverter>(std::move(schema), std::move(builders), std::move(writer));
}

RecordConverter::RecordConverter(SchemaPtr schema, std::vector<std::unique_ptr<ArrayBuilder>> builders,
                                 std::unique_ptr<ColumnWriter> writer)
    : schema_(std::move(schema)), builders_(std::move(builders)), writer_(std::move(writer)) {}

Status RecordConverter::Append(simdjson::dom::element record) {
  RETURN_NOT_OK(writer_->Append(&record));
  ++num_rows_;
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> RecordConverter::Finish() {
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(builders_.size());
  for (auto& builder : builders_) {
    ASSIGN_OR_RETURN(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  const int64_t rows = num_rows_;
  num_rows_ = 0;
  return RecordBatch::Make(schema_, rows, std::move(columns));
}

Status ConvertLine(RecordParser* parser, RecordConverter* converter, const Line& line, const std::string& file,
                   int64_t record) {
  auto parsed = parser->Parse(line);
  Status st = parsed.ok() ? converter->Check(*parsed) : parsed.status();
  if (st.ok()) return converter->Append(*parsed);
  if (st.code() != StatusCode::kDataError) return st;
  Status error = Status::DataError("line " + std::to_string(line.number) + ": " + st.message())
                     .WithFile(file)
                     .WithOffset(line.offset)
                     .WithRecord(record);
  return st.context().field.empty() ? error : error.WithField(st.context().field);
}

}  // namespace recflow::jsonl
