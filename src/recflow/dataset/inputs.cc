// ExpandInputs: files pass through, directories are walked, glob patterns are expanded.
#include "recflow/dataset/inputs.h"

#include <fnmatch.h>

#include <algorithm>
#include <string_view>

#include "recflow/core/local_path.h"

namespace recflow {

namespace {

/// Spark's rule for metadata and in-progress files: names starting with `_` or `.`.
bool IsHiddenName(std::string_view name) { return !name.empty() && (name[0] == '_' || name[0] == '.'); }

bool HasGlobChars(std::string_view arg) { return arg.find_first_of("*?[") != std::string_view::npos; }

/// Appends the regular files under `dir` (a symlink to one included), sorted, skipping hidden
/// names at every level; symlinks to directories are not followed.
Status WalkDirectory(FileSystem& fs, const std::string& dir, std::vector<std::string>* out) {
  std::vector<std::string> files;
  std::vector<std::string> pending = {dir};
  while (!pending.empty()) {
    const std::string at = std::move(pending.back());
    pending.pop_back();
    ASSIGN_OR_RETURN(std::vector<std::string> names, fs.ListDirectory(at));
    for (const std::string& name : names) {
      if (IsHiddenName(name)) continue;
      const std::string path = at + "/" + name;
      ASSIGN_OR_RETURN(FileInfo info, fs.GetFileInfo(path));
      if (info.is_directory()) {
        pending.push_back(path);
        continue;
      }
      if (info.type == FileType::kSymlink) {
        ASSIGN_OR_RETURN(info, fs.GetTargetInfo(path));
      }
      if (info.type == FileType::kFile) files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  out->insert(out->end(), files.begin(), files.end());
  return Status::OK();
}

/// Appends a path that exists: a directory is walked, anything else is kept.
Status ExpandExisting(FileSystem& fs, const std::string& path, std::vector<std::string>* out) {
  ASSIGN_OR_RETURN(const FileInfo info, fs.GetTargetInfo(path));
  if (info.is_directory()) return WalkDirectory(fs, path, out);
  out->push_back(path);
  return Status::OK();
}

/// Appends to `out` what matches `parts[i..]` below `dir` ("" for the working directory), each
/// component matched as glob(3) does (fnmatch, a leading `.` only explicitly).
Status GlobFrom(FileSystem& fs, const std::string& dir, const std::vector<std::string>& parts, size_t i,
                std::vector<std::string>* out) {
  if (i == parts.size()) {
    out->push_back(dir);
    return Status::OK();
  }
  const std::string prefix = dir.empty() ? "" : dir == "/" ? "/" : dir + "/";
  const bool last = i + 1 == parts.size();
  std::vector<std::string> names = {parts[i]};
  if (HasGlobChars(parts[i])) {
    Result<std::vector<std::string>> listed = fs.ListDirectory(dir.empty() ? "." : dir);
    if (!listed.ok()) return Status::OK();  // as glob(3): an unreadable directory matches nothing
    std::erase_if(*listed, [&](const std::string& name) {
      return ::fnmatch(parts[i].c_str(), name.c_str(), FNM_PERIOD) != 0;
    });
    names = std::move(listed).ValueUnsafe();
  }
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(const FileInfo info, fs.GetTargetInfo(prefix + name));
    if (info.exists() && (last || info.is_directory())) RETURN_NOT_OK(GlobFrom(fs, prefix + name, parts, i + 1, out));
  }
  return Status::OK();
}

Status ExpandGlob(FileSystem& fs, const std::string& pattern, std::vector<std::string>* out) {
  std::vector<std::string> parts;
  for (size_t begin = 0; begin <= pattern.size();) {
    const size_t end = std::min(pattern.find('/', begin), pattern.size());
    if (end > begin) parts.push_back(pattern.substr(begin, end - begin));
    begin = end + 1;
  }
  std::vector<std::string> matches;
  RETURN_NOT_OK(GlobFrom(fs, pattern.starts_with("/") ? "/" : "", parts, 0, &matches));
  std::sort(matches.begin(), matches.end());
  const auto name_of = [](const std::string& path) { return std::string_view(path).substr(path.rfind('/') + 1); };
  const bool keep_hidden = IsHiddenName(name_of(pattern));
  std::erase_if(matches, [&](const std::string& m) { return !keep_hidden && IsHiddenName(name_of(m)); });
  if (matches.empty()) return Status::NotFound(pattern + ": no file matches the pattern");
  for (const std::string& m : matches) RETURN_NOT_OK(ExpandExisting(fs, m, out));
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& args, FileSystem& fs) {
  std::vector<std::string> files;
  for (const std::string& given : args) {
    ASSIGN_OR_RETURN(const std::string arg, LocalPath(given));
    if (arg == "-") {
      files.push_back(arg);
      continue;
    }
    Result<FileInfo> info = fs.GetTargetInfo(arg);
    if (!info.ok()) return info.status().WithFile(arg);
    if (info->exists()) {
      RETURN_NOT_OK(ExpandExisting(fs, arg, &files));
    } else if (HasGlobChars(arg)) {
      RETURN_NOT_OK(ExpandGlob(fs, arg, &files));
    } else {
      return Status::NotFound(arg + ": no such file or directory");
    }
  }
  return files;
}

bool CanReopenInputs(const std::vector<std::string>& args, FileSystem& fs) {
  for (const std::string& given : args) {
    Result<std::string> arg = LocalPath(given);
    if (!arg.ok()) continue;
    if (*arg == "-") return false;
    Result<FileInfo> info = fs.GetTargetInfo(*arg);
    if (info.ok() && info->type == FileType::kOther) return false;
  }
  return true;
}

}  // namespace recflow
