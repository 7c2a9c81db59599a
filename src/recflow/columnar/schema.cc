// KeyValueMetadata, Field and Schema methods.
#include "recflow/columnar/schema.h"

#include <algorithm>

namespace recflow {

KeyValueMetadata::KeyValueMetadata(std::vector<std::pair<std::string, std::string>> items)
    : items_(std::move(items)) {}

std::optional<std::string> KeyValueMetadata::Get(std::string_view key) const {
  for (const auto& [k, v] : items_) {
    if (k == key) return v;
  }
  return std::nullopt;
}

void KeyValueMetadata::Set(std::string key, std::string value) {
  for (auto& [k, v] : items_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  items_.emplace_back(std::move(key), std::move(value));
}

std::vector<std::string> KeyValueMetadata::keys() const {
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& item : items_) out.push_back(item.first);
  return out;
}

std::vector<std::string> KeyValueMetadata::values() const {
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& item : items_) out.push_back(item.second);
  return out;
}

bool KeyValueMetadata::Equals(const KeyValueMetadata& other) const {
  if (items_.size() != other.items_.size()) return false;
  auto a = items_;
  auto b = other.items_;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

std::string KeyValueMetadata::ToString() const {
  std::string out = "{";
  for (size_t i = 0; i < items_.size(); ++i) {
    if (i > 0) out += ", ";
    out += items_[i].first + ": " + items_[i].second;
  }
  return out + "}";
}

namespace {

bool MetadataEquals(const KeyValueMetadataPtr& a, const KeyValueMetadataPtr& b) {
  const bool a_empty = a == nullptr || a->size() == 0;
  const bool b_empty = b == nullptr || b->size() == 0;
  if (a_empty || b_empty) return a_empty == b_empty;
  return a->Equals(*b);
}

}  // namespace

Field::Field(std::string name, DataTypePtr type, bool nullable, std::shared_ptr<const KeyValueMetadata> metadata)
    : name_(std::move(name)), type_(std::move(type)), nullable_(nullable), metadata_(std::move(metadata)) {}

FieldPtr Field::Make(std::string name, DataTypePtr type, bool nullable,
                     std::shared_ptr<const KeyValueMetadata> metadata) {
  return std::make_shared<const Field>(std::move(name), std::move(type), nullable, std::move(metadata));
}

FieldPtr Field::WithType(DataTypePtr type) const { return Make(name_, std::move(type), nullable_, metadata_); }
FieldPtr Field::WithNullable(bool nullable) const { return Make(name_, type_, nullable, metadata_); }
FieldPtr Field::WithMetadata(std::shared_ptr<const KeyValueMetadata> metadata) const {
  return Make(name_, type_, nullable_, std::move(metadata));
}
FieldPtr Field::WithName(std::string name) const { return Make(std::move(name), type_, nullable_, metadata_); }

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (this == &other) return true;
  if (name_ != other.name_ || nullable_ != other.nullable_ || !type_->Equals(*other.type_)) return false;
  return !check_metadata || MetadataEquals(metadata_, other.metadata_);
}

std::string Field::ToString() const { return name_ + ": " + type_->ToString() + (nullable_ ? "" : " not null"); }

Schema::Schema(std::vector<FieldPtr> fields, std::shared_ptr<const KeyValueMetadata> metadata)
    : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

SchemaPtr Schema::Make(std::vector<FieldPtr> fields, std::shared_ptr<const KeyValueMetadata> metadata) {
  return std::make_shared<const Schema>(std::move(fields), std::move(metadata));
}

int Schema::GetFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

SchemaPtr Schema::WithMetadata(std::shared_ptr<const KeyValueMetadata> metadata) const {
  return Make(fields_, std::move(metadata));
}

SchemaPtr Schema::WithAllNullable() const {
  std::vector<FieldPtr> fields;
  fields.reserve(fields_.size());
  for (const FieldPtr& f : fields_) {
    fields.push_back(f->nullable() ? f : Field::Make(f->name(), f->type(), /*nullable=*/true, f->metadata()));
  }
  return Make(std::move(fields), metadata_);
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (this == &other) return true;
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->Equals(*other.fields_[i], check_metadata)) return false;
  }
  return !check_metadata || MetadataEquals(metadata_, other.metadata_);
}

std::string Schema::ToString() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += "\n";
    out += fields_[i]->ToString();
  }
  return out;
}

bool IsTimestampField(const Field& field) {
  if (field.type()->id() != TypeId::kInt64 || field.metadata() == nullptr) return false;
  for (const auto& [key, value] : field.metadata()->items()) {
    if (key == kLogicalTypeKey) return value == kTimestampLogicalType;
  }
  return false;
}

}  // namespace recflow
