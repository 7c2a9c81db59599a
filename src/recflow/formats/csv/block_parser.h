// ParseBlock: tokenizes a block of whole CSV rows into field and row references (no copies).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/formats/csv/read_options.h"

namespace recflow::csv {

/// One field of a parsed block: where its content is (without the enclosing quotes).
struct FieldRef {
  /// Flag: the field was quoted.
  static constexpr uint8_t kQuoted = 1;
  /// Flag: the content holds doubled quotes that stand for one quote each.
  static constexpr uint8_t kEscaped = 2;

  /// Offset of the content in the block.
  int64_t begin = 0;
  /// Content bytes (a doubled quote counts two).
  int64_t length = 0;
  /// kQuoted | kEscaped.
  uint8_t flags = 0;

  /// The field was quoted (so never null by null_values).
  bool quoted() const { return (flags & kQuoted) != 0; }
  /// The content holds doubled quotes (see ParsedBlock::Value).
  bool escaped() const { return (flags & kEscaped) != 0; }
};

/// A structural fault found while tokenizing a row.
enum class RowFault : uint8_t {
  kNone,
  kUnterminatedQuote,  ///< the input ended inside a quoted field
  kTextAfterQuote,     ///< a closing quote was followed by something other than a delimiter or line end
};

/// One row of a parsed block (empty lines and comment lines are not rows).
struct RowRef {
  /// Offset of the row's first byte in the block.
  int64_t begin = 0;
  /// Offset just past the row's text (its CR LF / LF excluded).
  int64_t end = 0;
  /// 1-based line of the row's first byte in the input.
  int64_t line = 0;
  /// Index of the row's first field in ParsedBlock::fields.
  int64_t first_field = 0;
  /// Fields in the row.
  int64_t num_fields = 0;
  /// A structural fault, if any; the row's fields are then unreliable.
  RowFault fault = RowFault::kNone;
  /// Block offset of the fault.
  int64_t fault_offset = 0;
};

/// A block of complete rows, tokenized. The references point into `data`.
struct ParsedBlock {
  /// The block's bytes.
  std::shared_ptr<Buffer> data;
  /// Byte offset of data[0] in the input.
  int64_t offset = 0;
  /// The fields of all rows, row after row.
  std::vector<FieldRef> fields;
  /// The rows in order.
  std::vector<RowRef> rows;

  /// The raw content of a field (doubled quotes not yet undone).
  std::string_view RawView(const FieldRef& f) const {
    return {reinterpret_cast<const char*>(data->data()) + f.begin, static_cast<size_t>(f.length)};
  }
  /// The field's value: the raw content, or for escaped fields the content with doubled quotes
  /// undone, written to `*scratch` (the view then points there).
  std::string_view Value(const FieldRef& f, char quote, std::string* scratch) const {
    return f.escaped() ? Unescape(f, quote, scratch) : RawView(f);
  }
  /// Writes the content of an escaped field with each doubled quote undone to `*scratch`.
  std::string_view Unescape(const FieldRef& f, char quote, std::string* scratch) const;
  /// The text of a row without its line terminator.
  std::string_view RowText(const RowRef& r) const {
    return {reinterpret_cast<const char*>(data->data()) + r.begin, static_cast<size_t>(r.end - r.begin)};
  }
};

/// Tokenizes `data`, which starts at a row start (as Chunker guarantees) and holds whole rows;
/// the last row may lack its LF only when `data` is the end of the input. `first_line` is the
/// 1-based line of data's first byte and `offset` its position in the input.
/// Faults are recorded per row, never returned: the caller decides whether a row is fatal.
/// `*out` is overwritten; the capacity of its vectors is reused (recycle blocks to avoid
/// allocating and page-faulting fresh vectors for every block).
void ParseBlock(std::shared_ptr<Buffer> data, int64_t offset, int64_t first_line, const Dialect& dialect,
                ParsedBlock* out);

}  // namespace recflow::csv
