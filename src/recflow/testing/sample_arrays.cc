// SampleArrays: small arrays of every layout, built buffer by buffer.
#include "recflow/testing/sample_arrays.h"

#include <cstring>

#include "recflow/columnar/schema.h"

namespace recflow::testing {

std::shared_ptr<Buffer> ValidityOf(std::string_view bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return BufferOf(bytes);
}

std::shared_ptr<Buffer> ViewsOf(const std::vector<ViewSpec>& views) {
  std::string out;
  for (const ViewSpec& view : views) {
    char bytes[16] = {};
    const auto size = static_cast<int32_t>(view.bytes.size());
    std::memcpy(bytes, &size, 4);
    if (size <= 12) {
      std::memcpy(bytes + 4, view.bytes.data(), view.bytes.size());
    } else {
      std::memcpy(bytes + 4, view.bytes.data(), 4);
      std::memcpy(bytes + 8, &view.buffer, 4);
      std::memcpy(bytes + 12, &view.offset, 4);
    }
    out.append(bytes, sizeof(bytes));
  }
  return Buffer::FromString(std::move(out));
}

std::vector<std::pair<std::string, std::shared_ptr<ArrayData>>> SampleArrays() {
  using Arrays = std::vector<std::pair<std::string, std::shared_ptr<ArrayData>>>;
  Arrays out;
  const auto add = [&out](std::string name, std::shared_ptr<ArrayData> data) { out.emplace_back(std::move(name), std::move(data)); };
  const auto strings = ArrayData::Make(utf8(), 3, {ValidityOf("101"), BufferOf<int32_t>({0, 3, 3, 7}),
                                                   Buffer::FromString("catbird")}, 1);
  const auto ints = ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, -2, 3, 4})}, 0);

  add("null", ArrayData::Make(null(), 2, {}, 2));
  add("bool", ArrayData::Make(boolean(), 3, {ValidityOf("110"), BufferOf<uint8_t>({0b010})}, 1));
  add("int8", ArrayData::Make(int8(), 2, {nullptr, BufferOf<int8_t>({-128, 127})}, 0));
  add("uint64", ArrayData::Make(uint64(), 2, {nullptr, BufferOf<uint64_t>({0, ~0ULL})}, 0));
  add("float16", ArrayData::Make(float16(), 2, {nullptr, BufferOf<uint16_t>({0x3C00, 0xC000})}, 0));
  add("float64", ArrayData::Make(float64(), 2, {ValidityOf("01"), BufferOf<double>({0, 2.5})}, 1));
  add("decimal128", ArrayData::Make(decimal(10, 2), 1, {nullptr, BufferOf<int64_t>({-1250, -1})}, 0));
  add("decimal256", ArrayData::Make(decimal(60, 5, 256), 1, {nullptr, BufferOf<int64_t>({7, 0, 0, 0})}, 0));
  add("decimal32", ArrayData::Make(decimal(9, 2, 32), 2, {nullptr, BufferOf<int32_t>({-1250, 7})}, 0));
  add("decimal64", ArrayData::Make(decimal(18, 3, 64), 2, {ValidityOf("01"), BufferOf<int64_t>({0, -4'000'001})}, 1));
  add("date32", ArrayData::Make(date32(), 2, {nullptr, BufferOf<int32_t>({18000, -1})}, 0));
  add("date64", ArrayData::Make(date64(), 1, {nullptr, BufferOf<int64_t>({86'400'000})}, 0));
  add("time32", ArrayData::Make(time32(TimeUnit::kMilli), 1, {nullptr, BufferOf<int32_t>({3723001})}, 0));
  add("time64", ArrayData::Make(time64(TimeUnit::kNano), 1, {nullptr, BufferOf<int64_t>({1})}, 0));
  add("timestamp", ArrayData::Make(timestamp(TimeUnit::kMicro, "UTC"), 2, {nullptr, BufferOf<int64_t>({0, -1})}, 0));
  add("duration", ArrayData::Make(duration(TimeUnit::kSecond), 1, {nullptr, BufferOf<int64_t>({-5})}, 0));
  add("interval_month_day_nano",
      ArrayData::Make(interval(IntervalUnit::kMonthDayNano), 1, {nullptr, BufferOf<int32_t>({1, 2, 3, 0})}, 0));
  add("utf8", strings);
  add("utf8_sliced", strings->Slice(1, 2));
  add("large_binary", ArrayData::Make(large_binary(), 2, {nullptr, BufferOf<int64_t>({0, 1, 3}),
                                                          Buffer::FromString(std::string("\x00\xff\x01", 3))}, 0));
  add("fixed_size_binary", ArrayData::Make(fixed_size_binary(2), 2, {ValidityOf("10"), Buffer::FromString("ab??")}, 1));
  add("list", ArrayData::Make(list(int32()), 3, {ValidityOf("101"), BufferOf<int32_t>({0, 2, 2, 4})}, 1, 0, {ints}));
  add("large_list", ArrayData::Make(large_list(Field::Make("item", int32())), 2, {nullptr, BufferOf<int64_t>({0, 1, 4})},
                                    0, 0, {ints}));
  add("fixed_size_list",
      ArrayData::Make(fixed_size_list(Field::Make("item", int32(), false), 2), 2, {nullptr}, 0, 0, {ints}));
  add("struct", ArrayData::Make(struct_({Field::Make("s", utf8()), Field::Make("i", int32())}), 3, {ValidityOf("011")},
                                1, 0, {strings, ints}));
  const DataTypePtr map_type = map(Field::Make("key", utf8(), false), Field::Make("value", int32()), true);
  const auto keys = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 1, 2, 3}), Buffer::FromString("abc")}, 0);
  add("map", ArrayData::Make(map_type, 2, {nullptr, BufferOf<int32_t>({0, 2, 3})}, 0, 0,
                             {ArrayData::Make(map_type->value_type(), 3, {nullptr}, 0, 0, {keys, ints})}));
  const std::vector<FieldPtr> members = {Field::Make("i", int32()), Field::Make("s", utf8())};
  add("sparse_union", ArrayData::Make(union_(UnionMode::kSparse, members, {4, 9}), 3,
                                      {nullptr, BufferOf<int8_t>({4, 9, 9})}, 0, 0, {ints, strings}));
  add("dense_union", ArrayData::Make(union_(UnionMode::kDense, members), 3,
                                     {nullptr, BufferOf<int8_t>({1, 0, 1}), BufferOf<int32_t>({2, 3, 0})}, 0, 0,
                                     {ints, strings}));
  auto dict = ArrayData::Make(dictionary(int16(), utf8(), true), 3, {ValidityOf("110"), BufferOf<int16_t>({2, 0, 9})}, 1);
  dict->dictionary = keys;
  add("dictionary", dict);
  // Views: inline, in data buffer 0, null, in data buffer 1 (after another value's bytes).
  const std::vector<ViewSpec> views = {
      {"short"}, {"longer than twelve bytes", 0, 0}, {""}, {"another long value", 1, 3}};
  const std::vector<std::shared_ptr<Buffer>> view_data = {ValidityOf("1101"), ViewsOf(views), Buffer::FromString("longer than twelve bytes"),
                          Buffer::FromString("xyzanother long value")};
  add("binary_view", ArrayData::Make(binary_view(), 4, view_data, 1));
  add("utf8_view", ArrayData::Make(utf8_view(), 4, view_data, 1));
  add("utf8_view_sliced", ArrayData::Make(utf8_view(), 4, view_data, 1)->Slice(1, 3));
  // List views: out of order, overlapping, a null and an empty one.
  const auto int32_item = Field::Make("item", int32());
  add("list_view", ArrayData::Make(list_view(int32_item), 4,
                                   {ValidityOf("1011"), BufferOf<int32_t>({2, 0, 0, 4}), BufferOf<int32_t>({2, 0, 3, 0})}, 1,
                                   0, {ints}));
  add("large_list_view",
      ArrayData::Make(large_list_view(int32_item), 2, {nullptr, BufferOf<int64_t>({1, 0}), BufferOf<int64_t>({3, 1})}, 0,
                      0, {ints}));
  // Runs: cat cat null bird bird.
  const auto run_values = ArrayData::Make(utf8(), 3, {ValidityOf("101"), BufferOf<int32_t>({0, 3, 3, 7}),
                                                      Buffer::FromString("catbird")}, 1);
  const auto ree = ArrayData::Make(run_end_encoded(int32(), utf8()), 5, {}, 0, 0,
                                   {ArrayData::Make(int32(), 3, {nullptr, BufferOf<int32_t>({2, 3, 5})}, 0), run_values});
  add("run_end_encoded", ree);
  add("run_end_encoded_sliced", ree->Slice(1, 3));
  add("run_end_encoded_int16",
      ArrayData::Make(run_end_encoded(int16(), int32()), 4, {}, 0, 0,
                      {ArrayData::Make(int16(), 2, {nullptr, BufferOf<int16_t>({1, 4})}, 0), ints}));
  return out;
}

}  // namespace recflow::testing
