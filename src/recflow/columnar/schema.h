// KeyValueMetadata, Field and Schema: named, typed columns with string metadata.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "recflow/columnar/type.h"

namespace recflow {

/// Ordered string key/value pairs attached to a field or a schema (Arrow's custom_metadata).
class KeyValueMetadata {
 public:
  /// Empty metadata.
  KeyValueMetadata() = default;
  /// Takes the pairs as they are (duplicate keys are kept; Get returns the first).
  explicit KeyValueMetadata(std::vector<std::pair<std::string, std::string>> items);

  /// The value of the first pair with this key, if any.
  std::optional<std::string> Get(std::string_view key) const;
  /// Replaces the value of the first pair with this key, or appends a new pair.
  void Set(std::string key, std::string value);
  /// Number of pairs.
  int64_t size() const { return static_cast<int64_t>(items_.size()); }
  /// The i-th key / value, 0 <= i < size().
  const std::string& key(int64_t i) const { return items_[static_cast<size_t>(i)].first; }
  const std::string& value(int64_t i) const { return items_[static_cast<size_t>(i)].second; }
  /// All keys / values in order.
  std::vector<std::string> keys() const;
  std::vector<std::string> values() const;
  /// The pairs in order.
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }
  /// Same pairs regardless of their order.
  bool Equals(const KeyValueMetadata& other) const;
  /// "{k1: v1, k2: v2}".
  std::string ToString() const;

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

/// Shared, immutable metadata.
using KeyValueMetadataPtr = std::shared_ptr<const KeyValueMetadata>;

/// A named column: name, type, nullability and optional metadata. Immutable.
class Field {
 public:
  /// Creates a field; `metadata` may be null.
  static FieldPtr Make(std::string name, DataTypePtr type, bool nullable = true,
                       std::shared_ptr<const KeyValueMetadata> metadata = nullptr);
  /// Use Make(); public only for std::make_shared.
  Field(std::string name, DataTypePtr type, bool nullable, std::shared_ptr<const KeyValueMetadata> metadata);

  /// The column name.
  const std::string& name() const { return name_; }
  /// The column type.
  const DataTypePtr& type() const { return type_; }
  /// Whether the column may hold nulls.
  bool nullable() const { return nullable_; }
  /// May be null.
  const std::shared_ptr<const KeyValueMetadata>& metadata() const { return metadata_; }

  /// A copy with another type / nullability / metadata.
  FieldPtr WithType(DataTypePtr type) const;
  FieldPtr WithNullable(bool nullable) const;
  FieldPtr WithMetadata(std::shared_ptr<const KeyValueMetadata> metadata) const;
  /// A copy with another name.
  FieldPtr WithName(std::string name) const;

  /// Same name, nullability and type; metadata too when `check_metadata` (null == empty).
  bool Equals(const Field& other, bool check_metadata = false) const;
  /// "name: type" or "name: type not null".
  std::string ToString() const;

 private:
  std::string name_;
  DataTypePtr type_;
  bool nullable_;
  std::shared_ptr<const KeyValueMetadata> metadata_;
};

/// The columns of a RecordBatch, with optional schema-level metadata. Immutable.
class Schema {
 public:
  /// Creates a schema; `metadata` may be null. Duplicate field names are allowed.
  static SchemaPtr Make(std::vector<FieldPtr> fields, std::shared_ptr<const KeyValueMetadata> metadata = nullptr);
  /// Use Make(); public only for std::make_shared.
  Schema(std::vector<FieldPtr> fields, std::shared_ptr<const KeyValueMetadata> metadata);

  /// Number of fields.
  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// The i-th field, 0 <= i < num_fields().
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  /// All fields in order.
  const std::vector<FieldPtr>& fields() const { return fields_; }
  /// Index of the first field with this name, -1 if absent.
  int GetFieldIndex(std::string_view name) const;
  /// May be null.
  const std::shared_ptr<const KeyValueMetadata>& metadata() const { return metadata_; }
  /// A copy with other metadata.
  SchemaPtr WithMetadata(std::shared_ptr<const KeyValueMetadata> metadata) const;
  /// A copy whose top-level fields are all nullable (what inference from a sample that did not
  /// see the whole input must give: a null may come after the sample).
  SchemaPtr WithAllNullable() const;

  /// Same fields in the same order (and metadata, of schema and fields, when `check_metadata`).
  bool Equals(const Schema& other, bool check_metadata = false) const;
  /// One "name: type[ not null]" per line.
  std::string ToString() const;

 private:
  std::vector<FieldPtr> fields_;
  std::shared_ptr<const KeyValueMetadata> metadata_;
};

/// Field metadata key naming a logical type carried by a physical column type (shared by every
/// format that reads or writes one).
inline constexpr std::string_view kLogicalTypeKey = "recflow.logical_type";
/// kLogicalTypeKey value of an int64 column holding microseconds since the epoch, UTC.
inline constexpr std::string_view kTimestampLogicalType = "timestamp[us, UTC]";

/// True when `field` is an int64 column whose (first) kLogicalTypeKey is kTimestampLogicalType.
bool IsTimestampField(const Field& field);

}  // namespace recflow
