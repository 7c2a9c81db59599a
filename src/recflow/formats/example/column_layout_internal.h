// ColumnLayout: how a schema column maps onto tf.Example features (shared by the Decoder and the Encoder).
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::example {

/// The shape of a column as Features hold it.
enum class ColumnShape : uint8_t {
  kNull,         ///< type null: always null, never written
  kScalar,       ///< T: a list of one value
  kList,         ///< list<T>: one list
  kListOfLists,  ///< list<list<T>>: a SequenceExample FeatureList
};

/// Where and how a column lives in a record.
struct ColumnLayout {
  ColumnShape shape = ColumnShape::kNull;
  bool feature_list = false;  ///< in SequenceExample.feature_lists (else features / context)
  DataTypePtr leaf;           ///< T (the value type); null() for kNull
};


/// The layout of `field` in records of `type` (kExample or kSequenceExample). A TypeError names
/// the column when tf.Example cannot hold its type (struct, list<list<T>> outside feature lists,
/// a feature list that is not list<list<T>>, unsupported values), as `column` says (by default
/// "column '<name>' of type <type>"); a name that is not valid UTF-8 is InvalidArgument
/// (feature names are proto3 strings).
Result<ColumnLayout> LayoutOf(const Field& field, RecordType type, std::string_view column = {});

}  // namespace recflow::example
