// IdxReader: batching and zipping of IDX files.
#include "recflow/formats/idx/idx_reader.h"

#include <algorithm>
#include <limits>

namespace recflow::idx {

Status IdxReaderOptions::Validate() const {
  if (batch_size <= 0) return Status::InvalidArgument("IDX batch_size must be positive, got " + std::to_string(batch_size));
  return Status::OK();
}

IdxReader::IdxReader(std::vector<std::shared_ptr<const IdxFile>> files, SchemaPtr schema, int64_t batch_size)
    : files_(std::move(files)),
      schema_(std::move(schema)),
      batch_size_(batch_size),
      num_rows_(files_.front()->num_items()) {}

Result<std::unique_ptr<IdxReader>> IdxReader::Open(const std::string& path, const IdxReaderOptions& options,
                                                   FileSystem& fs) {
  ASSIGN_OR_RETURN(auto file, IdxFile::Open(path, fs));
  return Make({std::move(file)}, options);
}

Result<std::unique_ptr<IdxReader>> IdxReader::OpenPair(const std::string& images_path, const std::string& labels_path,
                                                       const IdxReaderOptions& options, FileSystem& fs) {
  ASSIGN_OR_RETURN(auto images, IdxFile::Open(images_path, fs));
  ASSIGN_OR_RETURN(auto labels, IdxFile::Open(labels_path, fs));
  if (images->dims().size() < 2) {
    return Status::DataError("expected an IDX images file (2 or more dimensions), found 1 dimension").WithFile(images_path);
  }
  if (labels->dims().size() != 1) {
    return Status::DataError("expected an IDX labels file (1 dimension), found " +
                             std::to_string(labels->dims().size()))
        .WithFile(labels_path);
  }
  return Make({std::move(images), std::move(labels)}, options);
}

Result<std::unique_ptr<IdxReader>> IdxReader::Make(std::vector<std::shared_ptr<const IdxFile>> files,
                                                   const IdxReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (files.empty()) return Status::InvalidArgument("IdxReader needs at least one IDX file");
  std::vector<FieldPtr> fields;
  // Keep each image batch within the int32 offsets of a binary column.
  int64_t batch_size = options.batch_size;
  for (const auto& file : files) {
    if (file->num_items() != files.front()->num_items()) {
      return Status::DataError("IDX files disagree on the item count: " + files.front()->name() + " has " +
                               std::to_string(files.front()->num_items()) + ", this one " +
                               std::to_string(file->num_items()))
          .WithFile(file->name())
          .WithOffset(4);
    }
    if (file->dims().size() > 1) {
      batch_size = std::min(batch_size, std::max<int64_t>(1, std::numeric_limits<int32_t>::max() / file->item_size()));
    }
    fields.push_back(file->field());
  }
  return std::make_unique<IdxReader>(std::move(files), Schema::Make(std::move(fields)), batch_size);
}

Result<std::shared_ptr<RecordBatch>> IdxReader::Next() {
  if (next_row_ >= num_rows_) return std::shared_ptr<RecordBatch>();
  const int64_t length = std::min(batch_size_, num_rows_ - next_row_);
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(files_.size());
  for (const auto& file : files_) {
    ASSIGN_OR_RETURN(auto column, file->Column(next_row_, length));
    columns.push_back(std::move(column));
  }
  next_row_ += length;
  return RecordBatch::Make(schema_, length, std::move(columns));
}

}  // namespace recflow::idx
