// RecordParser: simdjson DOM parsing of a padded line, error-code API only.
#include "recflow/formats/jsonl/record_parser_internal.h"

#include <string>

namespace recflow::jsonl {

Result<simdjson::dom::element> RecordParser::Parse(const Line& line) {
  constexpr size_t kInitialCapacity = size_t{64} << 10;
  if (!allocated_) {
    // simdjson counts the depth below the root, so a record of depth d needs d + 1.
    if (parser_.allocate(kInitialCapacity, static_cast<size_t>(max_depth_) + 1) != simdjson::SUCCESS) {
      return Status::OutOfMemory("cannot allocate the JSON parser");
    }
    allocated_ = true;
  }
  simdjson::dom::element element;
  const simdjson::error_code error = parser_.parse(line.text.data(), line.text.size(), false).get(element);
  if (error == simdjson::MEMALLOC) return Status::OutOfMemory("cannot allocate the JSON parser");
  if (error == simdjson::DEPTH_ERROR) {
    return Status::DataError("record nests objects and arrays deeper than max_depth (" + std::to_string(max_depth_) +
                             ")");
  }
  if (error != simdjson::SUCCESS) {
    return Status::DataError(std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  if (element.type() != simdjson::dom::element_type::OBJECT) {
    return Status::DataError("the record is not a JSON object");
  }
  return element;
}

}  // namespace recflow::jsonl
