// ParseBlock: the per-block CSV tokenizer (a tight loop over bytes, memchr inside quotes).
#include "recflow/formats/csv/block_parser.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace recflow::csv {
namespace {

// Tokenizer over one block; fills out->fields and out->rows.
class Tokenizer {
 public:
  Tokenizer(const Dialect& dialect, const char* p, size_t n, int64_t first_line, ParsedBlock* out)
      : quote_(dialect.quote),
        delimiter_(dialect.delimiter),
        has_comment_(dialect.comment.has_value()),
        comment_(dialect.comment.value_or('\0')),
        p_(p),
        n_(n),
        line_(first_line),
        out_(out) {
    stops_.fill(false);
    stops_[static_cast<uint8_t>('\n')] = true;
    stops_[static_cast<uint8_t>(delimiter_)] = true;
  }

  void Run() {
    while (i_ < n_) {
      if (has_comment_ && p_[i_] == comment_) {
        SkipLine();
        continue;
      }
      ParseRow();
    }
  }

 private:
  void SkipLine() {
    const void* lf = std::memchr(p_ + i_, '\n', n_ - i_);
    i_ = lf == nullptr ? n_ : static_cast<size_t>(static_cast<const char*>(lf) - p_) + 1;
    ++line_;
  }

  // Moves i_ to the next delimiter or LF (or the end).
  void ScanUnquoted() {
    while (i_ < n_ && !stops_[static_cast<uint8_t>(p_[i_])]) ++i_;
  }

  void ParseRow() {
    RowRef row;
    row.begin = static_cast<int64_t>(i_);
    row.line = line_;
    row.first_field = static_cast<int64_t>(out_->fields.size());
    while (true) {
      FieldRef field;
      if (i_ < n_ && p_[i_] == quote_) {
        ParseQuoted(&field, &row);
      } else {
        field.begin = static_cast<int64_t>(i_);
        ScanUnquoted();
        field.length = static_cast<int64_t>(i_) - field.begin;
        // A CR right before the row's end belongs to the line terminator.
        if ((i_ == n_ || p_[i_] == '\n') && field.length > 0 && p_[i_ - 1] == '\r') --field.length;
      }
      out_->fields.push_back(field);
      ++row.num_fields;
      if (i_ < n_ && p_[i_] == delimiter_) {
        ++i_;
        continue;
      }
      break;
    }
    // Here i_ is at the LF or the end.
    row.end = static_cast<int64_t>(i_);
    if (row.end > row.begin && p_[row.end - 1] == '\r') --row.end;
    if (i_ < n_) {
      ++i_;
      ++line_;
    }
    const FieldRef& only = out_->fields.back();
    if (row.num_fields == 1 && only.length == 0 && !only.quoted() && row.fault == RowFault::kNone) {
      out_->fields.pop_back();  // an empty line is not a row
      return;
    }
    out_->rows.push_back(row);
  }

  // i_ is at the opening quote; leaves i_ at the delimiter, the LF or the end.
  void ParseQuoted(FieldRef* field, RowRef* row) {
    const size_t open = i_++;
    field->begin = static_cast<int64_t>(i_);
    field->flags = FieldRef::kQuoted;
    while (true) {
      const void* q = std::memchr(p_ + i_, quote_, n_ - i_);
      const size_t stop = q == nullptr ? n_ : static_cast<size_t>(static_cast<const char*>(q) - p_);
      line_ += std::count(p_ + i_, p_ + stop, '\n');
      if (q == nullptr) {
        field->length = static_cast<int64_t>(n_) - field->begin;
        i_ = n_;
        Fault(row, RowFault::kUnterminatedQuote, open);
        return;
      }
      if (stop + 1 < n_ && p_[stop + 1] == quote_) {
        field->flags |= FieldRef::kEscaped;
        i_ = stop + 2;
        continue;
      }
      field->length = static_cast<int64_t>(stop) - field->begin;
      i_ = stop + 1;
      break;
    }
    if (i_ == n_ || p_[i_] == delimiter_ || p_[i_] == '\n') return;
    if (p_[i_] == '\r' && (i_ + 1 == n_ || p_[i_ + 1] == '\n')) {
      ++i_;
      return;
    }
    // Text after the closing quote: the rest up to the next delimiter or LF is part of this
    // faulty field, exactly as the chunker reads it.
    Fault(row, RowFault::kTextAfterQuote, i_);
    ScanUnquoted();
  }

  void Fault(RowRef* row, RowFault fault, size_t at) {
    if (row->fault != RowFault::kNone) return;
    row->fault = fault;
    row->fault_offset = static_cast<int64_t>(at);
  }

  char quote_;
  char delimiter_;
  bool has_comment_;
  char comment_;
  const char* p_;
  size_t n_;
  size_t i_ = 0;
  int64_t line_;
  ParsedBlock* out_;
  std::array<bool, 256> stops_;
};

}  // namespace

std::string_view ParsedBlock::Unescape(const FieldRef& f, char quote, std::string* scratch) const {
  const std::string_view raw = RawView(f);
  scratch->clear();
  size_t start = 0;
  while (true) {
    const size_t q = raw.find(quote, start);
    if (q == std::string_view::npos) break;
    scratch->append(raw.data() + start, q + 1 - start);  // keep one quote of the pair
    start = q + 2;
  }
  if (start < raw.size()) scratch->append(raw.data() + start, raw.size() - start);
  return *scratch;
}

void ParseBlock(std::shared_ptr<Buffer> data, int64_t offset, int64_t first_line, const Dialect& dialect,
                ParsedBlock* out) {
  out->data = std::move(data);
  out->offset = offset;
  out->fields.clear();
  out->rows.clear();
  const auto* p = reinterpret_cast<const char*>(out->data->data());
  Tokenizer(dialect, p, static_cast<size_t>(out->data->size()), first_line, out).Run();
}

}  // namespace recflow::csv
