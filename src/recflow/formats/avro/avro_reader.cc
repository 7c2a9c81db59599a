// AvroReader: container blocks decoded record by record into batches of batch_rows rows.
#include "recflow/formats/avro/avro_reader.h"

#include <optional>
#include <utility>

#include "recflow/formats/avro/input_internal.h"

namespace recflow::avro {

struct AvroReader::State {
  ReadOptions options;
  AvroInput input;
  ColumnBuilders builders;
  RawBlock block;                     // the block being read
  BlockData data;                     // its decompressed bytes
  std::optional<BinaryCursor> cursor;  // position in data
  int64_t block_records_left = 0;
};

AvroReader::AvroReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
AvroReader::~AvroReader() = default;

Result<std::unique_ptr<AvroReader>> AvroReader::Make(Result<AvroInput> input, const ReadOptions& options) {
  auto state = std::make_unique<State>();
  state->options = options;
  ASSIGN_OR_RETURN(state->input, std::move(input));
  ASSIGN_OR_RETURN(state->builders, state->input.decoder->MakeBuilders());
  return std::unique_ptr<AvroReader>(new AvroReader(std::move(state)));
}

Result<std::unique_ptr<AvroReader>> AvroReader::Open(const std::string& path, const ReadOptions& options) {
  return Make(OpenAvroFile(path, options), options);
}

Result<std::unique_ptr<AvroReader>> AvroReader::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                           const ReadOptions& options) {
  return Make(OpenAvroInput(std::make_unique<BufferInputStream>(std::move(data), std::move(name)), options), options);
}

const SchemaPtr& AvroReader::schema() const { return state_->input.decoder->schema(); }

Result<std::shared_ptr<RecordBatch>> AvroReader::Next() {
  if (!error_.ok()) return error_;
  if (done_) return std::shared_ptr<RecordBatch>();
  std::shared_ptr<RecordBatch> batch;
  Status st = FillBatch(&batch);
  if (!st.ok()) {
    error_ = st.WithFile(state_->input.container->name());
    return error_;
  }
  return batch;
}

void AvroReader::ReportSkipped(const Status& error) const {
  if (state_->options.on_skipped_block) state_->options.on_skipped_block(SkippedRecord{std::string(), error});
}

Result<bool> AvroReader::LoadBlock() {
  State& s = *state_;
  const bool skip = s.options.bad_blocks == BadBlocksMode::kSkip;
  for (;;) {
    auto block = s.input.container->Next();
    if (!block.ok()) {
      if (!skip || block.status().code() != StatusCode::kDataError) return block.status();
      ReportSkipped(block.status());
      int64_t resumed = 0;
      ASSIGN_OR_RETURN(const bool found, s.input.container->Resync(&resumed));
      if (!found) return false;
      continue;
    }
    if (!*block) return false;
    s.block = **std::move(block);
    const BlockCodec codec = s.input.container->header().codec;
    if (skip) {
      // Decode the block once on its own first: a bad block must not leave half a record in
      // the batch builders.
      auto check = DecodeBlock(*s.input.decoder, codec, s.block, s.options.max_block_bytes, next_record_);
      if (!check.ok()) {
        if (check.status().code() != StatusCode::kDataError) return check.status();
        ReportSkipped(check.status().WithFile(s.input.container->name()));
        continue;
      }
    }
    ASSIGN_OR_RETURN(s.data, OpenBlock(*s.input.decoder, codec, s.block, s.options.max_block_bytes));
    s.cursor.emplace(s.data.bytes->span(), s.data.base_offset);
    s.block_records_left = s.block.count;
    if (s.block_records_left > 0) return true;
    RETURN_NOT_OK(CheckBlockEnd(*s.cursor, s.block));
  }
}

Status AvroReader::FillBatch(std::shared_ptr<RecordBatch>* out) {
  State& s = *state_;
  int64_t rows = 0;
  while (rows < s.options.batch_rows) {
    if (s.block_records_left == 0) {
      ASSIGN_OR_RETURN(const bool more, LoadBlock());
      if (!more) {
        done_ = true;
        break;
      }
    }
    Status st = s.input.decoder->DecodeRecord(*s.cursor, s.builders);
    if (!st.ok()) return st.WithOffset(s.block.offset).WithRecord(next_record_);
    ++rows;
    ++next_record_;
    if (--s.block_records_left == 0) RETURN_NOT_OK(CheckBlockEnd(*s.cursor, s.block));
  }
  if (rows == 0) return Status::OK();
  ASSIGN_OR_RETURN(*out, s.input.decoder->Finish(s.builders, rows));
  return Status::OK();
}

}  // namespace recflow::avro
