// Tests that reading with any block size (blocks parsed independently) equals reading whole.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "recflow/formats/csv/block_parser.h"
#include "recflow/formats/csv/chunker.h"
#include "recflow/formats/csv/test_util_internal.h"

namespace recflow::csv {
namespace {

// Messy inputs: embedded delimiters/newlines, doubled quotes, CRLF, BOM, empty lines,
// comments, nulls, a bad row, no trailing newline.
std::vector<std::string> MessyInputs() {
  std::vector<std::string> inputs = {
      "\xEF\xBB\xBFid,name,score,when\r\n"
      "1,\"Smith, J\",1.5,2020-01-01\r\n"
      "2,\"multi\r\nline \"\"quoted\"\"\",,2020-01-02T03:04:05Z\r\n"
      "\r\n"
      "# a comment with \"an odd quote\n"
      "3,plain,-inf,\n"
      "4,\"\",7,2021-06-30 12:00:00.123+02:00\n"
      "5,bad,row,with,too,many\n"
      "6,a\"b,8e-3,2020-02-29\n"
      "7,\"\n\n\",0,2020-03-01",
  };
  // A generated one: random fields of quotes, delimiters, CR, LF and letters.
  std::mt19937 rng(42);
  const std::string alphabet = "ab,\"\n\r1.#";
  std::string generated = "x,y,z\n";
  for (int row = 0; row < 300; ++row) {
    for (int col = 0; col < 3; ++col) {
      if (col) generated += ',';
      if (rng() % 3 == 0) {
        generated += '"';
        for (int k = rng() % 6; k > 0; --k) {
          const char c = alphabet[rng() % alphabet.size()];
          generated += c == '"' ? std::string("\"\"") : std::string(1, c);
        }
        generated += '"';
      } else {
        for (int k = rng() % 5; k > 0; --k) generated += "ab1.# "[rng() % 6];
      }
    }
    generated += rng() % 4 == 0 ? "\r\n" : "\n";
  }
  inputs.push_back(generated);
  return inputs;
}

ReadOptions Options(int64_t block_size) {
  auto options = ReadOptions::Defaults();
  options.block_size = block_size;
  options.batch_rows = 50;
  options.dialect.comment = '#';
  options.bad_rows = formats::BadRowsMode::kSkip;
  return options;
}

TEST(BlockSplitTest, AnyBlockSizeGivesTheSameBatches) {
  for (const std::string& input : MessyInputs()) {
    auto whole = testing::ReadBatches(input, Options(int64_t{1} << 20));
    ASSERT_TRUE(whole.ok()) << whole.status().ToString();
    ASSERT_FALSE(whole->empty());
    for (int64_t block_size : {1, 2, 3, 5, 7, 16, 31, 64, 100, 257}) {
      std::vector<std::string> bad_texts;
      auto options = Options(block_size);
      options.on_bad_row = [&](const formats::BadRow& row) { bad_texts.emplace_back(row.error.ToString()); };
      auto split = testing::ReadBatches(input, options);
      ASSERT_TRUE(split.ok()) << split.status().ToString();
      ASSERT_EQ(split->size(), whole->size()) << "block_size " << block_size;
      for (size_t i = 0; i < whole->size(); ++i) {
        EXPECT_TRUE((*split)[i]->Equals(*(*whole)[i])) << "block_size " << block_size << " batch " << i << "\n"
                                                        << (*split)[i]->ToString() << "\nvs\n"
                                                        << (*whole)[i]->ToString();
      }
    }
  }
}

TEST(BlockSplitTest, ErrorsReportTheSameLineAndOffsetForAnyBlockSize) {
  const std::string input = "a,b\n1,\"x\ny\"\n\n2,\"p\r\nq\"\r\n3,4,5\n";
  auto whole = testing::ReadOne(input);
  ASSERT_FALSE(whole.ok());
  for (int64_t block_size : {1, 2, 7, 16, 64}) {
    auto options = ReadOptions::Defaults();
    options.block_size = block_size;
    auto split = testing::ReadOne(input, options);
    ASSERT_FALSE(split.ok());
    EXPECT_EQ(split.status().ToString(), whole.status().ToString()) << block_size;
  }
  EXPECT_NE(whole.status().message().find("line 7"), std::string::npos) << whole.status().ToString();
}

TEST(BlockSplitTest, ChunkedBlocksParseLikeTheWholeInput) {
  // Cut at every row boundary the chunker reports and parse the pieces independently.
  const std::string input = MessyInputs()[1];
  Dialect dialect;
  ParsedBlock whole;
  ParseBlock(Buffer::FromString(input), 0, 1, dialect, &whole);
  Chunker chunker(dialect);
  std::vector<RowRef> rows;
  std::vector<std::string> values;
  int64_t start = 0;
  int64_t line = 1;
  std::string scratch;
  auto parse_piece = [&](int64_t end) {
    ParsedBlock piece;
    ParseBlock(Buffer::FromString(input.substr(start, end - start)), start, line, dialect, &piece);
    for (const RowRef& r : piece.rows) {
      rows.push_back(r);
      for (int64_t f = 0; f < r.num_fields; ++f) {
        values.emplace_back(piece.Value(piece.fields[r.first_field + f], '"', &scratch));
      }
    }
    start = end;
    line = chunker.newlines_at_last_row_end() + 1;
  };
  for (size_t at = 0; at < input.size(); at += 13) {
    const int64_t end = chunker.Scan(std::string_view(input).substr(at, 13));
    if (end >= 0) parse_piece(static_cast<int64_t>(at) + end);
  }
  parse_piece(static_cast<int64_t>(input.size()));
  ASSERT_EQ(rows.size(), whole.rows.size());
  size_t v = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const RowRef& w = whole.rows[i];
    EXPECT_EQ(rows[i].line, w.line);
    ASSERT_EQ(rows[i].num_fields, w.num_fields);
    for (int64_t f = 0; f < w.num_fields; ++f, ++v) {
      EXPECT_EQ(values[v], whole.Value(whole.fields[w.first_field + f], '"', &scratch)) << "row " << i;
    }
  }
}

}  // namespace
}  // namespace recflow::csv
