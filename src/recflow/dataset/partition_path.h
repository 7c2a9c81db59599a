// Hive-style partition directory names (`key=value`), escaped and unescaped exactly as Spark does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::dataset {

/// The directory value Spark (and Hive) write for a null partition value.
inline constexpr std::string_view kHiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

/// The directory value recflow writes for an empty string. Spark writes kHiveDefaultPartition
/// for both null and empty, so an empty string would read back as null; `%~` is text that
/// EscapePathName never produces (it always follows `%` with two hex digits), so it cannot
/// collide with any escaped value. Spark reads it as the literal text `%~`.
inline constexpr std::string_view kEmptyPartitionValue = "%~";

/// Marks a value split over several directories because its escaped form does not fit in one
/// file name: a directory name ending with the marker continues in the child directory, whose
/// name starts with it (`k=<first part>%+/%+<next part>`). Like kEmptyPartitionValue it is text
/// EscapePathName never produces. Spark's writer refuses such values; its discovery would see
/// only the first part (and misread the chain above a nested partition level).
inline constexpr std::string_view kContinuationMarker = "%+";

/// Longest file or directory name, in bytes, that Linux accepts (NAME_MAX).
inline constexpr size_t kMaxPathComponentBytes = 255;

/// Longest relative partition path PartitionPath() makes, in bytes: long values continue in
/// nested directories, but the whole path of a file (output directory, staging directory,
/// partition path and file name) must stay within Linux's PATH_MAX of 4096 bytes.
inline constexpr size_t kMaxPartitionPathBytes = 2048;

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

/// The relative directory path of one partition level: `EscapePathName(key)=EscapePathName(value)`,
/// with null as kHiveDefaultPartition (as in Spark) and an empty string as kEmptyPartitionValue
/// (so it reads back as an empty string, not as null). When that name is longer than
/// kMaxPathComponentBytes the value continues in nested directories joined by
/// kContinuationMarker, each at most kMaxPathComponentBytes, split only between escapes and
/// UTF-8 characters. Every component is a safe path component: never `.` or `..`, never holding
/// `/` or NUL. InvalidArgument for an empty key or one too long to leave room for a value.
Result<std::string> PartitionLevelPath(std::string_view key, std::optional<std::string_view> value);

/// The relative path `k1=v1/k2=v2/...` of a partition (no leading or trailing `/`), each level
/// made by PartitionLevelPath. An empty list gives an empty path. DataError (the values are
/// data), naming the column and the start of its value, when the path would be longer than
/// kMaxPartitionPathBytes; PartitionLevelPath's InvalidArgument for a bad column name.
Result<std::string> PartitionPath(const std::vector<PartitionKeyValue>& levels);

/// Joins the directories of a value split by PartitionLevelPath back into one logical name
/// (markers removed), leaving every other component as it is. DataError naming the path when a
/// continuation has no directory to continue or a continued directory has no continuation.
Result<std::vector<std::string>> JoinContinuedDirectories(std::vector<std::string> components);

/// Parses one (joined) directory name as Spark's partition discovery does: std::nullopt when it
/// holds no `=` (not a partition directory); otherwise the key before the first `=` and the
/// value after it, both unescaped, with kHiveDefaultPartition read as null and
/// kEmptyPartitionValue as the empty string. DataError for an empty key or an empty value
/// (Spark rejects both).
Result<std::optional<PartitionKeyValue>> ParsePartitionDirectoryName(std::string_view name);

/// Parses a relative path such as `a=1/b=x%2Fy` into its levels, in order. Empty components
/// (from doubled, leading or trailing `/`) are ignored; continued directories are joined
/// (JoinContinuedDirectories); every other component must be a partition directory name, else
/// DataError naming it.
Result<std::vector<PartitionKeyValue>> ParsePartitionPath(std::string_view relative_path);

}  // namespace recflow::dataset
