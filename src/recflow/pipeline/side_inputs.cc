// SideInputs: lookup of a transform's side inputs by name.
#include "recflow/pipeline/side_inputs.h"

namespace recflow::pipeline {

int64_t SideInputValue::num_rows() const {
  int64_t rows = 0;
  for (const auto& batch : batches) rows += batch->num_rows();
  return rows;
}

void SideInputs::Set(std::string name, std::shared_ptr<const SideInputValue> value) {
  values_[std::move(name)] = std::move(value);
}

Result<const SideInputValue*> SideInputs::Get(std::string_view name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.get();
  std::string known;
  for (const auto& [key, value] : values_) known += (known.empty() ? "" : ", ") + key;
  return Status::NotFound("no side input '" + std::string(name) + "' (side inputs: " +
                          (known.empty() ? "none" : known) + ")");
}

Result<std::shared_ptr<RecordBatch>> SideInputValue::SingleRow(std::string_view name) const {
  for (const auto& batch : batches) {
    if (batch->num_rows() > 0) {
      if (num_rows() != 1) break;
      return batch;
    }
  }
  return Status::InvalidArgument("side input '" + std::string(name) + "' has " + std::to_string(num_rows()) +
                                 " rows; a single row was expected");
}

Result<std::shared_ptr<RecordBatch>> SideInputs::Singleton(std::string_view name) const {
  ASSIGN_OR_RETURN(const SideInputValue* value, Get(name));
  return value->SingleRow(name);
}

}  // namespace recflow::pipeline
