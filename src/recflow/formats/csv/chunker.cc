// Chunker: the quote-aware row-boundary scan (a byte state machine with memchr for quoted runs).
#include "recflow/formats/csv/chunker.h"

#include <algorithm>
#include <cstring>

namespace recflow::csv {

Chunker::Chunker(const Dialect& dialect)
    : delimiter_(dialect.delimiter),
      quote_(dialect.quote),
      has_comment_(dialect.comment.has_value()),
      comment_(dialect.comment.value_or('\0')) {}

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
  size_t i = 0;
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
