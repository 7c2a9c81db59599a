// TypeInference: kind collection over sampled JSON values and the type lattice that resolves it.
#include "recflow/formats/jsonl/inference_internal.h"

#include "recflow/columnar/schema.h"
#include "recflow/columnar/value_parsing.h"
#include "recflow/formats/jsonl/non_finite_text.h"

namespace recflow::jsonl {

using simdjson::dom::element_type;

TypeInference* TypeInference::Member(std::string_view key) {
  auto [it, inserted] = member_index_.try_emplace(std::string(key), members_.size());
  if (inserted) {
    members_.emplace_back(std::string(key), std::make_unique<TypeInference>(infer_timestamps_));
    member_seen_.push_back(0);
  }
  ++member_seen_[it->second];
  return members_[it->second].second.get();
}

void TypeInference::ObserveMembers(simdjson::dom::object object) {
  ++objects_;
  for (const auto field : object) Member(field.key)->Observe(field.value);
}

void TypeInference::Observe(simdjson::dom::element value) {
  switch (value.type()) {
    case element_type::NULL_VALUE:
      saw_null_ = true;
      break;
    case element_type::BOOL:
      kinds_ |= kBool;
      break;
    case element_type::INT64:
      kinds_ |= kInt;
      break;
    case element_type::UINT64:
    case element_type::DOUBLE:
      kinds_ |= kFloat;
      break;
    case element_type::STRING: {
      std::string_view text;
      if (value.get_string().get(text)) text = {};
      if (ParseNonFiniteText(text)) {
        kinds_ |= kNonFiniteText;
        all_timestamps_ = false;
        break;
      }
      kinds_ |= kString;
      if (infer_timestamps_ && all_timestamps_) {
        int64_t micros;
        if (!ParseTimestampMicros(text, &micros)) all_timestamps_ = false;
      }
      break;
    }
    case element_type::ARRAY: {
      kinds_ |= kArray;
      if (item_ == nullptr) item_ = std::make_unique<TypeInference>(infer_timestamps_);
      simdjson::dom::array array;
      if (value.get_array().get(array)) break;
      for (const auto element : array) item_->Observe(element);
      break;
    }
    case element_type::OBJECT: {
      kinds_ |= kObject;
      simdjson::dom::object object;
      if (value.get_object().get(object)) break;
      ObserveMembers(object);
      break;
    }
  }
}

std::vector<FieldPtr> TypeInference::MakeMemberFields(bool infer_nullability) const {
  std::vector<FieldPtr> fields;
  fields.reserve(members_.size());
  for (size_t i = 0; i < members_.size(); ++i) {
    FieldPtr field = members_[i].second->MakeField(members_[i].first, infer_nullability);
    if (member_seen_[i] < objects_ && !field->nullable()) field = field->WithNullable(true);
    fields.push_back(std::move(field));
  }
  return fields;
}

FieldPtr TypeInference::MakeField(std::string name, bool infer_nullability) const {
  DataTypePtr type;
  std::shared_ptr<const KeyValueMetadata> metadata;
  // "NaN", "Infinity", "-Infinity" beside numbers only are floats (JsonWriter's spelling); otherwise strings.
  uint8_t kinds = kinds_;
  if ((kinds & kNonFiniteText) != 0) {
    const bool numbers = (kinds & (kInt | kFloat)) != 0 && (kinds & ~(kInt | kFloat | kNonFiniteText)) == 0;
    kinds = numbers ? kFloat : static_cast<uint8_t>((kinds & ~kNonFiniteText) | kString);
  }
  if (kinds == kBool) {
    type = boolean();
  } else if (kinds == kInt) {
    type = int64();
  } else if (kinds != 0 && (kinds & ~(kInt | kFloat)) == 0) {
    type = float64();
  } else if (kinds == kString && infer_timestamps_ && all_timestamps_) {
    type = int64();
    metadata = std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
        {std::string(kLogicalTypeKey), std::string(kTimestampLogicalType)}});
  } else if (kinds == kArray) {
    type = list(item_->MakeField("item", infer_nullability));
  } else if (kinds == kObject) {
    type = struct_(MakeMemberFields(infer_nullability));
  } else {
    type = utf8();
  }
  const bool nullable = !infer_nullability || saw_null_ || kinds == 0;
  return Field::Make(std::move(name), std::move(type), nullable, std::move(metadata));
}

}  // namespace recflow::jsonl
