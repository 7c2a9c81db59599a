// Expanding command-line inputs (files, directories, glob patterns) into a list of files.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"

namespace recflow {

/// Turns input arguments into the files to read on `fs`, in order:
/// - "-" (standard input) passes through;
/// - an existing file is kept as given, whatever its name;
/// - a directory is walked recursively and its regular files (symlinks to files included,
///   symlinked directories not descended) are listed sorted by path, skipping every file or
///   directory whose name starts with `_` or `.` (as Spark does: `_SUCCESS`, `.crc`,
///   `_recflow_schema.json`); nothing is ever written (a dataset recflow commits is complete
///   at every instant, see docs/formats/datasets.md);
/// - otherwise an argument with `*`, `?` or `[` is a pattern matched as glob(3) does, component by
///   component over fs.ListDirectory (fnmatch; a leading `.` only explicitly); its matches are expanded
///   as above, and matches whose name starts with `_` or `.` are skipped unless the pattern's own
///   last component starts with that character too.
/// A missing path, or a pattern that matches nothing, is NotFound naming the argument.
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& args,
                                              FileSystem& fs = *LocalFileSystem::Instance());

/// False when some argument names an input that a second open would not read again from its
/// start: standard input ("-") or anything that is neither a regular file nor a directory (a
/// FIFO, a character device, a socket), symlinks followed. Globs count as regular files;
/// arguments that cannot be looked up count as reopenable (opening them fails with the reason).
bool CanReopenInputs(const std::vector<std::string>& args, FileSystem& fs = *LocalFileSystem::Instance());

}  // namespace recflow
