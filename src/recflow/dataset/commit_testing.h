// Test helpers for commit tests: writing files and snapshotting a dataset directory's content.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "recflow/dataset/save_mode.h"

namespace recflow::dataset::testing {

/// Relative path -> content of every regular file under a directory.
using Tree = std::map<std::string, std::string>;

/// The dataset a job writing `job` (files one partition directory deep) leaves under `mode`
/// over dataset `old` (nothing under error mode): its files, what the mode keeps of `old`
/// (append: everything; overwrite-partitions: the partitions the job does not write), and `_SUCCESS`.
inline Tree ExpectedAfter(SaveMode mode, const Tree& old, const Tree& job) {
  Tree expected = job;
  std::set<std::string> written;
  for (const auto& [rel, content] : job) written.insert(rel.substr(0, rel.find('/')));
  for (const auto& [rel, content] : old) {
    const bool kept = mode == SaveMode::kAppend ||
                      (mode == SaveMode::kOverwritePartitions && !written.contains(rel.substr(0, rel.find('/'))));
    if (kept && rel != "_SUCCESS") expected.emplace(rel, content);
  }
  expected["_SUCCESS"] = "";
  return expected;
}

/// Writes `content` to `path`, creating parent directories.
inline void WriteFile(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

/// The files under `root` (skipping `_temporary` when `skip_temporary`), relative path -> content.
inline Tree ReadTree(const std::filesystem::path& root, bool skip_temporary = true) {
  Tree tree;
  if (!std::filesystem::exists(root)) return tree;
  for (auto it = std::filesystem::recursive_directory_iterator(root); it != std::filesystem::recursive_directory_iterator();
       ++it) {
    const std::string rel = std::filesystem::relative(it->path(), root).string();
    if (skip_temporary && rel == "_temporary") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) {
      std::ifstream in(it->path(), std::ios::binary);
      tree[rel] = std::string(std::istreambuf_iterator<char>(in), {});
    }
  }
  return tree;
}

/// Writes every file of `tree` under `root`.
inline void WriteTree(const std::filesystem::path& root, const Tree& tree) {
  for (const auto& [rel, content] : tree) WriteFile(root / rel, content);
}

}  // namespace recflow::dataset::testing
