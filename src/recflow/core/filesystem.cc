// The FileSystem verbs built once over the virtual ones: existence, trees, mkdir -p, small files.
#include "recflow/core/filesystem.h"

#include <algorithm>

namespace recflow {

std::string ParentPath(const std::string& path) {
  std::string_view p = path;
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  const size_t slash = p.rfind('/');
  if (slash == std::string_view::npos) return std::string();
  if (slash == 0) return "/";
  return std::string(p.substr(0, slash));
}

Result<std::unique_ptr<InputStream>> OpenInputFile(FileSystem& fs, const std::string& path) {
  if (path == "-") {
    ASSIGN_OR_RETURN(std::unique_ptr<FileInputStream> in, FileInputStream::Open(path));
    return std::unique_ptr<InputStream>(std::move(in));
  }
  Result<std::unique_ptr<InputStream>> in = fs.OpenInputStream(path);
  if (!in.ok()) return in.status().WithFile(path);
  return in;
}

Result<FileInfo> FileSystem::GetTargetInfo(const std::string& path) {
  ASSIGN_OR_RETURN(FileInfo info, GetFileInfo(path));
  if (info.type != FileType::kSymlink) return info;
  ASSIGN_OR_RETURN(std::string target, ResolvePath(path));
  return GetFileInfo(target);
}

Result<int64_t> FileSystem::AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes) {
  ASSIGN_OR_RETURN(FileInfo info, GetTargetInfo(path));
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputStream(path));
  return AppendStream(*in, info.type == FileType::kFile ? info.size : -1, out, max_bytes);
}

Result<bool> FileSystem::Exists(const std::string& path) {
  ASSIGN_OR_RETURN(FileInfo info, GetFileInfo(path));
  return info.exists();
}

Result<bool> FileSystem::IsDirectory(const std::string& path) {
  ASSIGN_OR_RETURN(FileInfo info, GetFileInfo(path));
  return info.is_directory();
}

Status FileSystem::RemoveTree(const std::string& path) {
  ASSIGN_OR_RETURN(FileInfo info, GetFileInfo(path));
  if (!info.exists()) return Status::OK();
  if (info.is_directory()) {
    ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(path));
    for (const std::string& name : names) RETURN_NOT_OK(RemoveTree(path + "/" + name));
  }
  Status st = Remove(path);
  return st.code() == StatusCode::kNotFound ? Status::OK() : st;
}

void FileSystem::RemoveDirectoryIfEmpty(const std::string& path) {
  const Result<bool> dir = IsDirectory(path);
  if (dir.ok() && *dir) (void)Remove(path);  // fails, harmlessly, when not empty
}

Result<std::vector<std::string>> FileSystem::CreateDirectories(const std::string& path) {
  std::vector<std::string> missing;
  for (std::string p = path; !p.empty(); p = ParentPath(p)) {
    ASSIGN_OR_RETURN(bool exists, Exists(p));
    if (exists) break;
    missing.push_back(p);
    if (p == "/") break;
  }
  std::vector<std::string> created;
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    Status st = CreateDirectory(*it);
    if (st.code() == StatusCode::kAlreadyExists) {
      ASSIGN_OR_RETURN(bool dir, IsDirectory(*it));
      if (dir) continue;  // made by someone else meanwhile
    }
    RETURN_NOT_OK(st);
    created.insert(created.begin(), *it);
  }
  ASSIGN_OR_RETURN(bool dir, IsDirectory(path));
  if (!dir) return Status::IOError("cannot create directory '" + path + "': not a directory");
  return created;
}

Status FileSystem::CreateDirectoriesBelow(const std::string& root, std::string_view relative) {
  std::string path = root;
  size_t begin = 0;
  while (begin < relative.size()) {
    const size_t end = std::min(relative.find('/', begin), relative.size());
    path.append("/").append(relative.substr(begin, end - begin));
    ASSIGN_OR_RETURN(bool dir, IsDirectory(path));
    if (!dir) RETURN_NOT_OK(CreateDirectory(path));
    begin = end + 1;
  }
  return Status::OK();
}

namespace {

/// Appends to `files` the non-directories under `dir` (relative to the walk's root, with `prefix`)
/// and to `dirs` (when given) the directories, parents first.
Status Walk(FileSystem& fs, const std::string& dir, const std::string& prefix, std::vector<std::string>* files,
            std::vector<std::string>* dirs) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, fs.ListDirectory(dir));
  for (const std::string& name : names) {
    const std::string path = dir + "/" + name;
    ASSIGN_OR_RETURN(FileInfo info, fs.GetFileInfo(path));
    if (!info.exists()) continue;  // removed meanwhile
    if (info.is_directory()) {
      if (dirs != nullptr) dirs->push_back(path);
      RETURN_NOT_OK(Walk(fs, path, prefix + name + "/", files, dirs));
    } else if (files != nullptr) {
      files->push_back(prefix + name);
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> FileSystem::ListFilesRecursively(const std::string& root) {
  std::vector<std::string> files;
  RETURN_NOT_OK(Walk(*this, root, "", &files, nullptr));
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::vector<std::string>> FileSystem::ListDirectoriesRecursively(const std::string& root) {
  std::vector<std::string> dirs = {root};
  RETURN_NOT_OK(Walk(*this, root, "", nullptr, &dirs));
  return dirs;
}

Status FileSystem::WriteSmallFile(const std::string& path, std::string_view content, bool sync) {
  WriteOptions options;
  options.sync_on_close = sync;
  ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, OpenOutputStream(path, options));
  Status st = out->Write(content.data(), static_cast<int64_t>(content.size()));
  const Status closed = out->Close();
  return st.ok() ? closed : st;
}

}  // namespace recflow
