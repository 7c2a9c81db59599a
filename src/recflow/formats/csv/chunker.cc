// Chunker: the quote-aware row-boundary scan (a byte state machine with memchr for quoted runs; rows without a
// quote are skipped by one search for the last LF).
#include "recflow/formats/csv/chunker.h"

#include <algorithm>
#include <cstring>

namespace recflow::csv {

Chunker::Chunker(const Dialect& dialect)
    : delimiter_(dialect.delimiter),
      quote_(dialect.quote),
      has_comment_(dialect.comment.has_value()),
      comment_(dialect.comment.value_or('\0')) {}

size_t Chunker::SkipRowsWithoutQuotes(std::string_view bytes, int64_t* last_row_end) {
  // Inside a quoted field or a comment a quote-free stretch still depends on the state; outside,
  // without a quote every LF ends a row (a comment line ends at its LF too), so the state after
  // the stretch's last LF is the start of a row whatever came before it.
  if (state_ == State::kQuoted || state_ == State::kQuoteInQuoted || state_ == State::kComment) return 0;
  const void* quote = std::memchr(bytes.data(), quote_, bytes.size());
  const size_t quote_free = quote == nullptr ? bytes.size() : static_cast<size_t>(static_cast<const char*>(quote) - bytes.data());
  const void* lf = memrchr(bytes.data(), '\n', quote_free);
  if (lf == nullptr) return 0;
  const size_t end = static_cast<size_t>(static_cast<const char*>(lf) - bytes.data()) + 1;
  newlines_ += std::count(bytes.data(), bytes.data() + end, '\n');
  newlines_at_row_end_ = newlines_;
  *last_row_end = static_cast<int64_t>(end);
  state_ = State::kRowStart;
  return end;
}

int64_t Chunker::Scan(std::string_view bytes) {
  const char* p = bytes.data();
  const size_t n = bytes.size();
  int64_t last_row_end = -1;
  auto end_row = [&](size_t i) {
    ++newlines_;
    newlines_at_row_end_ = newlines_;
    last_row_end = static_cast<int64_t>(i + 1);
    state_ = State::kRowStart;
  };
  size_t i = SkipRowsWithoutQuotes(bytes, &last_row_end);
  while (i < n) {
    const char c = p[i];
    switch (state_) {
      case State::kRowStart:
        if (has_comment_ && c == comment_) {
          state_ = State::kComment;
          break;
        }
        [[fallthrough]];
      case State::kFieldStart:
        if (c == quote_) {
          state_ = State::kQuoted;
        } else if (c == '\n') {
          end_row(i);
        } else if (c == delimiter_) {
          state_ = State::kFieldStart;
        } else {
          state_ = State::kUnquoted;
        }
        break;
      case State::kUnquoted:
        while (i < n && p[i] != '\n' && p[i] != delimiter_) ++i;
        if (i == n) return last_row_end;
        if (p[i] == '\n') {
          end_row(i);
        } else {
          state_ = State::kFieldStart;
        }
        break;
      case State::kQuoted: {
        const void* q = std::memchr(p + i, quote_, n - i);
        const size_t stop = q == nullptr ? n : static_cast<size_t>(static_cast<const char*>(q) - p);
        newlines_ += std::count(p + i, p + stop, '\n');
        if (q == nullptr) return last_row_end;
        i = stop;
        state_ = State::kQuoteInQuoted;
        break;
      }
      case State::kQuoteInQuoted:
        if (c == quote_) {
          state_ = State::kQuoted;
        } else if (c == delimiter_) {
          state_ = State::kFieldStart;
        } else if (c == '\n') {
          end_row(i);
        } else {
          state_ = State::kUnquoted;
        }
        break;
      case State::kComment: {
        const void* lf = std::memchr(p + i, '\n', n - i);
        if (lf == nullptr) return last_row_end;
        i = static_cast<size_t>(static_cast<const char*>(lf) - p);
        end_row(i);
        break;
      }
    }
    ++i;
  }
  return last_row_end;
}

}  // namespace recflow::csv
