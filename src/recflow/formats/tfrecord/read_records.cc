// ReadRecords: a RecordReader read to its end, each record copied out.
#include "recflow/formats/tfrecord/read_records.h"

namespace recflow::tfrecord {

Result<std::vector<std::string>> ReadRecords(const std::string& path, const ReaderOptions& options) {
  ASSIGN_OR_RETURN(auto reader, RecordReader::Open(path, options));
  std::vector<std::string> records;
  std::string_view record;
  while (true) {
    ASSIGN_OR_RETURN(bool more, reader->Next(&record));
    if (!more) break;
    records.emplace_back(record);
  }
  return records;
}

}  // namespace recflow::tfrecord
