// Tests for the Chunker: quote-aware row ends, comments, newline counts, split-invariance.
#include "recflow/formats/csv/chunker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace recflow::csv {
namespace {

// Every row end the chunker reports when fed `text` in pieces of `piece` bytes.
std::vector<int64_t> RowEnds(const std::string& text, size_t piece, const Dialect& dialect = {}) {
  Chunker chunker(dialect);
  std::vector<int64_t> ends;
  for (size_t at = 0; at < text.size(); at += piece) {
    const std::string_view part = std::string_view(text).substr(at, piece);
    const int64_t end = chunker.Scan(part);
    if (end >= 0) ends.push_back(static_cast<int64_t>(at) + end);
  }
  return ends;
}

TEST(ChunkerTest, QuotedNewlinesAreNotRowEnds) {
  const std::string text = "a,\"x\ny\"\nb,\"\"\"\n\"\n";
  Chunker chunker({});
  EXPECT_EQ(chunker.Scan(text), static_cast<int64_t>(text.size()));
  EXPECT_EQ(chunker.newlines_at_last_row_end(), 4);
  EXPECT_EQ(RowEnds(text, 1), (std::vector<int64_t>{8, 16}));
}

TEST(ChunkerTest, QuoteInsideUnquotedFieldIsLiteral) {
  // The quote in a"b does not open a quoted field, so the first LF ends the row.
  EXPECT_EQ(RowEnds("a\"b,c\nd\n", 1), (std::vector<int64_t>{6, 8}));
}

TEST(ChunkerTest, NoRowEndInsideOpenQuote) {
  Chunker chunker({});
  EXPECT_EQ(chunker.Scan("a,\"b\nc\n"), -1);
  EXPECT_EQ(chunker.Scan("\"\n"), 2);
  EXPECT_EQ(chunker.newlines_at_last_row_end(), 3);
}

TEST(ChunkerTest, CommentLinesIgnoreQuotes) {
  Dialect dialect;
  dialect.comment = '#';
  EXPECT_EQ(RowEnds("#\"\na\n", 1, dialect), (std::vector<int64_t>{3, 5}));
  // A '#' that does not start a row is data, even right after a quoted LF.
  EXPECT_EQ(RowEnds("a,\"#\n\"\nb\n", 1, dialect), (std::vector<int64_t>{7, 9}));
}

TEST(ChunkerTest, SameBoundariesForAnyPieceSize) {
  const std::string text = "h1,h2\r\n\"a\"\"b\",\"c\r\nd\"\r\n\n\"\",x\"y\ne,\"f\"g\n\"q\"\n";
  const auto all = RowEnds(text, 1);
  EXPECT_EQ(all, (std::vector<int64_t>{7, 22, 23, 30, 37, 41}));
  for (size_t piece = 2; piece <= text.size(); ++piece) {
    // Coarser pieces report only the last end per piece; each must be one of the real ends.
    for (int64_t e : RowEnds(text, piece)) {
      EXPECT_NE(std::find(all.begin(), all.end(), e), all.end()) << "piece " << piece << " end " << e;
    }
  }
}

// The last of `all` (every row end) inside each piece of `piece` bytes: what RowEnds must report.
std::vector<int64_t> LastEndPerPiece(const std::vector<int64_t>& all, size_t size, size_t piece) {
  std::vector<int64_t> ends;
  for (size_t at = 0; at < size; at += piece) {
    int64_t last = -1;
    for (int64_t e : all) {
      if (e > static_cast<int64_t>(at) && e <= static_cast<int64_t>(at + piece)) last = e;
    }
    if (last >= 0) ends.push_back(last);
  }
  return ends;
}

TEST(ChunkerTest, QuoteFreeRowsBeforeAQuoteEndWhereTheByteScanEndsThem) {
  // Quote-free rows are skipped up to their last LF; the state after it (a row start) and the
  // pieces' boundaries inside a row, a comment or a quoted field must not change any row end.
  const std::string text = "a,b\n#c,\"\nd\"e,\"f\ng\"\nh,i\nj\"\nk,\"\"\n";
  Dialect commented;
  commented.comment = '#';
  // '#' starts a comment: its quote is ignored; d"e has a literal quote, "f LF g" is quoted.
  const std::vector<int64_t> with_comment = {4, 9, 19, 23, 26, 31};
  // '#' is data: the quote after "#c," opens a field holding "LF d", closed before e.
  const std::vector<int64_t> without_comment = {4, 19, 23, 26, 31};
  for (const auto& [dialect, all] : {std::pair{commented, with_comment}, std::pair{Dialect{}, without_comment}}) {
    for (size_t piece = 1; piece <= text.size(); ++piece) {
      EXPECT_EQ(RowEnds(text, piece, dialect), LastEndPerPiece(all, text.size(), piece)) << "piece " << piece;
    }
    Chunker whole(dialect);
    EXPECT_EQ(whole.Scan(text), 31);
    EXPECT_EQ(whole.newlines_at_last_row_end(), 7);
  }
}

}  // namespace
}  // namespace recflow::csv
