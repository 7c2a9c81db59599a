// CheckPlannedSchema: a schema comparison, cheap when the batch shares the planned schema object.
#include "recflow/ops/columns/planned_schema.h"

#include <string>

namespace recflow::ops {

namespace {

// "a: int64, b: utf8".
std::string FieldList(const Schema& schema) {
  std::string out;
  for (const FieldPtr& field : schema.fields()) out += (out.empty() ? "" : ", ") + field->ToString();
  return out;
}

}  // namespace

Status CheckPlannedSchema(const Schema& planned, const Schema& actual, std::string_view op) {
  if (planned.Equals(actual)) return Status::OK();
  return Status::InvalidArgument(std::string(op) + ": a batch has columns (" + FieldList(actual) +
                                 ") where the step was planned for (" + FieldList(planned) + ")");
}

}  // namespace recflow::ops
