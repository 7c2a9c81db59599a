// IpcWriter: message framing, dictionary batches, record batches and the file footer.
#include "recflow/formats/arrow_ipc/ipc_writer.h"

#include <zstd.h>

#include <optional>

#include "recflow/formats/arrow_ipc/dictionary_plan_internal.h"
#include "recflow/formats/arrow_ipc/message_writer.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

namespace recflow::arrow_ipc {

Status IpcWriteOptions::Validate() const {
  if (compression == Compression::kZstd && (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())) {
    return Status::InvalidArgument("zstd level " + std::to_string(level) + " outside [" +
                                   std::to_string(ZSTD_minCLevel()) + ", " + std::to_string(ZSTD_maxCLevel()) + "]");
  }
  if (compression == Compression::kLz4Frame && (level < 0 || level > 12)) {
    return Status::InvalidArgument("lz4 level " + std::to_string(level) + " outside [0, 12]");
  }
  if (compression == Compression::kNone && level != 0) return Status::InvalidArgument("a level needs a compression");
  return Status::OK();
}

Result<IpcWriteOptions::Compression> ParseIpcCompression(std::string_view name) {
  if (name == "none") return IpcWriteOptions::Compression::kNone;
  if (name == "lz4" || name == "lz4_frame") return IpcWriteOptions::Compression::kLz4Frame;
  if (name == "zstd") return IpcWriteOptions::Compression::kZstd;
  return Status::InvalidArgument("unknown Arrow body compression '" + std::string(name) + "' (none, lz4, zstd)");
}

struct IpcWriter::State {
  OutputStream* out = nullptr;
  SchemaPtr schema;
  IpcWriteOptions options;
  bool file = false;
  bool finished = false;
  int64_t start = 0;  // out->position() at the start of the file or stream
  std::optional<DictionaryTracker> dictionaries;
  std::vector<MessageBlock> dictionary_blocks;
  std::vector<MessageBlock> batch_blocks;
  Status error;  // a failed write leaves the output unusable

  int64_t position() const { return out->position() - start; }
};

IpcWriter::IpcWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
IpcWriter::~IpcWriter() = default;

Result<std::unique_ptr<IpcWriter>> IpcWriter::OpenStream(OutputStream* out, SchemaPtr schema,
                                                         const IpcWriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (out == nullptr || schema == nullptr) return Status::InvalidArgument("IpcWriter needs an output and a schema");
  auto state = std::make_unique<State>();
  state->out = out;
  state->schema = std::move(schema);
  state->options = options;
  state->start = out->position();
  state->dictionaries.emplace(*state->schema, ListDictionaries(*state->schema), DictionaryChange::kReplace);
  const std::string schema_message = EncodeSchemaMessage(*state->schema);
  RETURN_NOT_OK(out->Write(schema_message.data(), static_cast<int64_t>(schema_message.size())));
  return std::unique_ptr<IpcWriter>(new IpcWriter(std::move(state)));
}

Result<std::unique_ptr<IpcWriter>> IpcWriter::OpenFile(OutputStream* out, SchemaPtr schema,
                                                       const IpcWriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (out == nullptr) return Status::InvalidArgument("IpcWriter needs an output");
  const int64_t start = out->position();
  const std::string magic = EncodeFileMagic();
  RETURN_NOT_OK(out->Write(magic.data(), static_cast<int64_t>(magic.size())));
  ASSIGN_OR_RETURN(auto writer, OpenStream(out, std::move(schema), options));
  State& s = *writer->state_;
  s.file = true;
  std::vector<DictionaryField> fields = s.dictionaries->fields();  // emplace destroys the old tracker first
  s.dictionaries.emplace(*s.schema, std::move(fields), DictionaryChange::kRefuse);
  s.start = start;
  return writer;
}

Status IpcWriter::Write(const RecordBatch& batch) {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.finished) return Status::InvalidArgument("IpcWriter already finished");
  if (!batch.schema()->Equals(*s.schema)) {
    return Status::InvalidArgument("batch schema " + batch.schema()->ToString() + " differs from the writer's " +
                                   s.schema->ToString());
  }
  Status st = [&]() -> Status {
    ASSIGN_OR_RETURN(DictionaryPlan plan, s.dictionaries->Plan(batch));
    ASSIGN_OR_RETURN(EncodedBatchMessages messages, EncodeBatch(plan.updates, batch, s.options));
    const int64_t at = s.position();
    RETURN_NOT_OK(WriteBatches({&messages, 1}, s.out));
    for (MessageBlock block : messages.dictionary_blocks) {
      block.offset += at;
      s.dictionary_blocks.push_back(block);
    }
    messages.batch_block.offset += at;
    s.batch_blocks.push_back(messages.batch_block);
    return Status::OK();
  }();
  if (!st.ok() && st.code() != StatusCode::kInvalidArgument) s.error = st;
  return st;
}

Status IpcWriter::Finish() {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.finished) return Status::OK();
  s.finished = true;
  std::string tail = EncodeEndOfStream();
  if (s.file) tail += EncodeFileFooter(*s.schema, s.dictionary_blocks, s.batch_blocks);
  RETURN_NOT_OK(s.out->Write(tail.data(), static_cast<int64_t>(tail.size())));
  return s.out->Flush();
}

int64_t IpcWriter::bytes_written() const { return state_->position(); }

}  // namespace recflow::arrow_ipc
