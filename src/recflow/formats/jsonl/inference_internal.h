// TypeInference: the type and nullability of one JSON value position, learned from sampled records.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recflow/columnar/schema.h"

namespace recflow::jsonl {

/// Accumulates the values seen at one position (a top-level key, a nested key or the elements
/// of an array) and picks its type:
///   only booleans → bool; only integers fitting int64 → int64; numbers otherwise → float64, also
///   beside the strings "NaN", "Infinity" and "-Infinity" (JsonWriter's spelling of them);
///   only strings → timestamp when every one parses as ISO-8601 (and timestamps are inferred),
///   else utf8; only arrays → list of the elements' type; only objects → struct of the keys in
///   order of first appearance; nothing but null → utf8; any other mix → utf8 holding each
///   value's JSON text (strings as themselves).
/// Recursion follows the JSON nesting, which the parser bounds by ReadOptions::max_depth.
class TypeInference {
 public:
  /// `infer_timestamps` as in ReadOptions.
  explicit TypeInference(bool infer_timestamps) : infer_timestamps_(infer_timestamps) {}

  /// Observes a null or a missing key.
  void ObserveNull() { saw_null_ = true; }
  /// Observes a value (null included).
  void Observe(simdjson::dom::element value);
  /// Observes the members of a record object (the schema's top level).
  void ObserveMembers(simdjson::dom::object object);

  /// The inferred field; nullable when a null or a missing key was seen, or when
  /// `infer_nullability` is false.
  FieldPtr MakeField(std::string name, bool infer_nullability) const;
  /// The inferred members of an object position, in order of first appearance.
  std::vector<FieldPtr> MakeMemberFields(bool infer_nullability) const;

 private:
  static constexpr uint8_t kBool = 1;
  static constexpr uint8_t kInt = 2;
  static constexpr uint8_t kFloat = 4;  // a double, or an integer beyond int64
  static constexpr uint8_t kString = 8;
  static constexpr uint8_t kArray = 16;
  static constexpr uint8_t kObject = 32;
  static constexpr uint8_t kNonFiniteText = 64;  // "NaN", "Infinity" or "-Infinity"

  TypeInference* Member(std::string_view key);

  bool infer_timestamps_;
  uint8_t kinds_ = 0;
  bool saw_null_ = false;
  bool all_timestamps_ = true;
  std::unique_ptr<TypeInference> item_;  // arrays: the elements
  int64_t objects_ = 0;                  // objects: how many were seen
  std::vector<std::pair<std::string, std::unique_ptr<TypeInference>>> members_;
  std::unordered_map<std::string, size_t> member_index_;
  std::vector<int64_t> member_seen_;  // objects holding each member
};

}  // namespace recflow::jsonl
