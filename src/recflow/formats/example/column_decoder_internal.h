// ColumnDecoder: one schema column of the Decoder — the winning Feature of a record, checked, then appended.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/column_layout_internal.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/value_sink_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Decodes one column. Per record: the Decoder stores the value messages of the feature's
/// winning map entry (Set), then calls Check() (every failure a row can have) on every column
/// and only then Commit() on every column, so a failing record adds nothing.
class ColumnDecoder {
 public:
  /// A decoder for `field`, laid out as LayoutOf() said.
  static Result<std::unique_ptr<ColumnDecoder>> Make(const FieldPtr& field, const ColumnLayout& layout);

  const std::string& name() const { return field_->name(); }

  /// The value messages (Feature, or FeatureList for feature lists) of the winning map entry
  /// of record `serial`; a later entry with the same key replaces them. Returns the replaced
  /// messages (to be validated by the caller) through *replaced, or leaves it empty.
  void Set(uint64_t serial, const std::vector<wire::Span>& values, std::vector<wire::Span>* replaced);
  /// Whether record `serial` had this feature.
  bool present(uint64_t serial) const { return serial_ == serial; }

  /// Resolves and checks the feature of record `serial` (absent → null).
  Status Check(uint64_t serial);
  /// Appends what Check() resolved; fails only when memory runs out.
  Status Commit();
  /// The column built since the last Finish(). The next batch reserves as much as this one
  /// used, so a steady stream of batches does not regrow (and copy) its buffers.
  Result<std::shared_ptr<ArrayData>> Finish();

 private:
  struct Resolved {
    FeatureKind kind = FeatureKind::kNone;
    uint32_t first_list = 0;
    uint32_t num_lists = 0;
    int64_t count = 0;
  };

  ColumnDecoder(FieldPtr field, ColumnShape shape, std::unique_ptr<ArrayBuilder> root);
  Status CheckNull() const;
  Status AppendFeature(const Resolved& r);
  Status ReserveLikeLastBatch();

  FieldPtr field_;
  ColumnShape shape_;
  std::unique_ptr<ArrayBuilder> root_;
  ListBuilder* outer_ = nullptr;  ///< kList, kListOfLists
  ListBuilder* inner_ = nullptr;  ///< kListOfLists
  std::unique_ptr<ValueSink> sink_;
  ArrayBuilder* leaf_ = nullptr;

  // Sizes of the previous batch (reserved at the first Commit() of the next one).
  bool reserve_pending_ = false;
  int64_t last_rows_ = 0;
  int64_t last_steps_ = 0;
  int64_t last_values_ = 0;
  int64_t last_bytes_ = 0;

  // Per-record state, reused across records (no allocation in steady state).
  uint64_t serial_ = 0;
  bool is_null_ = true;
  std::vector<wire::Span> values_;
  std::vector<wire::Span> lists_;
  std::vector<Resolved> steps_;
};

}  // namespace recflow::example
