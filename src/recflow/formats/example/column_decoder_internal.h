// ColumnDecoder: one schema column of the Decoder — each map entry of its feature validated and appended in one walk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/column_layout_internal.h"
#include "recflow/formats/example/value_sink_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Decodes one column. Per record the Decoder hands it the value messages of each map entry
/// with its name (Take), which are validated and appended at once, then ends the row (EndRow).
/// A wire error fails the record at once; a conversion error waits in error() until EndRow,
/// since a later entry with the same name replaces the earlier one wholly. When the record
/// fails, the Decoder truncates every column back to the row (Truncate).
class ColumnDecoder {
 public:
  /// A decoder for `field`, laid out as LayoutOf() said.
  static Result<std::unique_ptr<ColumnDecoder>> Make(const FieldPtr& field, const ColumnLayout& layout);

  const std::string& name() const { return field_->name(); }

  /// Decodes into row `row` the map entry of record `serial` whose value messages (Feature, or
  /// FeatureList for a feature list; several merge) are `values`. A second entry of the same
  /// record first truncates the column back to `row`. Returns wire errors (and running out of
  /// memory); conversion errors go to error().
  Status Take(uint64_t serial, int64_t row, const std::vector<wire::Span>& values);
  /// Take() of an entry holding one Feature with one member, `kind`'s list message `list`
  /// (RecordLayout's records); only for a column that TakesOneList() and was not taken yet in
  /// record `serial`.
  Status TakeList(uint64_t serial, FeatureKind kind, const wire::Span& list);
  /// TakeList() of a list message `list` that is one packed field whose payload is `run`. A
  /// float32 column takes a run of floats, an int64 column a run of well-formed varints and a
  /// binary or utf8 column one bytes value (valid UTF-8 for utf8) straight from the run, in one
  /// copy or one decoding loop; anything else (another pairing, a scalar column and a count other
  /// than 1, a malformed run, int32 offsets exceeded) takes TakeList(), which decodes or fails it.
  Status TakeRun(uint64_t serial, FeatureKind kind, const wire::Span& list, const wire::Span& run);
  /// Whether a row is one Feature's list (a scalar or list column of the features), as TakeList takes.
  bool TakesOneList() const {
    return !feature_list_ && (shape_ == ColumnShape::kScalar || shape_ == ColumnShape::kList);
  }
  /// Whether record `serial` had this feature.
  bool present(uint64_t serial) const { return serial_ == serial; }
  /// The conversion error of the entry taken last (OK when none).
  const Status& error() const { return error_; }
  /// Ends record `serial`: without the feature the row is null (a TypeError when the column is
  /// not nullable); with it, returns error().
  Status EndRow(uint64_t serial);
  /// Drops the rows past the first `rows` (those of a failed record).
  void Truncate(int64_t rows) { root_->Truncate(rows); }

  /// Reserves as much as the last finished batch used, so that a steady stream of batches does
  /// not regrow (and copy) its buffers.
  Status ReserveLikeLastBatch();
  /// The column built since the last Finish().
  Result<std::shared_ptr<ArrayData>> Finish();

 private:
  ColumnDecoder(FieldPtr field, const ColumnLayout& layout, std::unique_ptr<ArrayBuilder> root);
  Status TakeFeature(const std::vector<wire::Span>& features);
  /// Appends a Feature's oneof member `kind` holding `list`, in a Feature at `depth`; `lists`
  /// (the outer list of a list column, a step list's inner one, or null) gets the Feature's list
  /// on its first member.
  Status TakeMember(ListBuilder* lists, FeatureKind kind, const wire::Span& list, int depth);
  /// Ends a Feature: no member or, in a scalar column, no value is null; more than one value or a
  /// value sink error goes to error().
  Status EndFeature();
  Status TakeFeatureList(const std::vector<wire::Span>& feature_lists);
  /// Appends a null row (or sets error() when the column is not nullable).
  Status AppendNullRow();
  /// Whether TakeRun copies a run of `count` values straight into the column: one value in a
  /// scalar column or a list in a list column, within int32 offsets (as EndFeature requires).
  bool Copies(int64_t count) const {
    return (shape_ != ColumnShape::kScalar || count == 1) && leaf_->length() + count <= kMaxInt32Offset;
  }
  /// Starts the row of record `serial` that TakeRun copies: no error, the list opened.
  Status BeginRow(uint64_t serial);
  /// Appends `count` values of the leaf type T, written by fill(T* out).
  template <typename T, typename Fill>
  Status AppendValues(int64_t count, Fill&& fill);

  FieldPtr field_;
  ColumnShape shape_;
  bool feature_list_;
  std::unique_ptr<ArrayBuilder> root_;
  ListBuilder* outer_ = nullptr;  ///< kList, kListOfLists
  ListBuilder* inner_ = nullptr;  ///< kListOfLists
  std::unique_ptr<ValueSink> sink_;
  ArrayBuilder* leaf_ = nullptr;
  TypeId leaf_id_ = TypeId::kNull;  ///< leaf_'s type; kNull for a feature-list column (TakeRun copies none)

  // Sizes of the previous batch.
  int64_t last_rows_ = 0;
  int64_t last_steps_ = 0;
  int64_t last_values_ = 0;
  int64_t last_bytes_ = 0;

  uint64_t serial_ = 0;  ///< the record that had this feature last
  Status error_;
};

}  // namespace recflow::example
