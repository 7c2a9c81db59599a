// Units outlive their sources: chained inputs drop a file's source while its last units decode.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/tfrecord/record_writer.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

/// Takes the first unit, destroys the source, then decodes the unit (ASan catches dangling use).
void ExpectUnitOutlivesSource(Result<std::unique_ptr<Source>> source, int64_t rows) {
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto unit = (*source)->NextUnit();
  ASSERT_TRUE(unit.ok()) << unit.status().ToString();
  ASSERT_NE(*unit, nullptr);
  source->reset();
  auto decoded = (*unit)->Decode();
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->batch->num_rows(), rows);
}

TEST(UnitLifetimeTest, EveryFormatsUnitsOutliveTheirSource) {
  testing::ScratchDir dir;
  std::ofstream(dir.File("a.csv")) << "x,y\n1,a\n2,b\n";
  std::ofstream(dir.File("a.jsonl")) << "{\"x\": 1}\n{\"x\": 2}\n{\"x\": 3}\n";
  {
    auto writer = tfrecord::RecordWriter::Open(dir.File("a.tfrecord"), tfrecord::WriterOptions::Defaults(),
                                             *LocalFileSystem::Instance());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    // Example{features{feature{key: "x" value{int64_list{value: 1}}}}}
    const std::string example("\x0a\x0b\x0a\x09\x0a\x01x\x12\x04\x1a\x02\x08\x01", 13);
    ASSERT_TRUE((*writer)->Write(example).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  ExpectUnitOutlivesSource(
      csv::OpenCsvSource(FileInputStream::Open(dir.File("a.csv")).ValueOrDie(), csv::ReadOptions::Defaults()), 2);
  ExpectUnitOutlivesSource(
      jsonl::OpenJsonlSource(FileInputStream::Open(dir.File("a.jsonl")).ValueOrDie(), jsonl::ReadOptions::Defaults()),
      3);
  ExpectUnitOutlivesSource(tfrecord::OpenTfrecordSource(dir.File("a.tfrecord"), tfrecord::SourceOptions::Defaults()), 1);
  // And through the chained input of several files, whose first sources go early.
  dataset::InputOptions options;
  ExpectUnitOutlivesSource(dataset::OpenInputs({dir.File("a.jsonl"), dir.File("a.jsonl")}, options), 3);
  // With partition columns, which a unit appends when it decodes.
  std::filesystem::create_directories(dir.File("ds/k=1"));
  std::filesystem::copy_file(dir.File("a.jsonl"), dir.File("ds/k=1/a.jsonl"));
  ExpectUnitOutlivesSource(dataset::OpenInputs({dir.File("ds")}, options), 3);
}

}  // namespace
}  // namespace recflow::pipeline
