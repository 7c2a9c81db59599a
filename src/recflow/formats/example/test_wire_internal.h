// Test helper: tf.Example pieces (features, map entries, Examples) built with WireWriter.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "recflow/testing/wire_writer.h"

namespace recflow::example::testing {

using ::recflow::testing::WireWriter;

/// Feature{int64_list{packed values}}.
inline WireWriter Int64Feature(std::initializer_list<int64_t> v) {
  return WireWriter().MessageField(3, WireWriter().PackedVarints(1, v));
}
/// Feature{float_list{packed values}}.
inline WireWriter FloatFeature(std::initializer_list<float> v) {
  return WireWriter().MessageField(2, WireWriter().PackedFloats(1, v));
}
/// Feature{bytes_list{values}}.
inline WireWriter BytesFeature(std::initializer_list<std::string_view> v) {
  WireWriter list;
  for (std::string_view s : v) list.BytesField(1, s);
  return WireWriter().MessageField(1, list);
}
/// A map entry {key, value}.
inline WireWriter Entry(std::string_view key, const WireWriter& value) {
  return WireWriter().BytesField(1, key).MessageField(2, value);
}
/// Features / FeatureLists {entries...}.
inline WireWriter Map(std::initializer_list<WireWriter> entries) {
  WireWriter m;
  for (const WireWriter& e : entries) m.MessageField(1, e);
  return m;
}
/// Example{features{entries...}}.
inline WireWriter ExampleOf(std::initializer_list<WireWriter> entries) {
  return WireWriter().MessageField(1, Map(entries));
}
/// FeatureList{features...}.
inline WireWriter FeatureListOf(std::initializer_list<WireWriter> features) {
  WireWriter m;
  for (const WireWriter& f : features) m.MessageField(1, f);
  return m;
}

}  // namespace recflow::example::testing
