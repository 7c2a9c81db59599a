// OutputPaths: the hidden sibling names of an output's staging trees and locks.
#include "recflow/dataset/staging_names_internal.h"

#include <cstdio>

#include "recflow/core/crc32c.h"
#include "recflow/dataset/shard_naming.h"

namespace recflow::dataset::internal {

namespace {

/// Longest part of the output's name kept in sibling names: `.` + name + `.recflow-` + a UUID +
/// `.old.removing` stays within 255 bytes.
constexpr size_t kMaxNameBytes = 190;
constexpr size_t kJobIdBytes = 36;

/// `name`, or when longer than kMaxNameBytes its start and `~` and the CRC-32C of the whole
/// name (8 hex digits) in kMaxNameBytes, so that long names sharing a start differ.
std::string ShortName(const std::string& name) {
  if (name.size() <= kMaxNameBytes) return name;
  char hash[9];
  std::snprintf(hash, sizeof(hash), "%08x", static_cast<unsigned>(Crc32c(name.data(), name.size())));
  return name.substr(0, kMaxNameBytes - 9) + "~" + hash;
}

}  // namespace

Result<OutputPaths> OutputPaths::For(const FileSystem& fs, const std::string& output) {
  if (output.empty()) return Status::InvalidArgument("empty output directory");
  Result<std::string> resolved = fs.ResolvePath(output);
  if (!resolved.ok()) return Status::IOError("cannot resolve output '" + output + "': " + resolved.status().message());
  if (*resolved == "/" || resolved->empty()) return Status::InvalidArgument("output '" + output + "' is the root directory");
  OutputPaths paths;
  paths.output = *resolved;
  paths.parent = ParentPath(paths.output);
  const std::string name = paths.output.substr(paths.output.rfind('/') + 1);
  paths.stem = paths.parent + (paths.parent == "/" ? "" : "/") + "." + ShortName(name) + ".recflow-";
  return paths;
}

std::optional<std::string> OutputPaths::JobOf(std::string_view name_in_parent) const {
  const std::string_view prefix = std::string_view(stem).substr(parent.size() + (parent == "/" ? 0 : 1));
  if (!name_in_parent.starts_with(prefix)) return std::nullopt;
  const std::string_view rest = name_in_parent.substr(prefix.size());
  if (rest.size() < kJobIdBytes || !IsCanonicalUuid(rest.substr(0, kJobIdBytes))) return std::nullopt;
  return std::string(rest.substr(0, kJobIdBytes));
}

}  // namespace recflow::dataset::internal
