// Sniffing real files: TFX shards under TFX's and Beam's names, GeoTIFFs, Arrow integration files and streams.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/sniff.h"
#include "recflow/testing/testdata.h"

namespace recflow::formats {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `from` copied under the name `name` in `dir`; its path.
std::string CopyAs(const fs::path& from, const testing::ScratchDir& dir, const std::string& name) {
  const std::string to = dir.File(name);
  fs::copy_file(from, to);
  return to;
}

TEST(SniffInteropTest, TfxShardsUnderTfxAndBeamNames) {
  RECFLOW_REQUIRE_TESTDATA();
  const fs::path tfx = testing::TestdataDir() / "tfrecord" / "tfx";
  testing::ScratchDir dir;
  for (const std::string name : {"data_tfrecord-00000-of-00002.gz", "part-00000-of-00001", "penguin.tfrecord.gz"}) {
    const Sniffed s =
        SniffFile(CopyAs(tfx / "penguin-train.tfrecord.gz", dir, name), BuiltinFormats().sniff_rules()).ValueOrDie();
    EXPECT_EQ(s.codec, SniffedCodec::kGzip) << name;
    EXPECT_EQ(s.content, ContentKind::kTfrecord) << name;
    EXPECT_EQ(s.certainty, Certainty::kChecked) << name;
  }
  const Sniffed seq =
      SniffFile(CopyAs(tfx / "transform-sequence-example.tfrecord.gz", dir, "seq"), BuiltinFormats().sniff_rules())
          .ValueOrDie();
  EXPECT_EQ(seq.content, ContentKind::kTfrecord);
  const Sniffed mnist =
      SniffFile(CopyAs(tfx / "mnist.tfrecord", dir, "mnist-00000-of-00001"), BuiltinFormats().sniff_rules())
          .ValueOrDie();
  EXPECT_EQ(mnist.codec, SniffedCodec::kNone);
  EXPECT_EQ(mnist.content, ContentKind::kTfrecord);
}

TEST(SniffInteropTest, GeoTiffsAreNamedNotReadAsTfrecord) {
  RECFLOW_REQUIRE_TESTDATA();
  const fs::path raster = testing::TestdataDir() / "raster";
  for (const fs::path& file : {raster / "sentinel2-l2a" / "B02.tif", raster / "sentinel2-l2a" / "B08.tif",
                               raster / "landsat8-c2l2" / "SR_B4.TIF"}) {
    const Sniffed s = SniffFile(file.string(), BuiltinFormats().sniff_rules()).ValueOrDie();
    EXPECT_EQ(s.content, ContentKind::kTiff) << file;
    const Status st = CheckReadable(file.string(), s);
    EXPECT_EQ(st.code(), StatusCode::kDataError);
    EXPECT_NE(st.message().find("TIFF/GeoTIFF image (magic II*\\0)"), std::string::npos) << st.ToString();
  }
}

TEST(SniffInteropTest, ArrowIntegrationFilesAndStreamsOfBothGenerations) {
  RECFLOW_REQUIRE_TESTDATA();
  const fs::path dir = testing::TestdataDir() / "arrow-integration";
  int streams = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const fs::path& path = entry.path();
    if (path.extension() == ".arrow_file") {
      const Sniffed s = SniffFile(path.string(), BuiltinFormats().sniff_rules()).ValueOrDie();
      EXPECT_EQ(s.content, ContentKind::kArrowFile) << path;
      EXPECT_EQ(s.certainty, Certainty::kChecked) << path;
    } else if (path.extension() == ".stream") {
      const std::string bytes = Slurp(path);
      const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
      const Sniffed current = Sniff(path.string(), {data, bytes.size()}, BuiltinFormats().sniff_rules());
      EXPECT_EQ(current.content, ContentKind::kArrowStream) << path;
      // The same first message without the continuation marker is how Arrow before 0.15 framed it.
      const Sniffed legacy = Sniff("legacy", {data + 4, bytes.size() - 4}, BuiltinFormats().sniff_rules());
      EXPECT_EQ(legacy.content, ContentKind::kArrowLegacyStream) << path;
      // Only the first bytes of a large schema message: still recognised.
      const Sniffed cut = Sniff("cut", {data, std::min<size_t>(bytes.size(), 64)}, BuiltinFormats().sniff_rules());
      EXPECT_EQ(cut.content, ContentKind::kArrowStream) << path;
      ++streams;
    }
  }
  EXPECT_GT(streams, 20);
}

TEST(SniffInteropTest, CsvIsText) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  const Sniffed s = SniffFile(CopyAs(testing::TestdataDir() / "csv" / "penguins_processed.csv", dir, "penguins"),
                              BuiltinFormats().sniff_rules())
                        .ValueOrDie();
  EXPECT_EQ(s.content, ContentKind::kCsv);
  EXPECT_EQ(s.certainty, Certainty::kGuess);
}

}  // namespace
}  // namespace recflow::formats
