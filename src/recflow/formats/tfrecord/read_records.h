// ReadRecords: every record of a TFRecord file in memory, for tests and benchmarks over small files.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::tfrecord {

/// Every record of the TFRecord file `path`, in order, read with RecordReader (compression
/// detected, CRCs verified unless `options` says otherwise); its errors as RecordReader's.
Result<std::vector<std::string>> ReadRecords(const std::string& path,
                                             const ReaderOptions& options = ReaderOptions::Defaults());

}  // namespace recflow::tfrecord
