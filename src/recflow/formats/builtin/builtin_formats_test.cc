// BuiltinFormats: every built-in format is registered with its words, contents and outputs, parses the generic
// settings, and reads a real file found by its content.
#include "recflow/formats/builtin/builtin_formats.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/formats/source_test_util.h"
#include "recflow/testing/testdata.h"

namespace recflow::formats {
namespace {

TEST(BuiltinFormatsTest, EveryBuiltInFormatIsRegistered) {
  const FormatRegistry& registry = BuiltinFormats();
  std::vector<std::string_view> names;
  for (const FormatDescriptor* format : registry.formats()) names.push_back(format->name());
  EXPECT_EQ(names, (std::vector<std::string_view>{"tfrecord", "csv", "jsonl", "avro", "arrow"}));
  EXPECT_EQ(registry.input_words(),
            (std::vector<std::string_view>{"tfrecord", "csv", "jsonl", "json", "avro", "arrow", "feather"}));
  EXPECT_EQ(registry.output_words(), (std::vector<std::string_view>{"tfrecord", "csv", "jsonl", "arrow", "feather"}));
  EXPECT_EQ(&BuiltinFormats(), &registry);  // built once
}

TEST(BuiltinFormatsTest, EveryReadableContentHasItsFormat) {
  const FormatRegistry& registry = BuiltinFormats();
  const std::pair<ContentKind, std::string_view> readable[] = {
      {ContentKind::kEmpty, "tfrecord"},          {ContentKind::kTfrecord, "tfrecord"},
      {ContentKind::kArrowFile, "arrow"},         {ContentKind::kArrowStream, "arrow"},
      {ContentKind::kArrowLegacyStream, "arrow"}, {ContentKind::kAvro, "avro"},
      {ContentKind::kJsonl, "jsonl"},             {ContentKind::kCsv, "csv"},
  };
  for (const auto& [content, name] : readable) {
    const FormatDescriptor* format = registry.FindByContent(content);
    ASSERT_NE(format, nullptr) << ContentName(content);
    EXPECT_EQ(format->name(), name) << ContentName(content);
  }
  for (ContentKind foreign : {ContentKind::kUnknown, ContentKind::kParquet, ContentKind::kTiff, ContentKind::kPng}) {
    EXPECT_EQ(registry.FindByContent(foreign), nullptr) << ContentName(foreign);
  }
  EXPECT_EQ(registry.FindBySuffix("b.tsv")->name(), "csv");
  EXPECT_EQ(registry.FindBySuffix("b.ndjson.gz")->name(), "jsonl");
  EXPECT_EQ(registry.FindBySuffix("b.feather")->name(), "arrow");
  EXPECT_EQ(registry.FindOutput("feather")->name(), "arrow");
  EXPECT_EQ(registry.FindByName("json")->name(), "jsonl");
}

TEST(BuiltinFormatsTest, EachFormatParsesTheGenericSettingsAndItsOwnWords) {
  const FormatRegistry& registry = BuiltinFormats();
  ReadSettings settings;
  for (const FormatDescriptor* format : registry.formats()) {
    Result<std::shared_ptr<const FormatReadOptions>> options = format->ParseReadOptions(settings);
    ASSERT_TRUE(options.ok()) << format->name() << ": " << options.status().ToString();
    EXPECT_EQ((*options)->infers_schema(), !format->carries_schema()) << format->name();
  }
  settings.args.Set("delimiter", "ab");
  EXPECT_EQ(registry.FindByName("csv")->ParseReadOptions(settings).status().message(),
            "the delimiter must be a single character, got 'ab'");
  settings.args.Set("record_type", "protobuf");
  EXPECT_EQ(registry.FindByName("tfrecord")->ParseReadOptions(settings).status().code(), StatusCode::kInvalidArgument);
  WriteSettings write;
  write.name = "feather";
  write.compression = "gzip";
  EXPECT_EQ(registry.FindOutput("feather")->MakeOutput(write).status().message(),
            "Arrow files compress their bodies: compression none, lz4 or zstd, not gzip");
  EXPECT_EQ(registry.FindByName("avro")->MakeOutput(write).status().message(), "recflow does not write avro");
}

TEST(BuiltinFormatsTest, OpensATfxShardFoundByItsContent) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  FileToRead file{dir.File("data_tfrecord-00000-of-00002.gz"), {}};
  std::filesystem::copy_file(testing::TestdataDir() / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz", file.path);
  Result<DetectedFile> detected = BuiltinFormats().Detect(file.path, nullptr);
  ASSERT_TRUE(detected.ok()) << detected.status().ToString();
  file.detected = *detected;
  ASSERT_EQ(file.detected.format->name(), "tfrecord");
  auto options = file.detected.format->ParseReadOptions(ReadSettings{});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  std::unique_ptr<FileOpener> opener = file.detected.format->NewOpener(*options);
  Result<std::unique_ptr<Source>> source = opener->Open(file, nullptr);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_GE((*source)->schema()->GetFieldIndex("body_mass_g"), 0);
  Result<std::vector<DecodedUnit>> units = testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  int64_t rows = 0;
  for (const DecodedUnit& unit : *units) rows += unit.batch->num_rows();
  EXPECT_EQ(rows, 234);
}

}  // namespace
}  // namespace recflow::formats
