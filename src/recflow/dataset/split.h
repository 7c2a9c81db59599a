// Split: one independently readable piece of an input file (a byte or record-batch range), and its one-line JSON form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/registry/format_splitter.h"

namespace recflow::dataset {

/// One Hive partition level of a split's file.
struct SplitPartitionValue {
  /// The column name.
  std::string key;
  /// The column's type as DataType::ToString() names it (bool, an integer type, float32,
  /// float64 or utf8), as partition discovery found it for the whole dataset.
  std::string type;
  /// The value's text as its directory spells it (unescaped; PartitionValueText), std::nullopt
  /// for null.
  std::optional<std::string> text;
  /// Same members.
  bool operator==(const SplitPartitionValue&) const = default;
};

/// What a split's range counts (its format's FormatSplitter decides).
using formats::SplitUnit;

/// A piece of one input file that a process can read on its own (OpenSplit), in any order
/// relative to the other pieces; the splits MakeSplits makes of a file own every record of it
/// exactly once. It says what file it was made against (size and modification time), so a
/// split opened after the file changed fails instead of reading the wrong records.
struct Split {
  /// The file, as given to MakeSplits (valid UTF-8).
  std::string path;
  /// The name of its registered format ("csv", "jsonl", "tfrecord", "avro", "arrow", ...).
  std::string format;
  /// The codec the file is stored with ("none", "gzip", "zlib", "zstd", ...): a compressed file
  /// is one whole-file split.
  std::string compression = "none";
  /// What begin and end count.
  SplitUnit unit = SplitUnit::kBytes;
  /// The range: see SplitUnit.
  int64_t begin = 0;
  int64_t end = 0;
  /// The file's size in bytes when the split was made.
  int64_t file_size = 0;
  /// The file's modification time (nanoseconds since the epoch) when the split was made.
  int64_t file_mtime_ns = 0;
  /// The file's Hive partition values, outermost first.
  std::vector<SplitPartitionValue> partition;

  /// The range as its format's splitter reads it.
  formats::FileRange range() const { return {unit, begin, end}; }
  /// Same members.
  bool operator==(const Split&) const = default;
};

/// The partition columns `split` records, in order, each nullable (a split does not know
/// whether other files hold nulls). InvalidArgument for a type no partition directory holds.
Result<SchemaPtr> PartitionSchemaOf(const Split& split);

/// Sets split->file_size and split->file_mtime_ns from the regular file split->path; IOError
/// naming it when it cannot be stat'ed, InvalidArgument when it is not a regular file (a pipe
/// cannot be split).
Status StampSplitFile(Split* split);

/// DataError naming the file when its size or modification time is not the one the split
/// records (the file changed since the split was made: its records may have moved), or
/// when it is gone; the message says to make the splits again.
Status CheckSplitFile(const Split& split);

/// The split as one line of JSON (no newline):
/// {"path":...,"format":...,"compression":...,"unit":"bytes","begin":B,"end":E,"file_size":S,
///  "file_mtime_ns":M,"partition":[["year","int64","2024"],["tag","utf8",null]]}.
std::string SplitToJson(const Split& split);

/// Parses SplitToJson's form. Every member is required, none may repeat or be unknown, numbers
/// are non-negative integers with begin <= end, texts are non-empty valid UTF-8 without NUL
/// bytes; otherwise InvalidArgument saying what is wrong (the text is the caller's input, not
/// a data file). Hostile input is safe: the parser is simdjson's, the text at most 1 MiB.
Result<Split> ParseSplit(std::string_view json);

}  // namespace recflow::dataset
