// Reads TFRecord files written by TensorFlow (TFX / tf.Transform test data) and counts records.
#include <gtest/gtest.h>

#include "recflow/formats/tfrecord/test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::tfrecord {
namespace {

struct TfxFile {
  const char* name;
  int64_t records;
  Compression compression;
};

class TfxInteropTest : public ::testing::TestWithParam<TfxFile> {};

TEST_P(TfxInteropTest, CountsRecords) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string path = (recflow::testing::TestdataDir() / "tfrecord" / "tfx" / GetParam().name).string();
  for (bool stream : {false, true}) {
    SCOPED_TRACE(stream ? "stream" : "file");
    auto reader = stream ? [&]() -> Result<std::unique_ptr<RecordReader>> {
      ASSIGN_OR_RETURN(auto in, FileInputStream::Open(path));
      return RecordReader::FromStream(std::move(in), ReaderOptions::Defaults());
    }()
                         : RecordReader::Open(path, ReaderOptions::Defaults());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->compression(), GetParam().compression);
    std::string_view record;
    Result<bool> more = true;
    int64_t count = 0;
    while ((more = (*reader)->Next(&record)).ok() && *more) {
      EXPECT_FALSE(record.empty());
      ++count;
    }
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    EXPECT_EQ(count, GetParam().records);
    EXPECT_EQ((*reader)->record_index(), GetParam().records - 1);
    EXPECT_EQ((*reader)->corrupt_records(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tfx, TfxInteropTest,
    ::testing::Values(TfxFile{"penguin-train.tfrecord.gz", 234, Compression::kGzip},
                      TfxFile{"penguin-eval.tfrecord.gz", 100, Compression::kGzip},
                      TfxFile{"taxi-train-00000-of-00012.tfrecord.gz", 826, Compression::kGzip},
                      TfxFile{"mnist.tfrecord", 1000, Compression::kNone},
                      TfxFile{"transform-sequence-example.tfrecord.gz", 3, Compression::kGzip}),
    [](const auto& info) {
      std::string name = info.param.name;
      name = name.substr(0, name.find('.'));
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace recflow::tfrecord
