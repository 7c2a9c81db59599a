// The Arrow C Data Interface: recflow fields, schemas, arrays and record batches exported to and
// imported from ArrowSchema / ArrowArray without copying any buffer.
#pragma once

#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/c_data_abi.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::c_data {

/// Fills `out` with `field`: its type's format, name, nullability, metadata, children and
/// dictionary. The consumer calls out->release when done.
Status ExportField(const Field& field, ArrowSchema* out);

/// Fills `out` with `schema` as a struct type ("+s") whose children are the fields; the
/// schema's metadata becomes the struct's.
Status ExportSchema(const Schema& schema, ArrowSchema* out);

/// Fills `out` with `data` (of any recflow type), sharing its buffers: they stay alive until the
/// consumer calls out->release.
Status ExportArray(std::shared_ptr<ArrayData> data, ArrowArray* out);

/// Fills `out` with `batch` as a struct array of its columns (its length the batch's rows).
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out);

/// Reads the field `schema` describes and releases `schema`. DataError for a format, flag or
/// metadata recflow cannot read (the schema is released all the same).
Result<FieldPtr> ImportField(ArrowSchema* schema);

/// Reads a schema exported as a struct type ("+s") and releases `schema`.
Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

/// Takes over `array` (its release is set to NULL: recflow calls the original release when the
/// last buffer it returned is dropped) and reads it as `type` without copying. Buffer sizes
/// follow from length, offset and type as the specification lays them out; the result passes
/// ValidateFull (offsets, UTF-8, dictionary indices, union codes), else a DataError.
Result<std::shared_ptr<ArrayData>> ImportArray(ArrowArray* array, const DataTypePtr& type);

/// ImportArray of a struct array as a record batch of `schema` (whose fields are its children).
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema);

}  // namespace recflow::c_data
