// FormatRegistry with test descriptors: lookups by word, content, suffix and output word; clashes refused; detection.
#include "recflow/formats/registry/format_registry.h"

#include <gtest/gtest.h>

#include <fstream>

#include "recflow/core/compression.h"

#include "recflow/testing/testdata.h"

namespace recflow::formats {
namespace {

/// Claims `content` for a head starting with `magic`, at `priority`.
class MagicSniffer final : public ContentSniffer {
 public:
  MagicSniffer(std::string magic, ContentKind content, int priority, Certainty certainty = Certainty::kChecked)
      : magic_(std::move(magic)), content_(content), priority_(priority), certainty_(certainty) {}
  int priority() const override { return priority_; }
  std::optional<ContentClaim> Claim(std::span<const uint8_t> head) const override {
    if (std::string_view(reinterpret_cast<const char*>(head.data()), head.size()).substr(0, magic_.size()) != magic_) {
      return std::nullopt;
    }
    return ContentClaim{content_, certainty_, "magic " + magic_};
  }

 private:
  std::string magic_;
  ContentKind content_;
  int priority_;
  Certainty certainty_;
};

/// A descriptor with the words, contents, content checks and suffixes a test gives it; it opens nothing.
class TestFormat final : public FormatDescriptor {
 public:
  TestFormat(std::string_view name, std::vector<std::string_view> aliases, std::vector<ContentKind> contents,
             std::vector<std::string_view> outputs = {}, bool compressed = true,
             std::vector<std::shared_ptr<const ContentSniffer>> sniffers = {}, std::vector<SuffixRule> suffixes = {})
      : name_(name),
        aliases_(std::move(aliases)),
        contents_(std::move(contents)),
        outputs_(std::move(outputs)),
        compressed_(compressed),
        owned_sniffers_(std::move(sniffers)),
        suffixes_(std::move(suffixes)) {
    for (const auto& sniffer : owned_sniffers_) sniffers_.push_back(sniffer.get());
  }

  std::string_view name() const override { return name_; }
  std::span<const std::string_view> aliases() const override { return aliases_; }
  std::span<const ContentKind> contents() const override { return contents_; }
  ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const SuffixRule> suffixes() const override { return suffixes_; }
  bool reads_compressed_files() const override { return compressed_; }
  std::span<const std::string_view> output_names() const override { return outputs_; }
  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(const ReadSettings&) const override {
    return Status::InvalidArgument("test format");
  }
  std::unique_ptr<FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions>) const override { return nullptr; }

