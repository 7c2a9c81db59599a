// ArrayLoader: builds recflow ArrayData from a batch's field nodes and body buffers, walking the fields in pre-order.
#pragma once

#include <cstdint>
#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_desc.h"
#include "recflow/formats/arrow_ipc/body_reader_internal.h"
#include "recflow/formats/arrow_ipc/dictionary_memo.h"
#include "recflow/formats/arrow_ipc/message.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// Loads the arrays of one record or dictionary batch. Each Load call consumes the field
/// nodes and buffers of one field (with its children) in the order the spec lays them out.
/// The arrays are not validated here; callers run ValidateFull on the result.
class ArrayLoader {
 public:
  /// `message` holds the body; `memo` supplies the dictionaries of dictionary-encoded fields.
  /// All must outlive the loader.
  ArrayLoader(const Message& message, const RecordBatchDesc& batch, Endianness endianness, const DictionaryMemo& memo)
      : message_(message),
        batch_(batch),
        body_(message, batch, endianness == Endianness::kBig),
        memo_(memo) {}

  /// The array of `field`, whose recflow type is `type` (ConvertFieldType of the field).
  Result<std::shared_ptr<ArrayData>> Load(const FieldDesc& field, const DataTypePtr& type);

  /// True when every node and buffer of the batch was used.
  bool AllConsumed() const;

 private:
  Result<FieldNodeDesc> NextNode();
  Status LoadValidity(ArrayData& out);
  Status LoadBuffer(ArrayData& out, const ValueShape& shape, int64_t max_size);
  Status LoadBinary(ArrayData& out, int offset_width);
  Status LoadViews(ArrayData& out);
  Status LoadList(const FieldDesc& field, ArrayData& out, int offset_width);
  Status LoadListView(const FieldDesc& field, ArrayData& out, int offset_width);
  Status LoadRunEndEncoded(const FieldDesc& field, ArrayData& out);
  Status LoadUnion(const FieldDesc& field, ArrayData& out);
  Status LoadChildren(const FieldDesc& field, ArrayData& out);

  const Message& message_;
  const RecordBatchDesc& batch_;
  BodyReader body_;
  const DictionaryMemo& memo_;
  int64_t next_node_ = 0;
  int64_t next_variadic_count_ = 0;
};

}  // namespace recflow::arrow_ipc
