// ColumnInference: candidate-type elimination over sampled values.
#include "recflow/formats/csv/inference.h"

#include <memory>
#include <utility>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/columnar/value_parsing.h"

namespace recflow::csv {

void ColumnInference::Observe(std::string_view value) {
  if (value.empty()) {
    saw_empty_ = true;
    return;
  }
  saw_value_ = true;
  if (valid_utf8_ && !IsValidUtf8(value)) valid_utf8_ = false;
  if (candidates_ == 0) return;
  if (candidates_ & kBool) {
    bool b;
    if (!ParseBool(value, &b)) candidates_ &= ~kBool;
  }
  if (candidates_ & kInt) {
    int64_t i;
    if (!ParseInteger(value, &i)) candidates_ &= ~kInt;
  }
  if (candidates_ & kFloat) {
    double d;
    if (!ParseFloat(value, &d)) candidates_ &= ~kFloat;
  }
  if (candidates_ & kTimestamp) {
    int64_t t;
    if (!ParseTimestampMicros(value, &t)) candidates_ &= ~kTimestamp;
  }
}

FieldPtr ColumnInference::MakeField(std::string name, bool infer_nullability) const {
  DataTypePtr type;
  std::shared_ptr<const KeyValueMetadata> metadata;
  const uint8_t typed = saw_value_ ? candidates_ : 0;
  if (typed & kBool) {
    type = boolean();
  } else if (typed & kInt) {
    type = int64();
  } else if (typed & kFloat) {
    type = float64();
  } else if (typed & kTimestamp) {
    type = int64();
    metadata = std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
        {std::string(kLogicalTypeKey), std::string(kTimestampLogicalType)}});
  } else {
    type = valid_utf8_ ? utf8() : binary();
  }
  const bool nullable = !infer_nullability || saw_null_ || (typed != 0 && saw_empty_);
  return Field::Make(std::move(name), std::move(type), nullable, std::move(metadata));
}

}  // namespace recflow::csv
