// Hive-style partition directory names (`key=value`), escaped and unescaped exactly as Spark does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::dataset {

/// The directory value Spark (and Hive) write for a null or empty partition value.
inline constexpr std::string_view kHiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

/// Longest file or directory name, in bytes, that Linux accepts (NAME_MAX).
inline constexpr size_t kMaxPathComponentBytes = 255;

/// One level of a partitioned layout: a column name and its value (std::nullopt is null).
struct PartitionKeyValue {
  std::string key;                   ///< the column name, unescaped
  std::optional<std::string> value;  ///< the value, unescaped; std::nullopt for null
  /// Same key and same value (or both null).
  bool operator==(const PartitionKeyValue&) const = default;
};

/// True for the bytes Spark's ExternalCatalogUtils.escapePathName escapes (its non-Windows set:
/// U+0001..U+001F, `"` `#` `%` `'` `*` `/` `:` `=` `?` `\` U+007F `{` `[` `]` `^`) and, as
/// recflow's addition, NUL, which no file name can hold. Bytes >= 0x80 (UTF-8 sequences) are
/// never escaped, as Spark leaves non-ASCII characters alone.
bool NeedsEscape(unsigned char byte);

/// Replaces every byte for which NeedsEscape() is true with `%XX` (uppercase hex); other bytes
/// pass through. The result never contains `/`, `=` or NUL.
std::string EscapePathName(std::string_view name);

/// Inverse of EscapePathName, as Spark's unescapePathName: `%` followed by two hex digits (either
/// case) becomes that byte; any other `%` is kept literally. Unlike Spark (which parses the two
/// characters with Java's Integer.parseInt and so also decodes `%+1` or `%-0`), only hex
/// digits count; and `%XX` >= 0x80 becomes the byte XX, not the character U+00XX (Spark's own
/// writer never produces such escapes).
std::string UnescapePathName(std::string_view escaped);

/// The directory name `EscapePathName(key)=EscapePathName(value)` of one partition level; a null
/// or empty value becomes kHiveDefaultPartition, as in Spark (so an empty string, like the text
/// `__HIVE_DEFAULT_PARTITION__` itself, reads back as null). The name is always a single safe
/// path component: never `.` or `..`, never containing `/` or NUL. InvalidArgument for an empty key, or when the name
/// is longer than kMaxPathComponentBytes (the error names the column and the start of the value): the operating system
/// would refuse to create it, and so would Spark's writer; recflow refuses before creating anything rather than
/// truncating, which could merge distinct values.
Result<std::string> PartitionDirectoryName(std::string_view key, std::optional<std::string_view> value);

/// The relative path `k1=v1/k2=v2/...` of a partition (no leading or trailing `/`), each level
/// made by PartitionDirectoryName. An empty list gives an empty path.
Result<std::string> PartitionPath(const std::vector<PartitionKeyValue>& levels);

/// Parses one directory name as Spark's partition discovery does: std::nullopt when it holds no
/// `=` (not a partition directory); otherwise the key before the first `=` and the value after
/// it, both unescaped, with kHiveDefaultPartition read as null. DataError for an empty key or
/// an empty value (Spark rejects both).
Result<std::optional<PartitionKeyValue>> ParsePartitionDirectoryName(std::string_view name);

/// Parses a relative path such as `a=1/b=x%2Fy` into its levels, in order. Empty components
/// (from doubled, leading or trailing `/`) are ignored; every other component must be a
/// partition directory name, else DataError naming it.
Result<std::vector<PartitionKeyValue>> ParsePartitionPath(std::string_view relative_path);

}  // namespace recflow::dataset
