// Tests for OpenAvroSource: block units framed serially and decoded concurrently, in input order.
#include "recflow/formats/avro/avro_source.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "recflow/formats/avro/test_container_internal.h"
#include "recflow/formats/avro/test_util_internal.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/testing/testdata.h"

namespace recflow::avro {
namespace {

using testing::TestWriter;

constexpr char kSchema[] = R"({"type": "record", "name": "S", "fields": [
  {"name": "id", "type": "long"}, {"name": "s", "type": ["null", "string"]}]})";

TEST(AvroSourceTest, UnitsDecodeConcurrentlyToTheFileInOrder) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("many.avro");
  constexpr int kRecords = 3000;
  {
    TestWriter w(path, kSchema, "snappy", 2048);
    ASSERT_TRUE(w.ok()) << avro_strerror();
    for (int k = 0; k < kRecords; ++k) {
      w.record();
      avro_value_t v = w.field("id");
      AVRO_OK(avro_value_set_long(&v, k));
      avro_value_t branch;
      v = w.field("s");
      AVRO_OK(avro_value_set_branch(&v, k % 2, &branch));
      if (k % 2 == 1) {
        AVRO_OK(avro_value_set_string(&branch, std::to_string(k).c_str()));
      }
      AVRO_OK(w.Append());
    }
  }
  auto source = OpenAvroSource(path, ReadOptions::Defaults());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->name(), path);
  EXPECT_EQ((*source)->schema()->num_fields(), 2);
  std::vector<std::unique_ptr<SourceUnit>> units;
  int64_t bytes = 0;
  while (true) {
    auto unit = (*source)->NextUnit();
    ASSERT_TRUE(unit.ok()) << unit.status().ToString();
    if (!*unit) break;
    bytes += (*unit)->input_bytes();
    units.push_back(*std::move(unit));
  }
  ASSERT_GT(units.size(), 5u);
  EXPECT_LT(bytes, static_cast<int64_t>(std::filesystem::file_size(path)));
  std::vector<Result<DecodedUnit>> decoded(units.size(), Status::Internal("not decoded"));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t u = static_cast<size_t>(t); u < units.size(); u += 4) decoded[u] = units[u]->Decode();
    });
  }
  for (auto& thread : threads) thread.join();
  int64_t k = 0;
  for (auto& unit : decoded) {
    ASSERT_TRUE(unit.ok()) << unit.status().ToString();
    ASSERT_TRUE(unit->batch->ValidateFull().ok());
    EXPECT_EQ(unit->input_records, unit->batch->num_rows());
    Int64Array ids(unit->batch->column_data(0));
    for (int64_t r = 0; r < unit->batch->num_rows(); ++r, ++k) {
      ASSERT_EQ(ids.Value(r), k);
      ASSERT_EQ(testing::Str(unit->batch->column_data(1), r), k % 2 == 1 ? std::to_string(k) : "<null>");
    }
  }
  EXPECT_EQ(k, kRecords);
}

TEST(AvroSourceTest, BadBlocksFailOrAreReportedAsSkipped) {
  using testing::Block;
  using testing::Bytes;
  using testing::Long;
  const std::string bytes = testing::Header(kSchema) + Block(1, Long(1) + Long(0)) +
                            Block(2, Long(2) + Long(1) + Bytes("\xff") + Long(3) + Long(0)) +
                            Block(1, Long(4) + Long(0)) + "garbage" + testing::kTestSync + Block(1, Long(5) + Long(0));
  auto failing = OpenAvroSource(Buffer::FromString(bytes), "mem.avro", ReadOptions::Defaults());
  ASSERT_TRUE(failing.ok()) << failing.status().ToString();
  ASSERT_TRUE((*(*failing)->NextUnit())->Decode().ok());
  auto bad = (*(*failing)->NextUnit())->Decode();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().context().file, "mem.avro");
  EXPECT_EQ(bad.status().context().record, 0);  // relative to the unit
  EXPECT_EQ(bad.status().context().field, "s");

  auto options = ReadOptions::Defaults();
  options.bad_blocks = BadBlocksMode::kSkip;
  auto source = OpenAvroSource(Buffer::FromString(bytes), "mem.avro", options);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto units = recflow::testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  std::vector<int64_t> ids;
  int64_t skipped = 0, input_records = 0;
  for (const DecodedUnit& decoded : *units) {
    skipped += static_cast<int64_t>(decoded.skipped.size());
    input_records += decoded.input_records;
    for (const auto& s : decoded.skipped) EXPECT_EQ(s.error.context().file, "mem.avro");
    Int64Array column(decoded.batch->column_data(0));
    for (int64_t r = 0; r < decoded.batch->num_rows(); ++r) ids.push_back(column.Value(r));
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 4, 5}));
  EXPECT_EQ(skipped, 2);  // the block with bad UTF-8 and the garbage before a sync marker
  EXPECT_EQ(input_records, 5);
}

}  // namespace
}  // namespace recflow::avro
