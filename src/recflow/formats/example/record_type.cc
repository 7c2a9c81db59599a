// Record type names and the SequenceExample placement of schema fields.
#include "recflow/formats/example/record_type.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace recflow::example {

std::string_view RecordTypeName(RecordType type) {
  switch (type) {
    case RecordType::kExample:
      return "example";
    case RecordType::kSequenceExample:
      return "sequence-example";
    case RecordType::kByteArray:
      return "bytes";
  }
  return "example";
}

Result<RecordType> ParseRecordType(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "example") return RecordType::kExample;
  if (lower == "sequence-example" || lower == "sequence_example" || lower == "sequenceexample") {
    return RecordType::kSequenceExample;
  }
  if (lower == "bytes" || lower == "bytearray") return RecordType::kByteArray;
  return Status::InvalidArgument("unknown record type '" + std::string(name) +
                                 "' (expected example, sequence-example or bytes)");
}

Result<bool> IsFeatureListField(const Field& field) {
  if (field.metadata()) {
    if (std::optional<std::string> kind = field.metadata()->Get(kKindMetadataKey)) {
      if (*kind == kKindFeatureList) return true;
      if (*kind == kKindContext) return false;
      return Status::InvalidArgument("field '" + field.name() + "': " + std::string(kKindMetadataKey) + " is '" +
                                     *kind + "', expected 'context' or 'feature_list'");
    }
  }
  const DataType& t = *field.type();
  return t.id() == TypeId::kList && t.value_type()->id() == TypeId::kList;
}

SchemaPtr ByteArraySchema() {
  return Schema::Make({Field::Make(std::string(kByteArrayColumn), binary(), /*nullable=*/false)});
}

}  // namespace recflow::example
