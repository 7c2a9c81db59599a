// Interop tests: files written by the Apache Avro Python library (testdata/make_testdata.py) read back value by value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "recflow/columnar/array.h"
#include "recflow/formats/avro/avro_reader.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/avro/schema_mapping.h"
#include "recflow/formats/source_test_util.h"

namespace recflow::avro {
namespace {

constexpr int kRecords = 300;

std::string Fixture(const std::string& codec) {
  return std::string(RECFLOW_AVRO_TESTDATA) + "/events_" + codec + ".avro";
}

std::string Str(const std::shared_ptr<ArrayData>& column, int64_t row) {
  BinaryArray a(column);
  return a.IsNull(row) ? "<null>" : std::string(a.GetView(row));
}

// make_testdata.py's price: (i * 1234 - 50000) / 100 with two decimals.
std::string Price(int i) {
  const int64_t unscaled = int64_t{i} * 1234 - 50000;
  const int64_t magnitude = unscaled < 0 ? -unscaled : unscaled;
  std::string cents = std::to_string(magnitude % 100);
  if (cents.size() < 2) cents.insert(0, "0");
  return (unscaled < 0 ? "-" : "") + std::to_string(magnitude / 100) + "." + cents;
}

void CheckEvents(const std::string& codec) {
  SCOPED_TRACE(codec);
  auto options = ReadOptions::Defaults();
  options.batch_rows = 100;
  auto reader = AvroReader::Open(Fixture(codec), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const Schema& schema = *(*reader)->schema();
  EXPECT_EQ(schema.field(2)->metadata()->Get(kLogicalTypeKey), std::string(kDate32LogicalType));
  EXPECT_TRUE(IsTimestampField(*schema.field(3)));
  EXPECT_TRUE(IsTimestampField(*schema.field(4)));
  EXPECT_EQ(schema.field(5)->metadata()->Get(kLogicalTypeKey), std::string("decimal(10, 2)"));
  int i = 0;
  while (true) {
    auto next = (*reader)->Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    if (!*next) break;
    const RecordBatch& b = **next;
    ASSERT_TRUE(b.ValidateFull().ok());
    for (int64_t r = 0; r < b.num_rows(); ++r, ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(Int64Array(b.column_data(0)).Value(r), int64_t{i} * 1000003 - 5);
      EXPECT_EQ(Str(b.column_data(1), r), i % 3 == 0 ? "<null>" : "n\xc3\xa9" + std::to_string(i));
      EXPECT_EQ(Int32Array(b.column_data(2)).Value(r), i * 37 - 100);
      EXPECT_EQ(Int64Array(b.column_data(3)).Value(r), (int64_t{i} * 86400123 - 5) * 1000);
      Int64Array ts_us(b.column_data(4));
      EXPECT_EQ(ts_us.IsNull(r), i % 2 == 1);
      if (i % 2 == 0) {
        EXPECT_EQ(ts_us.Value(r), int64_t{i} * 1234567891);
      }
      EXPECT_EQ(Str(b.column_data(5), r), Price(i));
      EXPECT_EQ(Str(b.column_data(6), r), std::string(1, "ABC"[i % 3]));
      ListArray tags(b.column_data(7));
      ASSERT_EQ(tags.value_length(r), i % 4);
      for (int k = 0; k < i % 4; ++k) EXPECT_EQ(Str(tags.values(), tags.value_offset(r) + k), "t" + std::to_string(k));
      ListArray attrs(b.column_data(8));
      ASSERT_EQ(attrs.value_length(r), i % 3);
      StructArray entries(attrs.values());
      for (int k = 0; k < i % 3; ++k) {
        EXPECT_EQ(Str(entries.field(0), attrs.value_offset(r) + k), "k" + std::to_string(k));
        EXPECT_EQ(Float64Array(entries.field(1)).Value(attrs.value_offset(r) + k), k + i / 4.0);
      }
      StructArray point(b.column_data(9));
      EXPECT_EQ(Float32Array(point.field(0)).Value(r), i / 2.0f);
      EXPECT_EQ(Float32Array(point.field(1)).Value(r), static_cast<float>(-i));
      StructArray other(b.column_data(10));
      EXPECT_EQ(other.IsNull(r), i % 5 != 0);
      EXPECT_EQ(Str(b.column_data(11), r), std::string({static_cast<char>(i % 256), 0, '\xff', 7}));
      EXPECT_EQ(BooleanArray(b.column_data(12)).Value(r), i % 2 == 0);
    }
  }
  EXPECT_EQ(i, kRecords);
}

TEST(AvroPythonInteropTest, NullCodec) { CheckEvents("null"); }
TEST(AvroPythonInteropTest, DeflateCodec) { CheckEvents("deflate"); }
TEST(AvroPythonInteropTest, XzCodec) { CheckEvents("xz"); }
TEST(AvroPythonInteropTest, ZstandardCodec) { CheckEvents("zstandard"); }

TEST(AvroPythonInteropTest, Bzip2IsADataErrorNamingTheCodec) {
  auto reader = AvroReader::Open(Fixture("bzip2"), ReadOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
  EXPECT_NE(reader.status().message().find("'bzip2'"), std::string::npos) << reader.status().ToString();
  EXPECT_EQ(reader.status().context().file, Fixture("bzip2"));
}

TEST(AvroPythonInteropTest, SourceUnitsAreTheBlocks) {
  auto source = OpenAvroSource(Fixture("deflate"), ReadOptions::Defaults());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto units = recflow::testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  ASSERT_EQ(units->size(), 5u);
  int64_t records = 0;
  for (size_t u = 0; u < units->size(); ++u) {
    const DecodedUnit& decoded = (*units)[u];
    EXPECT_EQ(decoded.batch->num_rows(), u < 4 ? 64 : kRecords - 4 * 64);
    EXPECT_EQ(Int64Array(decoded.batch->column_data(0)).Value(0), records * 1000003 - 5);
    records += decoded.input_records;
  }
  EXPECT_EQ(records, kRecords);
}

}  // namespace
}  // namespace recflow::avro
