// An IDX file (the MNIST format): header parsed and checked, items as columns.
//
// Layout (all integers big-endian): two zero bytes, a type code byte (0x08 = uint8), the number
// of dimensions N, then N uint32 dimension sizes, then the row-major data: dims[0] items of
// dims[1] x ... x dims[N-1] values each. MNIST images are 0x00000803 (N = 3: count, rows,
// columns), labels 0x00000801 (N = 1). Files may be GZIP-compressed (detected by magic).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/buffer.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::idx {

/// The type code of unsigned bytes, the only element type recflow reads.
inline constexpr uint8_t kTypeUInt8 = 0x08;
/// Most dimensions accepted (MNIST uses 1 and 3; colour images would use 4).
inline constexpr int kMaxDims = 4;
/// Field metadata key on the `image` column holding the item shape, e.g. "28,28".
inline constexpr std::string_view kShapeMetadataKey = "idx.shape";

/// A whole IDX file in memory with a validated header.
///
/// A one-dimensional file (labels) reads as column `label` (int64); a file with more
/// dimensions reads as column `image` (binary: the raw row-major bytes of one item, zero-copy
/// slices of the file), whose field metadata `idx.shape` gives the item's dimensions.
class IdxFile {
 public:
  /// Reads (and, for GZIP input, decompresses) the whole file `path` of `fs` and checks its header.
  static Result<std::shared_ptr<const IdxFile>> Open(const std::string& path, FileSystem& fs);
  /// Same over bytes in memory; `name` is used in error messages.
  static Result<std::shared_ptr<const IdxFile>> FromBuffer(std::shared_ptr<Buffer> data, std::string name);

  /// The path or name given when opening.
  const std::string& name() const { return name_; }
  /// All dimensions; dims()[0] is the number of items.
  const std::vector<int64_t>& dims() const { return dims_; }
  /// Number of items (images or labels).
  int64_t num_items() const { return dims_[0]; }
  /// Bytes per item: the product of dims()[1..].
  int64_t item_size() const { return item_size_; }
  /// The column's field: `label` int64 or `image` binary (not nullable).
  const FieldPtr& field() const { return field_; }
  /// Items [offset, offset + length) as a column of field()'s type; the range must be in
  /// bounds and, for images, length * item_size() must fit the int32 offsets.
  Result<std::shared_ptr<ArrayData>> Column(int64_t offset, int64_t length) const;

  /// Use Open() or FromBuffer().
  IdxFile(std::string name, std::shared_ptr<Buffer> data, std::vector<int64_t> dims, int64_t header_size,
          int64_t item_size, FieldPtr field);

 private:
  Result<std::shared_ptr<ArrayData>> ImageColumn(int64_t offset, int64_t length) const;
  Result<std::shared_ptr<ArrayData>> LabelColumn(int64_t offset, int64_t length) const;

  std::string name_;
  std::shared_ptr<Buffer> data_;  // the whole (decompressed) file
  std::vector<int64_t> dims_;
  int64_t header_size_;
  int64_t item_size_;
  FieldPtr field_;
};

}  // namespace recflow::idx
