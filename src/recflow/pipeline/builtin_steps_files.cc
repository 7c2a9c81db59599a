// Built-in file steps: read_idx (MNIST-format images and labels as an image column), text_template (a text column
// from other columns) and write_files (each row's bytes to the file its path column names).
#include <filesystem>

#include <unistd.h>

#include "recflow/formats/batch_source.h"
#include "recflow/formats/idx/idx_reader.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

namespace {

namespace fs = std::filesystem;
using BuildResult = Result<std::optional<PCollection>>;

// IDX batches {image: binary, label} as {index: int64, image: image column, label: int64}.
class IdxTable {
 public:
  static Result<std::shared_ptr<IdxTable>> Open(const std::string& images, const std::string& labels, FileSystem& fs) {
    auto table = std::make_shared<IdxTable>();
    ASSIGN_OR_RETURN(table->reader_, idx::IdxReader::OpenPair(images, labels, idx::IdxReaderOptions::Defaults(), fs));
    const FieldPtr& image = table->reader_->schema()->field(0);
    const auto shape = image->metadata() ? image->metadata()->Get(idx::kShapeMetadataKey) : std::nullopt;
    int dims[3] = {0, 0, 1};
    if (!shape || std::sscanf(shape->c_str(), "%d,%d,%d", &dims[0], &dims[1], &dims[2]) < 2) {
      return Status::InvalidArgument(images + ": not an images file (items must be rows x columns [x channels])");
    }
    RETURN_NOT_OK(image::CheckImageShape(dims[0], dims[1], dims[2]));
    table->height_ = dims[0];
    table->width_ = dims[1];
    table->channels_ = dims[2];
    table->schema_ = Schema::Make({Field::Make("index", int64(), false),
                                   ops::ImageField("image", image::PixelType::kUInt8),
                                   Field::Make("label", int64(), false)});
    return table;
  }

  const SchemaPtr& schema() const { return schema_; }

  Result<std::shared_ptr<RecordBatch>> Next() {
    ASSIGN_OR_RETURN(auto batch, reader_->Next());
    if (batch == nullptr) return batch;
    const int64_t n = batch->num_rows();
    Int64Builder index;
    Int32Builder height, width, channels;
    for (int64_t i = 0; i < n; ++i) {
      RETURN_NOT_OK(index.Append(next_index_++));
      RETURN_NOT_OK(height.Append(height_));
      RETURN_NOT_OK(width.Append(width_));
      RETURN_NOT_OK(channels.Append(channels_));
    }
    ASSIGN_OR_RETURN(auto index_column, index.Finish());
    ASSIGN_OR_RETURN(auto h, height.Finish());
    ASSIGN_OR_RETURN(auto w, width.Finish());
    ASSIGN_OR_RETURN(auto c, channels.Finish());
    auto images = ArrayData::Make(schema_->field(1)->type(), n, {nullptr}, 0, 0, {h, w, c, batch->column_data(0)});
    return RecordBatch::Make(schema_, n, {index_column, images, batch->column_data(1)});
  }

  IdxTable() = default;

 private:
  std::unique_ptr<idx::IdxReader> reader_;
  SchemaPtr schema_;
  int height_ = 0, width_ = 0, channels_ = 1;
  int64_t next_index_ = 0;
};

BuildResult BuildReadIdx(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string images, ctx.args->String("images"));
  ASSIGN_OR_RETURN(std::string labels, ctx.args->String("labels"));
  ASSIGN_OR_RETURN(images, ctx.ArgPath("images", images));
  ASSIGN_OR_RETURN(labels, ctx.ArgPath("labels", labels));
  auto factory = [images, labels](const std::shared_ptr<FileSystem>& fs) -> Result<std::unique_ptr<Source>> {
    ASSIGN_OR_RETURN(auto table, IdxTable::Open(images, labels, *fs));
    return MakeCallbackSource(images, table->schema(), [table] { return table->Next(); });
  };
  return ctx.pipeline->Read(ctx.name, factory, "idx " + images + " " + labels, ctx.options.on_error);
}

// A template "train/{label}/{index}.png": literal text, column references and the run's generation.
struct TemplatePart {
  std::string text;  // literal text, when column < 0 and not generation
  int column = -1;
  bool bytes = false;       // the column's values are bytes, copied as they are
  bool generation = false;  // {@generation}: nothing in run generation 0, "-g<G>" in generation G > 0
};

// The placeholder of the run's generation in a template.
constexpr std::string_view kGenerationPlaceholder = "@generation";

