// DictionaryTracker: which DictionaryBatch messages a stream or file needs before each record batch (first use, delta, replacement or unification).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

namespace recflow::arrow_ipc {

/// One DictionaryBatch to write before a record batch.
struct DictionaryUpdate {
  int64_t id = 0;
  std::shared_ptr<ArrayData> values;  ///< every value, or (is_delta) the values appended
  bool is_delta = false;
};

/// How the indices of one dictionary array of a batch are rewritten to point into the
/// dictionary the file holds (after unification).
struct IndexRemap {
  int64_t id = 0;
  /// (*to)[i]: the file's index of the batch dictionary's value i (shared by the runs of a batch)
  std::shared_ptr<const std::vector<int64_t>> to;
  std::shared_ptr<ArrayData> dictionary;  ///< the file's dictionary the new indices point into
};

/// What one record batch needs: the dictionary batches to write first (in that order) and the
/// index rewrites to apply to its columns.
struct DictionaryPlan {
  std::vector<DictionaryUpdate> updates;
  std::vector<IndexRemap> remaps;
};

/// What happens when a batch brings, for some id, a dictionary that neither equals nor extends
/// the one already written (an extension is always written as a delta).
enum class DictionaryChange : uint8_t {
  kReplace,  ///< a replacement DictionaryBatch (streams)
  kRefuse,   ///< InvalidArgument: the file format cannot replace a dictionary
  kUnify,    ///< files: the new values are appended as a delta and the batch's indices rewritten
};

/// The dictionaries a stream or file holds so far, as a reader will have them after the
/// messages planned so far. Dictionaries are planned deepest first (descending id, as ids are
/// depth-first), so a dictionary whose values are themselves dictionary-encoded follows the
/// dictionary they use.
class DictionaryTracker {
 public:
  /// Tracks the dictionary arrays `fields` (ids 0, 1, ... as BuildSchema lists them) of `schema`.
  DictionaryTracker(const Schema& schema, std::vector<DictionaryField> fields, DictionaryChange change);

  /// The dictionary arrays tracked.
  const std::vector<DictionaryField>& fields() const { return fields_; }
  /// Plans the dictionaries of `batch` (the tracker's schema) and advances past them. On error
  /// the tracker is as before the call (kReplace, kRefuse) or must not be used again (kUnify).
  Result<DictionaryPlan> Plan(const RecordBatch& batch);

 private:
  /// Plans the dictionary of `array` (the dictionary array `field` leads to).
  Status PlanOne(const DictionaryField& field, const ArrayData& array, DictionaryPlan* plan);

  std::vector<DictionaryField> fields_;
  std::vector<std::string> names_;  // by id: the top-level column holding the dictionary, for errors
  DictionaryChange change_;
  std::vector<std::shared_ptr<ArrayData>> written_;    // by id: the values a reader holds; null before the first
  std::vector<std::shared_ptr<ArrayData>> unified_;    // by id: the batch dictionary last unified (kUnify)
  std::vector<std::shared_ptr<const std::vector<int64_t>>> unified_to_;  // by id: its remap
};

/// `columns` with the dictionary indices of every remap of `plan` rewritten (the arrays on the
/// way to each rewritten one are shallow copies; the rest is shared).
Result<std::vector<std::shared_ptr<ArrayData>>> ApplyRemaps(const DictionaryPlan& plan,
                                                            const std::vector<DictionaryField>& fields,
                                                            std::vector<std::shared_ptr<ArrayData>> columns);

}  // namespace recflow::arrow_ipc
