// MakeRunEnds, VisibleRunEnds and CompactRuns over RunIndex / RunEnd.
#include "recflow/columnar/run_ends.h"

#include <algorithm>
#include <limits>
#include <string>

#include "recflow/columnar/element_access.h"

namespace recflow {

namespace {

template <typename T>
Result<std::shared_ptr<Buffer>> Narrowed(const std::vector<int64_t>& ends) {
  std::vector<T> out;
  out.reserve(ends.size());
  for (const int64_t end : ends) {
    if (end > std::numeric_limits<T>::max()) {
      return Status::DataError("run end " + std::to_string(end) + " does not fit " + std::to_string(8 * sizeof(T)) +
                               " bits");
    }
    out.push_back(static_cast<T>(end));
  }
  return Buffer::CopyOf({reinterpret_cast<const uint8_t*>(out.data()), out.size() * sizeof(T)});
}

}  // namespace

Result<std::shared_ptr<ArrayData>> MakeRunEnds(const DataTypePtr& type, const std::vector<int64_t>& ends) {
  std::shared_ptr<Buffer> values;
  switch (type->id()) {
    case TypeId::kInt16: {
      ASSIGN_OR_RETURN(values, Narrowed<int16_t>(ends));
      break;
    }
    case TypeId::kInt32: {
      ASSIGN_OR_RETURN(values, Narrowed<int32_t>(ends));
      break;
    }
    case TypeId::kInt64: {
      ASSIGN_OR_RETURN(values, Narrowed<int64_t>(ends));
      break;
    }
    default: return Status::TypeError("run ends of type " + type->ToString());
  }
  return ArrayData::Make(type, static_cast<int64_t>(ends.size()), {nullptr, std::move(values)}, 0);
}

std::vector<int64_t> VisibleRunEnds(const ArrayData& data, int64_t* first_run) {
  std::vector<int64_t> ends;
  *first_run = 0;
  if (data.length == 0) return ends;
  *first_run = RunIndex(data, 0);
  const int64_t last_run = RunIndex(data, data.length - 1);
  for (int64_t run = *first_run; run <= last_run; ++run) {
    ends.push_back(std::min(RunEnd(data, run) - data.offset, data.length));
  }
  return ends;
}

Result<std::shared_ptr<ArrayData>> CompactRuns(const ArrayData& data) {
  int64_t first_run = 0;
  const std::vector<int64_t> ends = VisibleRunEnds(data, &first_run);
  ASSIGN_OR_RETURN(auto run_ends, MakeRunEnds(data.children[0]->type, ends));
  auto values = data.children[1]->Slice(first_run, static_cast<int64_t>(ends.size()));
  return ArrayData::Make(data.type, data.length, {}, 0, 0, {std::move(run_ends), std::move(values)});
}

}  // namespace recflow
