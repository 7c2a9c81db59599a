// IpcWriter: message framing, dictionary batches, record batches and the file footer.
#include "recflow/formats/arrow_ipc/ipc_writer.h"

#include <zstd.h>

#include <cstring>

#include "recflow/columnar/equals.h"
#include "recflow/formats/arrow_ipc/body_writer_internal.h"
#include "recflow/formats/arrow_ipc/framing.h"
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
  int64_t start = 0;  // out->position() at the start of the file
  std::vector<DictionaryField> dictionaries;
  std::vector<std::shared_ptr<ArrayData>> written_dictionaries;  // by id; null until written
  std::vector<fb::Block> dictionary_blocks;
  std::vector<fb::Block> batch_blocks;
  Status error;  // a failed write leaves the output unusable

  int64_t position() const { return out->position() - start; }

  /// Frames a finished Message flatbuffer and writes it with `body`; returns its file Block.
  Result<fb::Block> WriteMessage(const flatbuffers::FlatBufferBuilder& fbb, const std::string& body) {
    const int64_t offset = position();
    const auto size = static_cast<int64_t>(fbb.GetSize());
    const int64_t padded = (8 + size + kMessageAlignment - 1) / kMessageAlignment * kMessageAlignment - 8;
    std::string prefix(8, '\0');
    const uint32_t marker = kContinuationMarker;
    const auto length = static_cast<int32_t>(padded);
    std::memcpy(prefix.data(), &marker, 4);
    std::memcpy(prefix.data() + 4, &length, 4);
    RETURN_NOT_OK(out->Write(prefix.data(), 8));
    RETURN_NOT_OK(out->Write(fbb.GetBufferPointer(), size));
    static constexpr char kZeros[8] = {};
    RETURN_NOT_OK(out->Write(kZeros, padded - size));
    RETURN_NOT_OK(out->Write(body.data(), static_cast<int64_t>(body.size())));
    return fb::Block(offset, static_cast<int32_t>(8 + padded), static_cast<int64_t>(body.size()));
  }

  BodyCodec codec() const {
    switch (options.compression) {
      case IpcWriteOptions::Compression::kLz4Frame: return BodyCodec::kLz4Frame;
      case IpcWriteOptions::Compression::kZstd: return BodyCodec::kZstd;
      case IpcWriteOptions::Compression::kNone: break;
    }
    return BodyCodec::kNone;
  }

  /// The RecordBatch table of `columns` (`length` rows) and its body.
  Result<flatbuffers::Offset<fb::RecordBatch>> BuildBatch(flatbuffers::FlatBufferBuilder& fbb,
                                                          const std::vector<const ArrayData*>& columns,
                                                          int64_t length, std::string* body) {
    BodyWriter writer(codec(), options.level);
    for (const ArrayData* column : columns) RETURN_NOT_OK(writer.AppendArray(*column));
    flatbuffers::Offset<fb::BodyCompression> compression = 0;
    if (writer.codec() != BodyCodec::kNone) {
      compression = fb::CreateBodyCompression(
          fbb, writer.codec() == BodyCodec::kLz4Frame ? fb::CompressionType::LZ4_FRAME : fb::CompressionType::ZSTD);
    }
    const auto nodes = fbb.CreateVectorOfStructs(writer.nodes());
    const auto buffers = fbb.CreateVectorOfStructs(writer.buffers());
    *body = writer.body();
    return fb::CreateRecordBatch(fbb, length, nodes, buffers, compression);
  }
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
  flatbuffers::FlatBufferBuilder fbb;
  const auto schema_table = BuildSchema(fbb, *state->schema, &state->dictionaries);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, schema_table.Union(), 0));
  state->written_dictionaries.resize(state->dictionaries.size());
  std::unique_ptr<IpcWriter> writer(new IpcWriter(std::move(state)));
  RETURN_NOT_OK(writer->state_->WriteMessage(fbb, std::string()).status());
  return writer;
}

Result<std::unique_ptr<IpcWriter>> IpcWriter::OpenFile(OutputStream* out, SchemaPtr schema,
                                                       const IpcWriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (out == nullptr) return Status::InvalidArgument("IpcWriter needs an output");
  const int64_t start = out->position();
  RETURN_NOT_OK(out->Write("ARROW1\0\0", kFileHeaderSize));
  ASSIGN_OR_RETURN(auto writer, OpenStream(out, std::move(schema), options));
  writer->state_->file = true;
  writer->state_->start = start;
  return writer;
}

Status IpcWriter::WriteDictionaries(const RecordBatch& batch) {
  State& s = *state_;
  for (const DictionaryField& field : s.dictionaries) {
    const std::shared_ptr<ArrayData>& values = ArrayAtPath(batch, field.path).dictionary;
    std::shared_ptr<ArrayData>& written = s.written_dictionaries[static_cast<size_t>(field.id)];
    if (written != nullptr && (written == values || ArrayEquals(*written, *values))) continue;
    if (written != nullptr && s.file) {
      return Status::InvalidArgument("the Arrow file format cannot change dictionary " + std::to_string(field.id) +
                                     " between batches; write a stream instead");
    }
    flatbuffers::FlatBufferBuilder fbb;
    std::string body;
    ASSIGN_OR_RETURN(auto data, s.BuildBatch(fbb, {values.get()}, values->length, &body));
    const auto dictionary = fb::CreateDictionaryBatch(fbb, field.id, data, false);
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::DictionaryBatch, dictionary.Union(),
                                 static_cast<int64_t>(body.size())));
    ASSIGN_OR_RETURN(fb::Block block, s.WriteMessage(fbb, body));
    s.dictionary_blocks.push_back(block);
    written = values;
  }
  return Status::OK();
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
    RETURN_NOT_OK(WriteDictionaries(batch));
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<const ArrayData*> columns;
    for (int c = 0; c < batch.num_columns(); ++c) columns.push_back(batch.column_data(c).get());
    std::string body;
    ASSIGN_OR_RETURN(auto data, s.BuildBatch(fbb, columns, batch.num_rows(), &body));
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, data.Union(),
                                 static_cast<int64_t>(body.size())));
    ASSIGN_OR_RETURN(fb::Block block, s.WriteMessage(fbb, body));
    s.batch_blocks.push_back(block);
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
  const uint32_t eos[2] = {kContinuationMarker, 0};
  RETURN_NOT_OK(s.out->Write(eos, sizeof(eos)));
  if (s.file) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<DictionaryField> unused;
    const auto schema = BuildSchema(fbb, *s.schema, &unused);
    const auto dictionaries = fbb.CreateVectorOfStructs(s.dictionary_blocks);
    const auto batches = fbb.CreateVectorOfStructs(s.batch_blocks);
    fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, schema, dictionaries, batches));
    const auto length = static_cast<int32_t>(fbb.GetSize());
    RETURN_NOT_OK(s.out->Write(fbb.GetBufferPointer(), length));
    RETURN_NOT_OK(s.out->Write(&length, sizeof(length)));
    RETURN_NOT_OK(s.out->Write(kFileMagic.data(), static_cast<int64_t>(kFileMagic.size())));
  }
  return s.out->Flush();
}

int64_t IpcWriter::bytes_written() const { return state_->position(); }

}  // namespace recflow::arrow_ipc
