// DictionaryMemo: replacement and delta (Concatenate) of dictionary values.
#include "recflow/formats/arrow_ipc/dictionary_memo.h"

#include <utility>

#include "recflow/columnar/concatenate.h"

namespace recflow::arrow_ipc {

std::shared_ptr<ArrayData> DictionaryMemo::Find(int64_t id) const {
  const auto it = values_.find(id);
  return it == values_.end() ? nullptr : it->second;
}

Status DictionaryMemo::Add(int64_t id, std::shared_ptr<ArrayData> values, bool is_delta) {
  auto& slot = values_[id];
  if (is_delta && slot != nullptr) {
    ASSIGN_OR_RETURN(slot, Concatenate({slot, values}));
  } else {
    slot = std::move(values);
  }
  return Status::OK();
}

}  // namespace recflow::arrow_ipc
