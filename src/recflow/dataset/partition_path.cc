// Escaping, unescaping, building and parsing Hive-style `key=value` partition directory names.
#include "recflow/dataset/partition_path.h"

#include <array>

namespace recflow::dataset {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

/// Longest piece of a value quoted in an error message.
constexpr size_t kMaxQuotedBytes = 64;

/// The escape set as a 128-entry table (bytes >= 0x80 are never escaped).
constexpr std::array<bool, 128> MakeEscapeTable() {
  std::array<bool, 128> table{};
  for (int c = 0x00; c <= 0x1F; ++c) table[c] = true;  // 0x00 is recflow's addition
  for (char c : {'"', '#', '%', '\'', '*', '/', ':', '=', '?', '\\', '\x7F', '{', '[', ']', '^'}) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}

constexpr std::array<bool, 128> kEscapeTable = MakeEscapeTable();

/// The value of a hex digit, or -1.
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// True when escaped text may be cut before byte `at`: not inside a `%XX` escape and not before
/// a UTF-8 continuation byte.
bool IsSplitPoint(std::string_view escaped, size_t at) {
  if (escaped[at - 1] == '%' || (at >= 2 && escaped[at - 2] == '%')) return false;
  return (static_cast<unsigned char>(escaped[at]) & 0xC0) != 0x80;
}

/// The start of an escaped value for error messages (escaped text is printable ASCII or UTF-8).
std::string Quote(std::string_view escaped) {
  std::string quoted = "'";
  quoted += escaped.substr(0, kMaxQuotedBytes);
  if (escaped.size() <= kMaxQuotedBytes) return quoted + "'";
  return quoted + "...' (" + std::to_string(escaped.size()) + " bytes escaped)";
}

}  // namespace

bool NeedsEscape(unsigned char byte) { return byte < kEscapeTable.size() && kEscapeTable[byte]; }

std::string EscapePathName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (NeedsEscape(byte)) {
      out.push_back('%');
      out.push_back(kHexDigits[byte >> 4]);
      out.push_back(kHexDigits[byte & 0xF]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string UnescapePathName(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '%' && i + 2 < escaped.size()) {
      const int hi = HexValue(escaped[i + 1]);
      const int lo = HexValue(escaped[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>((hi << 4) | lo));
        i += 2;
        continue;
      }
    }
    out.push_back(escaped[i]);
  }
  return out;
}

Result<std::string> PartitionLevelPath(std::string_view key, std::optional<std::string_view> value) {
  if (key.empty()) return Status::InvalidArgument("partition column name is empty");
  const std::string escaped_key = EscapePathName(key);
  std::string escaped_value;
  if (!value.has_value()) {
    escaped_value = kHiveDefaultPartition;
  } else if (value->empty()) {
    escaped_value = kEmptyPartitionValue;
  } else {
    escaped_value = EscapePathName(*value);
  }
  std::string path = escaped_key + "=";
  // Room for the marker and the longest unsplittable unit (a 4-byte UTF-8 character).
  constexpr size_t kMinPiece = 4;
  if (path.size() + kContinuationMarker.size() + kMinPiece > kMaxPathComponentBytes) {
    return Status::InvalidArgument("partition column name '" + escaped_key + "' is " +
                                   std::to_string(escaped_key.size()) + " bytes escaped, too long for the " +
                                   std::to_string(kMaxPathComponentBytes) + "-byte limit of a directory name");
  }
  std::string_view rest = escaped_value;
  size_t room = kMaxPathComponentBytes - path.size();
  while (rest.size() > room) {
    size_t cut = room - kContinuationMarker.size();
    while (cut > 0 && !IsSplitPoint(rest, cut)) --cut;
    path.append(rest.substr(0, cut)).append(kContinuationMarker).push_back('/');
    path.append(kContinuationMarker);
    rest.remove_prefix(cut);
    room = kMaxPathComponentBytes - kContinuationMarker.size();
  }
  path.append(rest);
  return path;
}

Result<std::string> PartitionPath(const std::vector<PartitionKeyValue>& levels) {
  std::string path;
  for (const PartitionKeyValue& level : levels) {
    ASSIGN_OR_RETURN(std::string name, PartitionLevelPath(level.key, level.value));
    if (!path.empty()) path.push_back('/');
    path += name;
    if (path.size() > kMaxPartitionPathBytes) {
      return Status::DataError("partition path for column '" + EscapePathName(level.key) + "' and value " +
                                     Quote(level.value ? EscapePathName(*level.value) : std::string()) +
                                     " would be " + std::to_string(path.size()) + " bytes, longer than the " +
                                     std::to_string(kMaxPartitionPathBytes) + "-byte limit");
    }
  }
  return path;
}

Result<std::optional<PartitionKeyValue>> ParsePartitionDirectoryName(std::string_view name) {
  const size_t eq = name.find('=');
  if (eq == std::string_view::npos) return std::optional<PartitionKeyValue>();
  const std::string_view raw_key = name.substr(0, eq);
  const std::string_view raw_value = name.substr(eq + 1);
  if (raw_key.empty()) return Status::DataError("empty partition column name in '" + std::string(name) + "'");
  if (raw_value.empty()) return Status::DataError("empty partition value in '" + std::string(name) + "'");
  PartitionKeyValue level{UnescapePathName(raw_key), std::nullopt};
  if (raw_value == kEmptyPartitionValue) {
    level.value = std::string();
  } else if (raw_value != kHiveDefaultPartition) {
    level.value = UnescapePathName(raw_value);
  }
  return std::optional<PartitionKeyValue>(std::move(level));
}

Result<std::vector<std::string>> JoinContinuedDirectories(std::vector<std::string> components) {
  std::vector<std::string> joined;
  bool continues = false;
  for (std::string& component : components) {
    const bool is_continuation = component.starts_with(kContinuationMarker);
    if (is_continuation != continues) {
      std::string path;
      for (const std::string& c : components) path += (path.empty() ? "" : "/") + c;
      return Status::DataError("'" + path + "': " +
                               (continues ? "'" + joined.back() + "' continues in a directory that does not follow"
                                          : "'" + component + "' continues no directory"));
    }
    const bool ends_continued = component.ends_with(kContinuationMarker) &&
                                component.size() >= (is_continuation ? 2 : 1) * kContinuationMarker.size();
    if (ends_continued) component.resize(component.size() - kContinuationMarker.size());
    if (is_continuation) {
      joined.back().append(component, kContinuationMarker.size());
    } else {
      joined.push_back(std::move(component));
    }
    continues = ends_continued;
  }
  if (continues) {
    return Status::DataError("directory '" + joined.back() + "' continues in a directory that does not follow");
  }
  return joined;
}

Result<std::vector<PartitionKeyValue>> ParsePartitionPath(std::string_view relative_path) {
  std::vector<std::string> components;
  size_t start = 0;
  while (start <= relative_path.size()) {
    size_t end = relative_path.find('/', start);
    if (end == std::string_view::npos) end = relative_path.size();
    if (end > start) components.emplace_back(relative_path.substr(start, end - start));
    start = end + 1;
  }
  ASSIGN_OR_RETURN(components, JoinContinuedDirectories(std::move(components)));
  std::vector<PartitionKeyValue> levels;
  for (const std::string& component : components) {
    ASSIGN_OR_RETURN(std::optional<PartitionKeyValue> level, ParsePartitionDirectoryName(component));
    if (!level.has_value()) {
      return Status::DataError("'" + component + "' in '" + std::string(relative_path) +
                               "' is not a key=value partition directory");
    }
    levels.push_back(std::move(*level));
  }
  return levels;
}

}  // namespace recflow::dataset
