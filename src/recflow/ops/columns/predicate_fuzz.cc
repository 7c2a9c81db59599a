// libFuzzer target: parse arbitrary text as a filter expression and evaluate it on a small batch.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recflow/columnar/builder.h"
#include "recflow/ops/columns/predicate.h"

namespace {

std::shared_ptr<recflow::RecordBatch> MakeBatch() {
  using namespace recflow;
  Int64Builder age;
  (void)age.Append(17);
  (void)age.AppendNull();
  BinaryBuilder country(utf8());
  (void)country.Append("DE");
  (void)country.AppendNull();
  BooleanBuilder vip;
  (void)vip.AppendNull();
  (void)vip.Append(true);
  Float64Builder score;
  (void)score.Append(0.5);
  (void)score.Append(-2);
  Int32Builder day(date32());
  (void)day.Append(19782);
  (void)day.AppendNull();
  auto schema = Schema::Make({Field::Make("age", int64()), Field::Make("country", utf8()), Field::Make("vip", boolean()),
                              Field::Make("score", float64()), Field::Make("day", date32())});
  return *RecordBatch::Make(schema, 2, {*age.Finish(), *country.Finish(), *vip.Finish(), *score.Finish(), *day.Finish()});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto batch = MakeBatch();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto predicate = recflow::ops::ParsePredicate(text, *batch->schema());
  if (!predicate.ok()) return 0;
  auto rows = (*predicate)->SelectRows(*batch);
  if (!rows.ok() || rows->size() > 2) __builtin_trap();
  (void)(*predicate)->ToString();
  return 0;
}
