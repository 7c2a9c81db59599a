// ExpandInputs: files pass through, directories are walked, glob patterns are expanded.
#include "recflow/dataset/inputs.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "recflow/core/local_path.h"

namespace recflow {

namespace {

namespace fs = std::filesystem;

/// Spark's rule for metadata and in-progress files: names starting with `_` or `.`.
bool IsHiddenName(std::string_view name) { return !name.empty() && (name[0] == '_' || name[0] == '.'); }

bool HasGlobChars(std::string_view arg) { return arg.find_first_of("*?[") != std::string_view::npos; }

Status FsError(const std::string& path, const std::error_code& ec) {
  if (ec == std::errc::no_such_file_or_directory) return Status::NotFound(path + ": no such file or directory");
  return Status::IOError(path + ": " + ec.message());
}

/// Appends the regular files under `dir`, sorted, skipping hidden names at every level.
Status WalkDirectory(const std::string& dir, std::vector<std::string>* out) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return FsError(dir, ec);
  for (; it != end; it.increment(ec)) {
    if (ec) return FsError(dir, ec);
    const fs::directory_entry& entry = *it;
    if (IsHiddenName(entry.path().filename().native())) {
      if (entry.is_directory(ec) && !entry.is_symlink(ec)) it.disable_recursion_pending();
      continue;
    }
    if (entry.is_regular_file(ec)) files.push_back(entry.path().string());
  }
  if (ec) return FsError(dir, ec);
  std::sort(files.begin(), files.end());
  out->insert(out->end(), files.begin(), files.end());
  return Status::OK();
}

/// Appends a path that exists: a directory is walked, anything else is kept.
Status ExpandExisting(const std::string& path, std::vector<std::string>* out) {
  std::error_code ec;
  const bool is_dir = fs::is_directory(path, ec);
  if (ec) return FsError(path, ec);
  if (is_dir) return WalkDirectory(path, out);
  out->push_back(path);
  return Status::OK();
}

Status ExpandGlob(const std::string& pattern, std::vector<std::string>* out) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> matches(g.gl_pathv, g.gl_pathv + g.gl_pathc);
  ::globfree(&g);
  if (rc == GLOB_NOSPACE) return Status::OutOfMemory("out of memory expanding " + pattern);
  if (rc == GLOB_ABORTED) return Status::IOError(pattern + ": read error while expanding the pattern");
  const bool keep_hidden = IsHiddenName(fs::path(pattern).filename().native());
  std::erase_if(matches, [&](const std::string& m) { return !keep_hidden && IsHiddenName(fs::path(m).filename().native()); });
  if (matches.empty()) return Status::NotFound(pattern + ": no file matches the pattern");
  for (const std::string& m : matches) RETURN_NOT_OK(ExpandExisting(m, out));
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const std::string& given : args) {
    ASSIGN_OR_RETURN(const std::string arg, LocalPath(given));
    if (arg == "-") {
      files.push_back(arg);
      continue;
    }
    std::error_code ec;
    const bool exists = fs::exists(arg, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) return FsError(arg, ec);
    if (exists) {
      RETURN_NOT_OK(ExpandExisting(arg, &files));
    } else if (HasGlobChars(arg)) {
      RETURN_NOT_OK(ExpandGlob(arg, &files));
    } else {
      return Status::NotFound(arg + ": no such file or directory");
    }
  }
  return files;
}

}  // namespace recflow
