// AvroSource: serial block framing (with sync-marker resync under kSkip), parallel block decoding.
#include "recflow/formats/avro/avro_source.h"

#include <algorithm>
#include <utility>

#include "recflow/formats/avro/input_internal.h"

namespace recflow::avro {
namespace {

// What every unit of one source shares (immutable).
struct UnitContext {
  std::string name;
  std::shared_ptr<const RecordDecoder> decoder;
  BlockCodec codec = BlockCodec::kNull;
  int64_t max_block_bytes = 0;
  bool skip_bad_blocks = false;
};

// A unit that decodes one block, or that only reports input skipped for broken framing.
class BlockUnit final : public SourceUnit {
 public:
  BlockUnit(std::shared_ptr<const UnitContext> context, RawBlock block)
      : context_(std::move(context)), block_(std::move(block)) {}
  BlockUnit(std::shared_ptr<const UnitContext> context, Status framing_error, int64_t input_bytes)
      : context_(std::move(context)), framing_error_(std::move(framing_error)) {
    block_.input_bytes = input_bytes;
  }

  Result<DecodedUnit> Decode() override {
    if (!framing_error_.ok()) return Skipped(framing_error_, 0);
    auto batch = DecodeBlock(*context_->decoder, context_->codec, block_, context_->max_block_bytes, 0);
    if (!batch.ok()) {
      const Status error = batch.status().WithFile(context_->name);
      if (!context_->skip_bad_blocks || error.code() != StatusCode::kDataError) return error;
      return Skipped(error, block_.count);
    }
    DecodedUnit unit;
    unit.batch = *std::move(batch);
    unit.input_records = block_.count;
    return unit;
  }
  int64_t input_bytes() const override { return block_.input_bytes; }

 private:
  Result<DecodedUnit> Skipped(const Status& error, int64_t records) const {
    ASSIGN_OR_RETURN(auto builders, context_->decoder->MakeBuilders());
    DecodedUnit unit;
    ASSIGN_OR_RETURN(unit.batch, context_->decoder->Finish(builders, 0));
    unit.skipped.push_back(SkippedRecord{std::string(), error});
    unit.input_records = records;
    return unit;
  }

  std::shared_ptr<const UnitContext> context_;
  RawBlock block_;
  Status framing_error_;
};

class AvroSource final : public Source {
 public:
  AvroSource(AvroInput input, const ReadOptions& options) : container_(std::move(input.container)) {
    auto context = std::make_shared<UnitContext>();
    context->name = container_->name();
    context->decoder = std::move(input.decoder);
    context->codec = container_->header().codec;
    context->max_block_bytes = options.max_block_bytes;
    context->skip_bad_blocks = options.bad_blocks == BadBlocksMode::kSkip;
    context_ = std::move(context);
  }

  const SchemaPtr& schema() const override { return context_->decoder->schema(); }
  const std::string& name() const override { return context_->name; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (!error_.ok()) return error_;
    auto block = container_->Next();
    if (block.ok()) {
      if (!*block) return std::unique_ptr<SourceUnit>();
      return std::unique_ptr<SourceUnit>(new BlockUnit(context_, **std::move(block)));
    }
    if (!context_->skip_bad_blocks || block.status().code() != StatusCode::kDataError) {
      error_ = block.status();
      return error_;
    }
    const int64_t from = block.status().context().offset;
    int64_t resumed = 0;
    auto found = container_->Resync(&resumed);
    if (!found.ok()) {
      error_ = found.status();
      return error_;
    }
    return std::unique_ptr<SourceUnit>(new BlockUnit(context_, block.status(), std::max<int64_t>(0, resumed - from)));
  }

 private:
  std::unique_ptr<ContainerReader> container_;
  std::shared_ptr<const UnitContext> context_;
  Status error_;
};

}  // namespace

Result<std::unique_ptr<Source>> OpenAvroSource(const std::string& path, const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto input, OpenAvroFile(path, options));
  return std::unique_ptr<Source>(new AvroSource(std::move(input), options));
}

Result<std::unique_ptr<Source>> OpenAvroSource(std::shared_ptr<Buffer> data, std::string name,
                                               const ReadOptions& options) {
  return OpenAvroSource(std::make_unique<BufferInputStream>(std::move(data), std::move(name)), options);
}

Result<std::unique_ptr<Source>> OpenAvroSource(std::unique_ptr<InputStream> in, const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto input, OpenAvroInput(std::move(in), options));
  return std::unique_ptr<Source>(new AvroSource(std::move(input), options));
}

}  // namespace recflow::avro
