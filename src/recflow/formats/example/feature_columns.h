// FeatureColumns: the columns of any Arrow schema as tf.Example features (struct members as `parent.child`, values in a native form).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::example {

/// How decimal columns become features.
enum class DecimalFeatures : uint8_t {
  kText,   ///< the exact decimal text ("-12.50") in a BytesList (the default)
  kFloat,  ///< the nearest float in a FloatList
};

/// How columns of Arrow's other types become features.
struct FeatureOptions {
  /// Decimals as exact text (the default) or the nearest float.
  DecimalFeatures decimals = DecimalFeatures::kText;

  /// Decimals as text. (Every value of the enum is valid: there is nothing to validate.)
  static FeatureOptions Defaults() { return {}; }
};

/// Parses "string" (decimals as text) or "float"; InvalidArgument otherwise.
Result<DecimalFeatures> ParseDecimalFeatures(std::string_view name);

/// The features a schema's columns become in records of a RecordType. Every column of a
/// native type (what the Encoder writes: bool, integers, floats, binary, utf8, lists of those
/// and, in a SequenceExample, lists of lists) is itself; the others are converted (see
/// NativeType: dictionaries to their values, times to int64, decimals to text, ...), and a
/// struct becomes one feature per member, named `parent.member` (at any depth, also under
/// lists: list<struct<a, b>> gives the lists `parent.a` and `parent.b`; a map gives
/// `parent.key` and `parent.value`, the names of its entries). Immutable.
class FeatureColumns {
 public:
  /// Plans `schema`. A TypeError names the column (its path) and its type when it has no
  /// tf.Example form: a union or an interval of days or nanoseconds anywhere in it, lists
  /// nested more than twice, list<list<T>> outside a SequenceExample's feature lists (the error
  /// says to use sequence-example), or a feature name used twice (duplicate columns, or
  /// members whose `parent.member` names collide).
  static Result<FeatureColumns> Make(const SchemaPtr& schema, RecordType type, const FeatureOptions& options);

  /// The schema the columns are written with (native types only).
  const SchemaPtr& schema() const { return features_; }
  /// True when every column is written as it is (Convert would change nothing).
  bool identity() const { return identity_; }

  /// The feature columns of `batch` (of the schema given to Make). DataErrors of the
  /// conversion (more than 2 GiB of bytes of one column in one batch) name the column.
  Result<std::shared_ptr<RecordBatch>> Convert(const RecordBatch& batch) const;

 private:
  FeatureColumns() = default;

  SchemaPtr input_;
  SchemaPtr features_;
  FeatureOptions options_;
  bool identity_ = true;
};

}  // namespace recflow::example
