// The test_stream source: the action lines read as JSON Lines, checked, and replayed as units and flow tokens.
#include "recflow/pipeline/test_stream_source.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "recflow/columnar/element_access.h"
#include "recflow/formats/jsonl/jsonl_reader.h"
#include "recflow/pipeline/window_columns.h"

namespace recflow::pipeline {

namespace {

struct Action {
  std::shared_ptr<RecordBatch> batch;  // elements (a slice of the file's elements), or none
  std::optional<FlowToken> token;
  int64_t bytes = 0;
};

class TestStreamSource final : public Source {
 public:
  TestStreamSource(std::string name, SchemaPtr schema, std::vector<Action> actions, int64_t bytes)
      : name_(std::move(name)), schema_(std::move(schema)), actions_(std::move(actions)), bytes_(bytes) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  int64_t stored_bytes() const override { return bytes_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ >= actions_.size()) return std::unique_ptr<SourceUnit>();
    Action& a = actions_[next_++];
    std::shared_ptr<RecordBatch> batch = a.batch != nullptr ? std::move(a.batch) : empty_;
    return MakeBatchUnit(std::move(batch), a.bytes, a.token);
  }
  void set_empty(std::shared_ptr<RecordBatch> empty) { empty_ = std::move(empty); }

 private:
  std::string name_;
  SchemaPtr schema_;
  std::vector<Action> actions_;
  int64_t bytes_;
  std::shared_ptr<RecordBatch> empty_;
  size_t next_ = 0;
};

// Where each non-blank line starts, and its length (the JSON Lines reader's records).
struct Line {
  int64_t offset;
  int64_t number;  // 1-based, blank lines counted
  int64_t bytes;
};

std::vector<Line> NonBlankLines(std::string_view text) {
  std::vector<Line> lines;
  int64_t number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    const std::string_view line = text.substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      lines.push_back(Line{static_cast<int64_t>(start), number, static_cast<int64_t>(end - start + 1)});
    }
    start = end + 1;
  }
  return lines;
}

bool IsInteger(const DataType& type) { return type.is_integer(); }

