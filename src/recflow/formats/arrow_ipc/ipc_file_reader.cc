// IpcFileReader: footer and dictionaries at open, record batches decoded on demand.
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"

#include <set>
#include <string>
#include <utility>

#include "recflow/formats/arrow_ipc/framing.h"

namespace recflow::arrow_ipc {

Result<std::unique_ptr<IpcFileReader>> IpcFileReader::Open(std::shared_ptr<Buffer> data, std::string name,
                                                           const IpcReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  const std::string source = name;
  const int64_t trailer_at = data->size() - kFileTrailerSize;  // where the footer length is
  ASSIGN_OR_RETURN(auto file, FileReader::Open(std::move(data), std::move(name)));
  ASSIGN_OR_RETURN(DecodingSchema schema, DecodingSchema::Make(file->schema(), source, trailer_at));
  std::unique_ptr<IpcFileReader> reader(new IpcFileReader(std::move(file), std::move(schema), options));
  RETURN_NOT_OK(reader->ReadDictionaries());
  return reader;
}

Result<std::unique_ptr<IpcFileReader>> IpcFileReader::OpenFile(const std::string& path, const IpcReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  Result<std::shared_ptr<Buffer>> data = options.file_system->MapFile(path);
  if (!data.ok()) return data.status().WithFile(path);
  return Open(std::move(data).ValueUnsafe(), path, options);
}

Status IpcFileReader::ReadDictionaries() {
  std::set<int64_t> seen;
  for (int i = 0; i < file_->num_dictionaries(); ++i) {
    ASSIGN_OR_RETURN(BatchMessage message, file_->ReadDictionary(i));
    const DictionaryBatchDesc& desc = *message.dictionary;
    if (!desc.is_delta && !seen.insert(desc.id).second) {
      return message.message.Error("dictionary batch " + std::to_string(i) + " replaces dictionary " +
                                       std::to_string(desc.id) + ", which an IPC file may not do",
                                   message.message.offset);
    }
    RETURN_NOT_OK(ApplyDictionaryBatch(schema_, message, memo_, i, options_));
  }
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> IpcFileReader::ReadBatch(int i) const {
  if (i < 0 || i >= num_batches()) {
    return Status::InvalidArgument("arrow ipc file: record batch " + std::to_string(i) + " of " +
                                   std::to_string(num_batches()));
  }
  ASSIGN_OR_RETURN(BatchMessage message, file_->ReadRecordBatch(i));
  return DecodeRecordBatch(schema_, message, memo_, i, options_);
}

}  // namespace recflow::arrow_ipc
