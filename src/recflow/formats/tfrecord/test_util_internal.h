// Test helpers for the TFRecord layer: encoding records into bytes and reading them all back.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/formats/tfrecord/record_writer.h"

namespace recflow::tfrecord::testing {

/// The bytes of a TFRecord file holding `records`, written by RecordWriter with `compression`.
inline Result<std::string> EncodeRecords(const std::vector<std::string>& records,
                                         Compression compression = Compression::kNone) {
  auto sink = std::make_unique<BufferOutputStream>();
  BufferOutputStream* raw = sink.get();
  WriterOptions options = WriterOptions::Defaults();
  options.compression = compression;
  ASSIGN_OR_RETURN(std::unique_ptr<RecordWriter> writer, RecordWriter::Make(std::move(sink), options));
  for (const std::string& r : records) RETURN_NOT_OK(writer->Write(r));
  RETURN_NOT_OK(writer->Close());
  return std::string(raw->Finish()->view());
}

/// Byte offsets of each record's header in an uncompressed file of `records`, plus the end.
inline std::vector<int64_t> RecordOffsets(const std::vector<std::string>& records) {
  std::vector<int64_t> offsets{0};
  for (const std::string& r : records) offsets.push_back(offsets.back() + kFramingOverhead + static_cast<int64_t>(r.size()));
  return offsets;
}

/// Every record the reader returns until the end or the first error.
inline Result<std::vector<std::string>> ReadAll(RecordReader& reader) {
  std::vector<std::string> out;
  std::string_view record;
  for (;;) {
    ASSIGN_OR_RETURN(bool more, reader.Next(&record));
    if (!more) return out;
    out.emplace_back(record);
  }
}

/// `n` records of varied sizes (including empty ones) with recognisable contents.
inline std::vector<std::string> SampleRecords(int n) {
  std::vector<std::string> records;
  for (int i = 0; i < n; ++i) {
    const size_t size = i % 5 == 0 ? 0 : static_cast<size_t>(7 * i + (i % 3) * 50);
    std::string r(size, '\0');
    for (size_t j = 0; j < size; ++j) r[j] = static_cast<char>('a' + (i + j) % 26);
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace recflow::tfrecord::testing
