// Formats registered by a test beside the built-in ones bring their own content checks through their descriptors: a
// suffix-less NATS message file and a Sentinel-2 GeoTIFF are detected as them, with no edit of the sniffer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "recflow/core/compression.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/testing/testdata.h"

namespace recflow::formats {
namespace {

/// Claims `content` (checked) for a head that starts with `magic`, at `priority`.
class PrefixSniffer final : public ContentSniffer {
 public:
  PrefixSniffer(std::string_view magic, ContentKind content, int priority, std::string_view evidence)
      : magic_(magic), content_(content), priority_(priority), evidence_(evidence) {}
  int priority() const override { return priority_; }
  std::optional<ContentClaim> Claim(std::span<const uint8_t> head) const override {
    if (!std::string_view(reinterpret_cast<const char*>(head.data()), head.size()).starts_with(magic_)) {
      return std::nullopt;
    }
    return ContentClaim{content_, Certainty::kChecked, std::string(evidence_)};
  }

 private:
  std::string_view magic_;
  ContentKind content_;
  int priority_;
  std::string_view evidence_;
};

/// A format known by its content check alone; detection is all these tests ask of it.
class SniffedFormat final : public FormatDescriptor {
 public:
  SniffedFormat(std::string_view name, std::vector<ContentKind> contents, PrefixSniffer sniffer)
      : name_(name), contents_(std::move(contents)), sniffer_(std::move(sniffer)) {}
  std::string_view name() const override { return name_; }
  std::span<const ContentKind> contents() const override { return contents_; }
  ContentSniffers sniffers() const override { return sniffers_; }
  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(const ReadSettings& settings) const override {
    return Status::InvalidArgument(std::string(name_) + " is only detected in this test");
  }
  std::unique_ptr<FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return nullptr;
  }

 private:
  std::string_view name_;
  std::vector<ContentKind> contents_;
  PrefixSniffer sniffer_;
  const ContentSniffer* sniffers_[1] = {&sniffer_};
};

/// The built-in formats, then "natsmsg" (NATS messages with headers: a "NATS/1.0" status line,
/// text a CSV guess would take) and "raster" (little-endian TIFF, which the built-in formats refuse).
FormatRegistry BuiltinsAndTwoOfTheirOwn() {
  FormatRegistry registry;
  EXPECT_TRUE(RegisterBuiltinFormats(&registry).ok());
  EXPECT_TRUE(registry
                  .Register(std::make_unique<SniffedFormat>(
                      "natsmsg", std::vector<ContentKind>{},
                      PrefixSniffer("NATS/1.0\r\n", ContentKind::kUnknown, 150, "a NATS/1.0 header line")))
                  .ok());
  EXPECT_TRUE(registry
                  .Register(std::make_unique<SniffedFormat>(
                      "raster", std::vector<ContentKind>{ContentKind::kTiff},
                      PrefixSniffer(std::string_view("II*\0", 4), ContentKind::kTiff, 340, "a little-endian TIFF header")))
                  .ok());
  return registry;
}

std::string WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(SnifferRegistrationTest, ASuffixlessFileIsDetectedAsTheFormatWhoseCheckClaimsIt) {
  const FormatRegistry registry = BuiltinsAndTwoOfTheirOwn();
  testing::ScratchDir dir;
  // An HMSG payload as a NATS server delivers it (header block, blank line, body), saved under a
  // Beam-like name with no suffix.
  const std::string_view message = "NATS/1.0\r\nNats-Msg-Id: 1\r\n\r\n{\"species\": \"Adelie\"}\r\n";
  const std::string plain = WriteFile(dir.File("messages-00000-of-00002"), message);
  Result<DetectedFile> detected = registry.Detect(plain, nullptr);
  ASSERT_TRUE(detected.ok()) << detected.status().ToString();
  EXPECT_EQ(detected->format->name(), "natsmsg");
  EXPECT_EQ(detected->sniffed.certainty, Certainty::kChecked);
  EXPECT_EQ(detected->sniffed.content, ContentKind::kUnknown);
  EXPECT_EQ(detected->sniffed.evidence, "a NATS/1.0 header line");
  EXPECT_TRUE(detected->sniffed.decided);
  // The same bytes gzip-compressed: the central sniffer inflates the head, the format's check claims it.
  const std::shared_ptr<Buffer> gz =
      CompressBuffer(Compression::kGzip, {reinterpret_cast<const uint8_t*>(message.data()), message.size()})
          .ValueOrDie();
  Result<DetectedFile> compressed = registry.Detect(WriteFile(dir.File("messages-00001-of-00002.gz"), gz->view()), nullptr);
  ASSERT_TRUE(compressed.ok()) << compressed.status().ToString();
  EXPECT_EQ(compressed->format->name(), "natsmsg");
  EXPECT_EQ(compressed->sniffed.codec, SniffedCodec::kGzip);
  EXPECT_EQ(compressed->sniffed.evidence, "magic 1f 8b 08, then a NATS/1.0 header line");
  // The built-in registry, without the check, takes the text for CSV.
  EXPECT_EQ(BuiltinFormats().Detect(plain, nullptr).ValueOrDie().format->name(), "csv");
}

TEST(SnifferRegistrationTest, AFormatThatReadsAForeignContentIsNotRefused) {
  RECFLOW_REQUIRE_TESTDATA();
  // A Sentinel-2 L2A band (GDAL-written COG) without its suffix.
  testing::ScratchDir dir;
  const std::string band = dir.File("B04");
  std::filesystem::copy_file(testing::TestdataDir() / "raster" / "sentinel2-l2a" / "B04.tif", band);
  const FormatRegistry registry = BuiltinsAndTwoOfTheirOwn();
  Result<DetectedFile> detected = registry.Detect(band, nullptr);
  ASSERT_TRUE(detected.ok()) << detected.status().ToString();
  EXPECT_EQ(detected->format->name(), "raster");
  EXPECT_EQ(detected->sniffed.content, ContentKind::kTiff);
  EXPECT_EQ(detected->sniffed.evidence, "a little-endian TIFF header");
  // The built-in registry refuses it, naming what the bytes are.
  const Status refused = BuiltinFormats().Detect(band, nullptr).status();
  EXPECT_EQ(refused.code(), StatusCode::kDataError);
  EXPECT_NE(refused.message().find("TIFF/GeoTIFF image (magic II*\\0): recflow does not read it"), std::string::npos)
      << refused.ToString();
}

}  // namespace
}  // namespace recflow::formats