Result<std::vector<TemplatePart>> ParseTemplate(StepArgs& a, const std::string& text, const Schema& schema) {
  std::vector<TemplatePart> parts;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i);
    if (open == std::string::npos) {
      parts.push_back({text.substr(i), -1});
      break;
    }
    const size_t close = text.find('}', open);
    if (close == std::string::npos) return a.Error("template", "unclosed { in '" + text + "'");
    if (open > i) parts.push_back({text.substr(i, open - i), -1});
    const std::string name = text.substr(open + 1, close - open - 1);
    if (name == kGenerationPlaceholder) {
      parts.push_back({std::string(), -1, false, true});
      i = close + 1;
      continue;
    }
    if (name.starts_with('@')) return a.Error("template", "no run value '{" + name + "}' (there is {@generation})");
    const int column = schema.GetFieldIndex(name);
    if (column < 0) return a.Error("template", "no column '" + name + "' in " + schema.ToString());
    parts.push_back({std::string(), column, HoldsBytes(*schema.field(column)->type())});
    i = close + 1;
  }
  return parts;
}

BuildResult BuildTextTemplate(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string output, ctx.args->String("output"));
  ASSIGN_OR_RETURN(std::string text, ctx.args->String("template"));
  ASSIGN_OR_RETURN(auto parts, ParseTemplate(*ctx.args, text, *ctx.input().schema()));
  auto fn = [parts](const RowView& row, RowEmitter& out) -> Status {
    std::string value;
    for (const TemplatePart& part : parts) {
      if (part.generation) {
        const int64_t generation = row.run_files().generation();
        if (generation != 0) value += "-g" + std::to_string(generation);
        continue;
      }
      if (part.column < 0) {
        value += part.text;
        continue;
      }
      if (row.IsNull(part.column)) {
        return Status::DataError("column '" + row.schema().field(part.column)->name() + "' is null");
      }
      if (part.bytes) {
        ASSIGN_OR_RETURN(std::string_view bytes, row.Bytes(part.column));
        value += bytes;
      } else {
        ASSIGN_OR_RETURN(RowValue v, row.Get(part.column));
        value += ops::ScalarToString(v);
      }
    }
    out.Emit({std::move(value)});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {Field::Make(output, utf8(), false)}, fn, ctx.options);
}

// Writes `bytes` to `path` of `file_system` whole or not at all: a temporary file in the same
// directory (which OutputPathInside made), then a rename over `path`.
Status WriteFileAtomically(FileSystem& file_system, const fs::path& path, std::string_view bytes) {
  const std::string tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  Status written = file_system.WriteSmallFile(tmp, bytes, /*sync=*/false);
  if (written.ok()) written = file_system.Move(tmp, path.string(), MoveMode::kReplace);
  if (!written.ok()) (void)file_system.Remove(tmp);
  return written;
}

BuildResult BuildWriteFiles(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string dir, ctx.args->String("dir"));
  ASSIGN_OR_RETURN(std::string path_column, ctx.args->String("path", "path"));
  ASSIGN_OR_RETURN(std::string bytes_column, ctx.args->String("bytes", "bytes"));
  const SchemaPtr schema = ctx.input().schema();
  const int path_index = schema->GetFieldIndex(path_column);
  const int bytes_index = schema->GetFieldIndex(bytes_column);
  if (path_index < 0) return ctx.args->Error("path", "no column '" + path_column + "'");
  if (bytes_index < 0) return ctx.args->Error("bytes", "no column '" + bytes_column + "'");
  ASSIGN_OR_RETURN(const std::string resolved_dir, ctx.ArgPath("dir", dir));
  const fs::path root = resolved_dir;
  auto fn = [root, path_index, bytes_index](const RowView& row, RowEmitter& out) -> Status {
    if (row.IsNull(path_index) || row.IsNull(bytes_index)) return Status::DataError("a path or bytes value is null");
    ASSIGN_OR_RETURN(std::string_view path, row.Bytes(path_index));
    ASSIGN_OR_RETURN(std::string_view bytes, row.Bytes(bytes_index));
    ASSIGN_OR_RETURN(const std::string target, OutputPathInside(row.file_system(), root.string(), path));
    RETURN_NOT_OK(WriteFileAtomically(row.file_system(), target, bytes));
    out.Emit({});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {}, fn, ctx.options);
}

}  // namespace

Result<std::string> OutputPathInside(FileSystem& file_system, const std::string& root, std::string_view relative) {
  const fs::path normal = fs::path(relative).lexically_normal();
  if (normal.is_absolute() || normal.empty() || *normal.begin() == "..") {
    return Status::DataError("path '" + normal.string() + "' leaves the output directory");
  }
  const fs::path path = fs::path(root) / normal;
  RETURN_NOT_OK(file_system.CreateDirectories(path.parent_path().string()).status());
  return path.string();
}

void AddFileSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"read_idx", "MNIST-format IDX images and labels as {index, image, label}", "", 0, 0,
                               BuildReadIdx, NodeKind::kRead});
  (void)registry->Add(StepType{"text_template", "a text column from a template of columns: \"{split}/{index}.png\"", "",
                               1, 1, BuildTextTemplate});
  (void)registry->Add(StepType{"write_files", "write each row's bytes to DIR/PATH (atomically per file)", "", 1, 1,
                               BuildWriteFiles});
}

}  // namespace recflow::pipeline
