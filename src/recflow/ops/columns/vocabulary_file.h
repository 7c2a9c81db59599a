// Vocabulary files: one value per line, as tf.Transform writes them (optionally "count value").
#pragma once

#include <string>

#include "recflow/core/filesystem.h"

#include "recflow/core/result.h"
#include "recflow/ops/columns/vocabulary.h"

namespace recflow::ops {

/// Writes `vocab` to `path` on `file_system`, one value per line in id order, each line ended by
/// '\n'; with
/// `with_counts` each line is "COUNT VALUE" (tf.Transform's store_frequency format; needs
/// counts). InvalidArgument naming the id for a value containing '\n' or '\r' (it cannot be
/// read back); IOError from the file system.
Status WriteVocabularyFile(FileSystem& file_system, const std::string& path, const Vocabulary& vocab,
                           bool with_counts = false);

/// Reads a vocabulary file on `file_system` written as above (a missing final '\n' is accepted,
/// as are "\r\n"
/// line ends); with `with_counts` each line must start with a count and a space. DataError
/// naming the file and line for a malformed count or a repeated value.
Result<Vocabulary> ReadVocabularyFile(FileSystem& file_system, const std::string& path, bool with_counts = false);

}  // namespace recflow::ops
