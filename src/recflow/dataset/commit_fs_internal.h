// File system primitives of the commit protocol: fsync, exchange and no-replace renames, hard links, listing, removal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// IOError "`what` '`path`': strerror(`err`)".
Status ErrnoError(const std::string& what, const std::string& path, int err);

/// True when `path` names anything (lstat(2) succeeds; a dangling symlink counts).
bool PathExists(const std::string& path);

/// True when `path` is a directory (not following a final symlink).
bool IsDirectory(const std::string& path);

/// True when directory `path` is the root of a mounted file system (statx(2)'s
/// STATX_ATTR_MOUNT_ROOT, or a device different from its parent's where the kernel does not
/// report that attribute): such a directory cannot be renamed. IOError when it cannot be stat'ed.
Result<bool> IsMountPoint(const std::string& path);

/// fsync(2) of a file or directory opened read-only; IOError naming it on failure.
Status SyncPath(const std::string& path);

/// True for the errno of a renameat2(2) whose flag the file system (EINVAL) or the kernel
/// (ENOSYS) does not support: the caller falls back to plain renames.
bool RenameFlagUnsupported(int err);

/// The IOError of a failed rename described by `what` ("cannot move 'a' to 'b'") with errno
/// `err`; EXDEV (across file systems) says why recflow cannot commit there and what to do.
Status RenameError(const std::string& what, int err);

/// Moves `from` to `to` atomically without ever replacing anything: renameat2(2) with
/// RENAME_NOREPLACE, AlreadyExists when `to` exists. Where the file system or kernel does not
/// support the flag (RenameFlagUnsupported), it checks that `to` does not exist and uses rename(2); callers hold the
/// output lock, so no other recflow writer can create `to` in between.
Status MoveNoReplace(const std::string& from, const std::string& to);

/// Swaps two existing paths atomically: renameat2(2) with RENAME_EXCHANGE. Returns false
/// (nothing moved) when the file system or kernel does not support it (RenameFlagUnsupported),
/// IOError naming both paths (RenameError) for any other failure.
Result<bool> TryExchange(const std::string& a, const std::string& b);

/// A new hard link `to` of `from` (not following a symlink `from`); AlreadyExists when `to`
/// exists, IOError naming both otherwise.
Status HardLink(const std::string& from, const std::string& to);

/// mkdir(2) of one directory with `mode` (before the umask); AlreadyExists when `path` exists,
/// IOError naming it otherwise. Never creates parents, so nothing can be recreated under a
/// directory that was removed.
Status MakeDirectory(const std::string& path, unsigned mode = 0777);

/// mkdir -p of `path`; returns the directories it created, deepest first (for removing them
/// again when the job fails). IOError naming the path on failure (including an existing
/// non-directory).
Result<std::vector<std::string>> CreateMissingDirectories(const std::string& path);

/// Creates the directories of `relative` (a `/`-separated relative path) under `root`, which
/// must exist, one MakeDirectory at a time: if `root` was removed, nothing is recreated.
Status CreateDirectoriesBelow(const std::string& root, std::string_view relative);

/// Names in directory `path` (not `.`/`..`), sorted; IOError when it cannot be listed.
Result<std::vector<std::string>> ListDirectory(const std::string& path);

/// Paths of every non-directory under `root`, relative to it, sorted; directories are walked.
Result<std::vector<std::string>> ListFilesRecursively(const std::string& root);

/// Paths of every directory under `root` (root included), absolute.
Result<std::vector<std::string>> ListDirectoriesRecursively(const std::string& root);

/// rm -rf; success when `path` does not exist.
Status RemoveTree(const std::string& path);

/// rmdir(2) when `path` is an empty directory; does nothing otherwise (best effort tidying).
void RemoveDirectoryIfEmpty(const std::string& path);

/// Creates (or truncates) `path` holding `content` and, when `sync`, fsyncs it.
Status WriteSmallFile(const std::string& path, std::string_view content, bool sync);

}  // namespace recflow::dataset::internal
