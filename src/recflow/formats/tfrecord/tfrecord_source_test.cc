// TfrecordSource units: records of a mapped file are decoded where they lie (no copy), streamed ones from copies.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "recflow/columnar/array.h"
#include "recflow/columnar/schema.h"
#include "recflow/formats/tfrecord/test_util_internal.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/testing/testdata.h"

namespace recflow::tfrecord {
namespace {

/// The process's resident anonymous memory (RssAnon of /proc/self/status), in bytes.
int64_t ResidentAnonymousBytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "RssAnon:") {
      int64_t kib = 0;
      status >> kib;
      return kib << 10;
    }
    status.ignore(1 << 20, '\n');
  }
  ADD_FAILURE() << "no RssAnon in /proc/self/status";
  return 0;
}

/// `count` records of `size` bytes each, record i filled with the byte 'a' + i % 26.
std::vector<std::string> Records(int count, size_t size) {
  std::vector<std::string> records;
  for (int i = 0; i < count; ++i) records.emplace_back(size, static_cast<char>('a' + i % 26));
  return records;
}

/// Writes `records` (uncompressed, or with `compression`) as `path`.
void WriteFile(const std::string& path, const std::vector<std::string>& records,
               Compression compression = Compression::kNone) {
  auto bytes = testing::EncodeRecords(records, compression);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::ofstream(path, std::ios::binary) << *bytes;
}

/// Source options for raw records into one binary column, every record in one unit.
SourceOptions RawRecordsInOneUnit() {
  SourceOptions options = SourceOptions::Defaults();
  options.record_type = example::RecordType::kByteArray;
  options.schema = Schema::Make({Field::Make("record", binary())});
  options.unit_bytes = int64_t{1} << 30;
  return options;
}

/// The records of `path`'s first unit, decoded.
std::vector<std::string> FirstUnitRecords(const std::string& path, const SourceOptions& options) {
  auto source = OpenTfrecordSource(path, options);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return {};
  auto unit = (*source)->NextUnit();
  EXPECT_TRUE(unit.ok() && *unit != nullptr) << unit.status().ToString();
  if (!unit.ok() || *unit == nullptr) return {};
  auto decoded = (*unit)->Decode();
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  if (!decoded.ok()) return {};
  const BinaryArray column(decoded->batch->column_data(0));
  std::vector<std::string> out;
  for (int64_t i = 0; i < column.length(); ++i) out.emplace_back(column.GetView(i));
  return out;
}

TEST(TfrecordSourceTest, AUnitOfAMappedFileHoldsNoCopyOfItsRecords) {
  recflow::testing::ScratchDir dir;
  const std::vector<std::string> records = Records(512, 64 << 10);  // 32 MiB
  WriteFile(dir.File("big.tfrecord"), records);
  auto source = OpenTfrecordSource(dir.File("big.tfrecord"), RawRecordsInOneUnit());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  const int64_t before = ResidentAnonymousBytes();
  auto unit = (*source)->NextUnit();
  ASSERT_TRUE(unit.ok() && *unit != nullptr) << unit.status().ToString();
  // A copy of the records would add their 32 MiB; views into the mapping add a few offsets.
  EXPECT_LT(ResidentAnonymousBytes() - before, int64_t{4} << 20);
  EXPECT_EQ((*unit)->input_bytes(), static_cast<int64_t>(records.size()) * ((64 << 10) + kFramingOverhead));
  // The unit outlives its source (and the reader's reference to the mapping).
  source->reset();
  auto decoded = (*unit)->Decode();
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const BinaryArray column(decoded->batch->column_data(0));
  ASSERT_EQ(column.length(), 512);
  for (int64_t i = 0; i < column.length(); ++i) ASSERT_EQ(column.GetView(i), records[i]) << "record " << i;
}

TEST(TfrecordSourceTest, MappedAndStreamedFilesDecodeTheSameRecords) {
  recflow::testing::ScratchDir dir;
  const std::vector<std::string> records = testing::SampleRecords(300);
  WriteFile(dir.File("plain.tfrecord"), records);
  WriteFile(dir.File("packed.tfrecord.gz"), records, Compression::kGzip);
  EXPECT_EQ(FirstUnitRecords(dir.File("plain.tfrecord"), RawRecordsInOneUnit()), records);
  EXPECT_EQ(FirstUnitRecords(dir.File("packed.tfrecord.gz"), RawRecordsInOneUnit()), records);
}

TEST(TfrecordSourceTest, ARecordThatDoesNotDecodeIsNamedByFileRecordAndOffsetInBothModes) {
  recflow::testing::ScratchDir dir;
  // Example{features{feature{key: "x" value{int64_list{value: 1}}}}}, then a truncated message.
  const std::string good("\x0a\x0b\x0a\x09\x0a\x01x\x12\x04\x1a\x02\x08\x01", 13);
  const std::vector<std::string> records = {good, good, std::string("\x0a\x7f", 2), good};
  WriteFile(dir.File("bad.tfrecord"), records);
  WriteFile(dir.File("bad.tfrecord.gz"), records, Compression::kGzip);
  SourceOptions options = SourceOptions::Defaults();
  options.schema = Schema::Make({Field::Make("x", int64())});
  const int64_t offset = testing::RecordOffsets(records)[2];
  for (const char* name : {"bad.tfrecord", "bad.tfrecord.gz"}) {
    auto source = OpenTfrecordSource(dir.File(name), options);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    auto unit = (*source)->NextUnit();
    ASSERT_TRUE(unit.ok() && *unit != nullptr) << unit.status().ToString();
    const Status st = (*unit)->Decode().status();
    EXPECT_EQ(st.code(), StatusCode::kDataError) << st.ToString();
    EXPECT_EQ(st.context().file, dir.File(name));
    EXPECT_EQ(st.context().record, 2) << st.ToString();
    EXPECT_EQ(st.context().offset, offset) << st.ToString();
  }
}

}  // namespace
}  // namespace recflow::tfrecord
