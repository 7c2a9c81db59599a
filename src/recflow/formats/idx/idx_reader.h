// IdxReader: RecordBatches from IDX files (MNIST images, labels, or both zipped together).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/idx/idx_file.h"

namespace recflow::idx {

/// How IdxReader cuts its output.
struct IdxReaderOptions {
  /// Rows per batch (the last batch may be shorter); must be positive.
  int64_t batch_size = 1024;

  static IdxReaderOptions Defaults() { return {}; }
  Status Validate() const;
};

/// Reads one or more IDX files with the same number of items as one table, a column per file
/// (see IdxFile for the columns), in batches.
class IdxReader {
 public:
  /// One file of `fs`: a table with column `image` or `label`.
  static Result<std::unique_ptr<IdxReader>> Open(const std::string& path, const IdxReaderOptions& options,
                                                 FileSystem& fs);
  /// An images file and a labels file of `fs` as one table {image, label}; their item counts must match.
  static Result<std::unique_ptr<IdxReader>> OpenPair(const std::string& images_path, const std::string& labels_path,
                                                     const IdxReaderOptions& options, FileSystem& fs);
  /// Any files with equal item counts, one column each in the given order.
  static Result<std::unique_ptr<IdxReader>> Make(std::vector<std::shared_ptr<const IdxFile>> files,
                                                 const IdxReaderOptions& options);

  /// The table's schema.
  const SchemaPtr& schema() const { return schema_; }
  /// Total rows (items per file).
  int64_t num_rows() const { return num_rows_; }
  /// The next batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();

  /// Use Open(), OpenPair() or Make().
  IdxReader(std::vector<std::shared_ptr<const IdxFile>> files, SchemaPtr schema, int64_t batch_size);

 private:
  std::vector<std::shared_ptr<const IdxFile>> files_;
  SchemaPtr schema_;
  int64_t batch_size_;
  int64_t num_rows_;
  int64_t next_row_ = 0;
};

}  // namespace recflow::idx
