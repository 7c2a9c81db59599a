// Splits of formats registered by a test: a format brings its own boundaries through its descriptor's splitter, and a
// format without one is read as one whole-file split by its opener — no edit of the split code for either.
#include <gtest/gtest.h>

#include <fstream>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/dataset/split_test_util_internal.h"
#include "recflow/formats/batch_source.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

const SchemaPtr& LineSchema() {
  static const SchemaPtr schema = Schema::Make({Field::Make("line", utf8())});
  return schema;
}

/// The LF-terminated lines of `text` that start in [begin, end), as one batch of LineSchema().
Result<std::unique_ptr<Source>> LinesStartingIn(std::string_view text, int64_t begin, int64_t end,
                                                const std::string& name) {
  BinaryBuilder lines(utf8());
  // A line starts at 0 or just after an LF.
  size_t at = static_cast<size_t>(begin);
  if (at > 0) {
    const size_t lf = text.find('\n', at - 1);
    at = lf == std::string_view::npos ? text.size() : lf + 1;
  }
  while (at < text.size() && static_cast<int64_t>(at) < end) {
    const size_t lf = text.find('\n', at);
    const size_t line_end = lf == std::string_view::npos ? text.size() : lf;
    RETURN_NOT_OK(lines.Append(text.substr(at, line_end - at)));
    at = line_end + 1;
  }
  ASSIGN_OR_RETURN(auto column, lines.Finish());
  ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(LineSchema(), column->length, {column}));
  auto batches = std::make_shared<const std::vector<std::shared_ptr<RecordBatch>>>(1, batch);
  return MakeBatchSource(name, LineSchema(), batches);
}

using LineOptions = formats::TypedReadOptions<int>;

/// A line of text is a record: a reader finds the next one from any byte.
class LineSplitter final : public formats::EvenByteSplitter {
 public:
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override {
    RETURN_NOT_OK(formats::CheckByteRange(file, range));
    formats::RangeRecords out;
    ASSIGN_OR_RETURN(out.source, LinesStartingIn(file.data->view(), range.begin, range.end, file.path));
    return out;
  }
};

/// Reads every line of a file, through the read's file system.
class LineOpener final : public formats::FileOpener {
 public:
  explicit LineOpener(std::shared_ptr<const formats::FormatReadOptions> options) : options_(std::move(options)) {}
  Result<std::unique_ptr<Source>> Open(const formats::FileToRead& file, const SchemaPtr& schema) override {
    ++opened;
    ASSIGN_OR_RETURN(auto data, options_->file_system()->ReadWholeFile(file.path));
    return LinesStartingIn(data->view(), 0, data->size(), file.path);
  }
  static inline int opened = 0;

 private:
  std::shared_ptr<const formats::FormatReadOptions> options_;
};

/// "lines" (with a splitter) or "whole_lines" (without one).
class LineFormat final : public formats::FormatDescriptor {
 public:
  explicit LineFormat(bool splits) : splits_(splits) {}
  std::string_view name() const override { return splits_ ? "lines" : "whole_lines"; }
  std::span<const formats::ContentKind> contents() const override { return {}; }
  Result<std::shared_ptr<const formats::FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    return std::shared_ptr<const formats::FormatReadOptions>(std::make_shared<LineOptions>(0, false, settings.file_system));
  }
  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const formats::FormatReadOptions> options) const override {
    return std::make_unique<LineOpener>(std::move(options));
  }
  const formats::FormatSplitter* splitter() const override { return splits_ ? &splitter_ : nullptr; }

 private:
  bool splits_;
  LineSplitter splitter_;
};

class SplitRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(registry_.Register(std::make_unique<LineFormat>(true)).ok());
    ASSERT_TRUE(registry_.Register(std::make_unique<LineFormat>(false)).ok());
    options_.registry = &registry_;
    path_ = dir_.File("words.txt");
    std::ofstream(path_, std::ios::binary) << text_;
  }

  SplitInput InputIn(std::string_view format) const {
    SplitInput input;
    input.path = path_;
    input.format = registry_.FindByName(format);
    return input;
  }

  Result<std::vector<Split>> Plan(std::string_view format, int64_t bytes) const {
    SplitOptions options = SplitOptions::Defaults();
    options.target_bytes = bytes;
    options.read = options_;
    return MakeSplits({InputIn(format)}, options);
  }

  formats::FormatRegistry registry_;
  InputOptions options_;
  testing::ScratchDir dir_;
  std::string path_;
  const std::string text_ = "alpha\nbe\ngamma gamma\n\ndelta\nepsilon\nz\n";
};

TEST_F(SplitRegistryTest, AFormatsOwnSplitterCutsAndReadsItsFiles) {
  for (const int64_t bytes : {1, 2, 3, 5, 8, 13, 100}) {
    SCOPED_TRACE("split size " + std::to_string(bytes));
    auto splits = Plan("lines", bytes);
    ASSERT_TRUE(splits.ok()) << splits.status().ToString();
    EXPECT_EQ(splits->size(), static_cast<size_t>((static_cast<int64_t>(text_.size()) + bytes - 1) / bytes));
    EXPECT_EQ(splits->front().format, "lines");
    auto rows = ReadSplitsShuffled(*splits, LineSchema(), options_, static_cast<uint32_t>(bytes));
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ((*rows)->num_rows(), 7);
    EXPECT_EQ(BinaryValue(*(*rows)->column_data(0), 2), "gamma gamma");
    EXPECT_EQ(BinaryValue(*(*rows)->column_data(0), 3), "");
    EXPECT_EQ(BinaryValue(*(*rows)->column_data(0), 6), "z");
  }
  // The format's split names are looked up in the read's registry: the built-in one has none.
  auto splits = Plan("lines", 10);
  ASSERT_TRUE(splits.ok());
  auto unknown = OpenSplit(splits->front(), LineSchema(), InputOptions());
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("unknown format 'lines'"), std::string::npos) << unknown.status().ToString();
}

TEST_F(SplitRegistryTest, AFormatWithoutASplitterIsOneWholeFileSplitReadByItsOpener) {
  auto splits = Plan("whole_lines", 3);
  ASSERT_TRUE(splits.ok()) << splits.status().ToString();
  ASSERT_EQ(splits->size(), 1u);
  EXPECT_EQ(splits->front().begin, 0);
  EXPECT_EQ(splits->front().end, static_cast<int64_t>(text_.size()));
  const int opened = LineOpener::opened;
  auto rows = ReadSplitsShuffled(*splits, LineSchema(), options_, 1);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ((*rows)->num_rows(), 7);
  EXPECT_EQ(LineOpener::opened, opened + 1);
  Split part = splits->front();
  part.end = 3;
  auto refused = OpenSplit(part, LineSchema(), options_);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("read whole"), std::string::npos) << refused.status().ToString();
}

}  // namespace
}  // namespace recflow::dataset
