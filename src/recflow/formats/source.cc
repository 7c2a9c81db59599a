// DecodeUnit and NextSourceUnit (a Source's calls with allocation failures as statuses), and units decoded already.
#include "recflow/formats/source.h"

#include <new>

namespace recflow {
namespace {

class DecodedSourceUnit final : public SourceUnit {
 public:
  DecodedSourceUnit(DecodedUnit decoded, int64_t bytes, std::optional<FlowToken> token)
      : decoded_(std::move(decoded)), bytes_(bytes), token_(token) {}
  Result<DecodedUnit> Decode() override { return std::move(decoded_); }
  int64_t input_bytes() const override { return bytes_; }
  std::optional<FlowToken> token() const override { return token_; }

 private:
  DecodedUnit decoded_;
  int64_t bytes_;
  std::optional<FlowToken> token_;
};

}  // namespace

std::unique_ptr<SourceUnit> MakeDecodedUnit(DecodedUnit decoded, int64_t input_bytes, std::optional<FlowToken> token) {
  return std::make_unique<DecodedSourceUnit>(std::move(decoded), input_bytes, token);
}

std::unique_ptr<SourceUnit> MakeBatchUnit(std::shared_ptr<RecordBatch> batch, int64_t input_bytes,
                                          std::optional<FlowToken> token) {
  const int64_t rows = batch->num_rows();
  return MakeDecodedUnit(DecodedUnit{std::move(batch), {}, rows}, input_bytes, token);
}

Result<DecodedUnit> DecodeUnit(SourceUnit& unit) {
  try {
    return unit.Decode();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory decoding " + std::to_string(unit.input_bytes()) +
                               " bytes of input (a record or batch too large for this machine)");
  }
}

Result<std::unique_ptr<SourceUnit>> NextSourceUnit(Source& source) {
  try {
    return source.NextUnit();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory reading the next part of the input").WithFile(source.current_file());
  }
}

}  // namespace recflow