 private:
  std::string_view name_;
  std::vector<std::string_view> aliases_;
  std::vector<ContentKind> contents_;
  std::vector<std::string_view> outputs_;
  bool compressed_;
  std::vector<std::shared_ptr<const ContentSniffer>> owned_sniffers_;
  std::vector<const ContentSniffer*> sniffers_;
  std::vector<SuffixRule> suffixes_;
};

FormatRegistry TwoFormats() {
  FormatRegistry registry;
  EXPECT_TRUE(registry
                  .Register(std::make_unique<TestFormat>(
                      "records", std::vector<std::string_view>{"recs"},
                      std::vector<ContentKind>{ContentKind::kTfrecord, ContentKind::kEmpty},
                      std::vector<std::string_view>{"records"}, true,
                      std::vector<std::shared_ptr<const ContentSniffer>>{
                          std::make_shared<MagicSniffer>("REC1", ContentKind::kTfrecord, 100)},
                      std::vector<SuffixRule>{{".tfrecord", ContentKind::kTfrecord}, {".rec", ContentKind::kTfrecord}}))
                  .ok());
  EXPECT_TRUE(registry
                  .Register(std::make_unique<TestFormat>(
                      "blocks", std::vector<std::string_view>{}, std::vector<ContentKind>{ContentKind::kAvro},
                      std::vector<std::string_view>{}, /*compressed=*/false,
                      std::vector<std::shared_ptr<const ContentSniffer>>{
                          std::make_shared<MagicSniffer>("BLK1", ContentKind::kAvro, 300)},
                      std::vector<SuffixRule>{{".avro", ContentKind::kAvro}}))
                  .ok());
  return registry;
}

TEST(FormatRegistryTest, LooksUpByWordContentSuffixAndOutputWord) {
  const FormatRegistry registry = TwoFormats();
  const FormatDescriptor* records = registry.FindByName("records");
  ASSERT_NE(records, nullptr);
  EXPECT_EQ(registry.FindByName("recs"), records);
  EXPECT_EQ(registry.FindByName("csv"), nullptr);
  EXPECT_EQ(registry.FindByContent(ContentKind::kEmpty), records);
  EXPECT_EQ(registry.FindByContent(ContentKind::kCsv), nullptr);
  EXPECT_EQ(registry.FindByContent(ContentKind::kParquet), nullptr);
  EXPECT_EQ(registry.FindBySuffix("x/part-0.tfrecord.gz"), records);
  EXPECT_EQ(registry.FindBySuffix("data_tfrecord-00000-of-00002.gz"), nullptr);
  EXPECT_EQ(registry.FindBySuffix("a.avro")->name(), "blocks");
  EXPECT_EQ(registry.FindBySuffix("a.rec.gz"), records) << "a suffix only its descriptor declares";
  EXPECT_EQ(registry.FindBySuffix("a.csv"), nullptr) << "no registered format declares .csv";
  EXPECT_EQ(registry.FindOutput("records"), records);
  EXPECT_EQ(registry.FindOutput("blocks"), nullptr);
  EXPECT_EQ(registry.input_words(), (std::vector<std::string_view>{"records", "recs", "blocks"}));
  EXPECT_EQ(registry.output_words(), (std::vector<std::string_view>{"records"}));
}

TEST(FormatRegistryTest, ParsesWordsAndListsThemWhenUnknown) {
  const FormatRegistry registry = TwoFormats();
  EXPECT_EQ(registry.ParseInputFormat("auto").ValueOrDie(), nullptr);
  EXPECT_EQ(registry.ParseInputFormat("").ValueOrDie(), nullptr);
  EXPECT_EQ(registry.ParseInputFormat("recs").ValueOrDie()->name(), "records");
  EXPECT_EQ(registry.ParseInputFormat("parquet").status().message(),
            "unknown input format 'parquet' (records, recs, blocks)");
  EXPECT_EQ(registry.ParseOutputFormat("blocks").status().message(), "unknown output format 'blocks' (records)");
}

TEST(FormatRegistryTest, RefusesATakenWordOutputWordOrContent) {
  FormatRegistry registry = TwoFormats();
  using Words = std::vector<std::string_view>;
  using Contents = std::vector<ContentKind>;
  Status word = registry.Register(std::make_unique<TestFormat>("other", Words{"recs"}, Contents{}));
  EXPECT_EQ(word.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(word.message(), "format other: the word 'recs' is taken by format records");
  Status output = registry.Register(std::make_unique<TestFormat>("other", Words{}, Contents{}, Words{"records"}));
  EXPECT_EQ(output.message(), "format other: the output word 'records' is taken by format records");
  Status content = registry.Register(std::make_unique<TestFormat>("other", Words{}, Contents{ContentKind::kAvro}));
  EXPECT_EQ(content.message(), "format other: the content Avro is taken by format blocks");
  Status suffix = registry.Register(std::make_unique<TestFormat>(
      "other", Words{}, Contents{ContentKind::kCsv}, Words{}, true,
      std::vector<std::shared_ptr<const ContentSniffer>>{}, std::vector<SuffixRule>{{".rec", ContentKind::kCsv}}));
  EXPECT_EQ(suffix.message(), "format other: the suffix .rec is taken by format records");
  Status foreign = registry.Register(std::make_unique<TestFormat>(
      "other", Words{}, Contents{ContentKind::kCsv}, Words{}, true,
      std::vector<std::shared_ptr<const ContentSniffer>>{}, std::vector<SuffixRule>{{".txt", ContentKind::kJsonl}}));
  EXPECT_EQ(foreign.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(foreign.message(), "format 'other': its suffix .txt names a content it does not read");
  EXPECT_EQ(registry.formats().size(), 2u);
}

TEST(FormatRegistryTest, DetectsByContentWhateverTheName) {
  const FormatRegistry registry = TwoFormats();
  // A TFX-like shard name says nothing; the gzip-wrapped content its format's check claims does.
  testing::ScratchDir dir;
  const std::string gz = dir.File("data_tfrecord-00000-of-00002.gz");
  const std::string_view records = "REC1 and the records";
  std::ofstream(gz, std::ios::binary)
      << CompressBuffer(Compression::kGzip, {reinterpret_cast<const uint8_t*>(records.data()), records.size()})
             .ValueOrDie()
             ->view();
  Result<DetectedFile> detected = registry.Detect(gz, nullptr);
  ASSERT_TRUE(detected.ok()) << detected.status().ToString();
  EXPECT_EQ(detected->format->name(), "records");
  EXPECT_EQ(detected->sniffed.codec, SniffedCodec::kGzip);
  EXPECT_EQ(detected->sniffed.evidence, "magic 1f 8b 08, then magic REC1");
  EXPECT_TRUE(detected->rereadable);
}

TEST(FormatRegistryTest, RunsTheRegisteredChecksInPriorityOrder) {
  FormatRegistry registry;
  const auto late = std::make_shared<MagicSniffer>("AB", ContentKind::kUnknown, 500);
  const auto early = std::make_shared<MagicSniffer>("A", ContentKind::kUnknown, 50);
  const auto guess = std::make_shared<MagicSniffer>("G", ContentKind::kUnknown, 900, Certainty::kGuess);
  ASSERT_TRUE(registry.Register(std::make_unique<TestFormat>("late", std::vector<std::string_view>{},
                                                             std::vector<ContentKind>{}, std::vector<std::string_view>{},
                                                             true, std::vector<std::shared_ptr<const ContentSniffer>>{late}))
                  .ok());
  ASSERT_TRUE(registry.Register(std::make_unique<TestFormat>("early", std::vector<std::string_view>{},
                                                             std::vector<ContentKind>{}, std::vector<std::string_view>{},
                                                             true, std::vector<std::shared_ptr<const ContentSniffer>>{early}))
                  .ok());
  ASSERT_TRUE(registry
                  .Register(std::make_unique<TestFormat>(
                      "guess", std::vector<std::string_view>{}, std::vector<ContentKind>{ContentKind::kCsv},
                      std::vector<std::string_view>{}, true, std::vector<std::shared_ptr<const ContentSniffer>>{guess},
                      std::vector<SuffixRule>{{".csv", ContentKind::kCsv}}))
                  .ok());
  ASSERT_EQ(registry.sniff_rules().checks.size(), 3u);
  EXPECT_EQ(registry.sniff_rules().checks[0], early.get());
  EXPECT_EQ(registry.sniff_rules().checks[1], late.get());
  EXPECT_EQ(registry.sniff_rules().checks[2], guess.get());
  testing::ScratchDir dir;
  // Both checks hold: the earlier one decides, though it was registered after the later one.
  const std::string ab = dir.File("ab-00000-of-00001");
  std::ofstream(ab) << "AB";
  Result<DetectedFile> detected = registry.Detect(ab, nullptr);
  ASSERT_TRUE(detected.ok()) << detected.status().ToString();
  EXPECT_EQ(detected->format->name(), "early");
  EXPECT_EQ(detected->sniffed.claimed_by, early.get());
  EXPECT_EQ(detected->sniffed.certainty, Certainty::kChecked);
  EXPECT_EQ(detected->sniffed.evidence, "magic A");
  // A guess decides when it is the first claim, unless the name's suffix tells the content.
  const std::string a = dir.File("g-00000-of-00001");
  std::ofstream(a) << "G";
  const std::string csv = dir.File("g.csv");
  std::ofstream(csv) << "G";
  EXPECT_EQ(registry.Detect(a, nullptr).ValueOrDie().format->name(), "guess");
  EXPECT_EQ(registry.Detect(a, nullptr).ValueOrDie().sniffed.certainty, Certainty::kGuess);
  const Sniffed by_name = SniffFile(csv, registry.sniff_rules()).ValueOrDie();
  EXPECT_EQ(by_name.content, ContentKind::kCsv);
  EXPECT_EQ(by_name.certainty, Certainty::kSuffix);
}

TEST(FormatRegistryTest, ForcedFormatsAndRefusals) {
  RECFLOW_REQUIRE_TESTDATA();
  const FormatRegistry registry = TwoFormats();
  const std::string gz = (testing::TestdataDir() / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz").string();
  // --from decides over the content, but a format that refuses compressed files still does.
  Result<DetectedFile> forced = registry.Detect(gz, registry.FindByName("blocks"));
  EXPECT_EQ(forced.status().code(), StatusCode::kDataError);
  EXPECT_NE(forced.status().message().find("gzip-compressed blocks input"), std::string::npos)
      << forced.status().ToString();
  // Text no registered format reads, under a name with no suffix: NotFound, pass --from.
  testing::ScratchDir dir;
  const std::string text = dir.File("output-00000-of-00001");
  std::ofstream(text) << "a,b\n1,2\n";
  Result<DetectedFile> unknown = registry.Detect(text, nullptr);
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("pass --from"), std::string::npos);
  EXPECT_EQ(registry.Detect(text, registry.FindByName("records")).ValueOrDie().format->name(), "records");
}

}  // namespace
}  // namespace recflow::formats
