// Errors of the local file system's renames, shared with their tests.
#pragma once

#include <string>

#include "recflow/core/status.h"

namespace recflow::internal {

/// True for the errno of a renameat2(2) whose flag the file system (EINVAL) or the kernel
/// (ENOSYS) does not support: the caller falls back to plain renames.
bool RenameFlagUnsupported(int err);

/// The IOError of a failed rename described by `what` ("cannot move 'a' to 'b'") with errno
/// `err`; EXDEV (across file systems) says why recflow cannot commit there and what to do.
Status RenameError(const std::string& what, int err);

}  // namespace recflow::internal