// OpenTestStream's work; its errors carry the file, line (record) and byte offset as context.
Result<std::unique_ptr<Source>> Open(FileSystem& fs, const std::string& path) {
  ASSIGN_OR_RETURN(auto data, fs.ReadWholeFile(path));
  const std::string_view text(reinterpret_cast<const char*>(data->data()), static_cast<size_t>(data->size()));
  const std::vector<Line> lines = NonBlankLines(text);
  jsonl::ReadOptions options = jsonl::ReadOptions::Defaults();
  options.inference_rows = std::numeric_limits<int32_t>::max();  // every action: the columns come from all elements
  options.infer_timestamps = false;
  // The whole file is in memory already: blocks no larger than it (a small stream allocates little).
  options.block_size = std::clamp<int64_t>(data->size(), 4096, options.block_size);
  ASSIGN_OR_RETURN(auto reader, jsonl::JsonlReader::FromBuffer(data, path, options));
  const Schema& file_schema = *reader->schema();
  auto error = [&](int64_t record, const std::string& message) {
    const Line& line = lines[static_cast<size_t>(record)];
    return Status::DataError("line " + std::to_string(line.number) + ": " + message)
        .WithFile(path).WithOffset(line.offset).WithRecord(record);
  };
  const int elements = file_schema.GetFieldIndex("elements");
  const int watermark = file_schema.GetFieldIndex("watermark");
  const int processing_time = file_schema.GetFieldIndex("processing_time");
  for (const FieldPtr& field : file_schema.fields()) {
    const std::string& n = field->name();
    if (n != "elements" && n != "watermark" && n != "processing_time") {
      return Status::DataError("'" + n + "' is not a test stream action (elements, watermark, processing_time)").WithFile(path);
    }
  }
  if (elements < 0) return Status::DataError("a test stream needs an elements action: its columns come from the elements").WithFile(path);
  const DataType& elements_type = *file_schema.field(elements)->type();
  if (elements_type.id() != TypeId::kList || elements_type.fields()[0]->type()->id() != TypeId::kStruct) {
    return Status::DataError("elements must be lists of objects, not " + elements_type.ToString()).WithFile(path);
  }
  const DataType& element_type = *elements_type.fields()[0]->type();
  const int ts = [&] {
    for (size_t f = 0; f < element_type.fields().size(); ++f) {
      if (element_type.fields()[f]->name() == "ts") return static_cast<int>(f);
    }
    return -1;
  }();
  if (ts < 0 || !IsInteger(*element_type.fields()[static_cast<size_t>(ts)]->type())) {
    return Status::DataError("every element needs \"ts\", its event time in epoch milliseconds (an integer)").WithFile(path);
  }
  for (int c : {watermark, processing_time}) {
    if (c >= 0 && !IsInteger(*file_schema.field(c)->type())) {
      return Status::DataError(file_schema.field(c)->name() + " must be an integer (epoch milliseconds)").WithFile(path);
    }
  }
  // The rows' schema: the elements' members, `ts` marked as the event time.
  std::vector<FieldPtr> fields = element_type.fields();
  fields[static_cast<size_t>(ts)] = fields[static_cast<size_t>(ts)]->WithMetadata(
      std::make_shared<const KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{{kEventTimeMetadataKey, "ms"}}));
  SchemaPtr schema = Schema::Make(std::move(fields));

  std::vector<Action> actions;
  std::shared_ptr<RecordBatch> empty;
  int64_t record = 0;
  int64_t last_watermark = std::numeric_limits<int64_t>::min(), last_processing_time = 0;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) break;
    const std::shared_ptr<ArrayData>& list = batch->column_data(elements);
    const std::shared_ptr<ArrayData>& structs = list->children[0];
    const int64_t element_rows = structs->children.empty() ? 0 : structs->children[0]->length;
    auto all = std::make_shared<RecordBatch>(schema, element_rows, structs->children);
    if (empty == nullptr) empty = all->Slice(0, 0);
    for (int64_t row = 0; row < batch->num_rows(); ++row, ++record) {
      if (static_cast<size_t>(record) >= lines.size()) return Status::Internal("test stream: more records than lines");
      Action action;
      action.bytes = lines[static_cast<size_t>(record)].bytes;
      int actions_on_line = 0;
      if (IsValidAt(*list, row)) {
        ++actions_on_line;
        const ChildRange range = ListRange(*list, row);
        const ArrayData& ts_column = *structs->children[static_cast<size_t>(ts)];
        for (int64_t e = range.start; e < range.start + range.length; ++e) {
          if (!IsValidAt(*structs, e)) return error(record, "element " + std::to_string(e - range.start) + " is null");
          if (!IsValidAt(ts_column, structs->offset + e)) {
            return error(record, "element " + std::to_string(e - range.start) + " has no \"ts\" (its event time)");
          }
        }
        action.batch = all->Slice(structs->offset + range.start, range.length);
      }
      for (auto [column, kind, last] : {std::tuple{watermark, FlowToken::Kind::kWatermark, &last_watermark},
                                        std::tuple{processing_time, FlowToken::Kind::kProcessingTime, &last_processing_time}}) {
        if (column < 0 || !IsValidAt(*batch->column_data(column), row)) continue;
        ++actions_on_line;
        const int64_t time = IntegerValue(*batch->column_data(column), row);
        if (time < *last) {
          return error(record, file_schema.field(column)->name() + " " + std::to_string(time) + " goes back (it was " +
                                   std::to_string(*last) + ")");
        }
        *last = time;
        action.token = FlowToken{kind, time};
      }
      if (actions_on_line != 1) {
        return error(record, "a line holds exactly one action: elements, watermark or processing_time");
      }
      actions.push_back(std::move(action));
    }
  }
  auto source = std::make_unique<TestStreamSource>(path, schema, std::move(actions), data->size());
  source->set_empty(std::move(empty));
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace

Result<std::unique_ptr<Source>> OpenTestStream(FileSystem& fs, const std::string& path) {
  auto source = Open(fs, path);
  // The stream is read whole when the pipeline is built, where a step's error keeps only its
  // message: the file, line and offset go into the text.
  if (!source.ok()) return Status(source.status().code(), source.status().ToString());
  return source;
}

}  // namespace recflow::pipeline
