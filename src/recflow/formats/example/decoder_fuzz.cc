// Fuzz target: one serialized record through SchemaInferrer, Decoder and Encoder (round-trip equality), and variants of it after it (decoded as alone).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/example/schema_inference.h"

namespace recflow::example {
namespace {

void Check(bool ok, const char* what, const Status& st = Status::OK()) {
  if (ok) return;
  std::fprintf(stderr, "example_decoder_fuzz: %s %s\n", what, st.ToString().c_str());
  std::abort();
}

// One column of every type the format layer supports (feature lists only for SequenceExample).
SchemaPtr EveryType(RecordType type) {
  std::vector<FieldPtr> f = {
      Field::Make("b", boolean()),        Field::Make("i8", int8()),         Field::Make("i32", int32()),
      Field::Make("i64", int64()),        Field::Make("u64", uint64()),      Field::Make("f32", float32()),
      Field::Make("f64", float64()),      Field::Make("bin", binary()),      Field::Make("str", utf8()),
      Field::Make("li", list(int64())),   Field::Make("lf", list(float32())), Field::Make("ls", list(utf8())),
      Field::Make("lb", list(binary())),  Field::Make("n", null())};
  if (type == RecordType::kSequenceExample) {
    f.push_back(Field::Make("fl", list(list(int64()))));
    f.push_back(Field::Make("fls", list(list(utf8()))));
    f.push_back(Field::Make("lf", list(list(float32()))));  // same name as a context column
  }
  return Schema::Make(std::move(f));
}

// Decodes `record`; when it decodes, re-encodes the row, decodes that, and requires equality.
// Returns whether the record decoded.
bool RoundTrip(const SchemaPtr& schema, RecordType type, std::string_view record) {
  auto decoder = Decoder::Make(schema, type);
  Check(decoder.ok(), "Decoder::Make", decoder.status());
  Status first = (*decoder)->Append(record);
  Status second = (*decoder)->Append(record);
  Check(first.ok() == second.ok() && first.code() == second.code(), "Append is not deterministic");
  auto batch = (*decoder)->Finish();
  Check(batch.ok(), "Finish", batch.status());
  Check((*batch)->ValidateFull().ok(), "invalid batch", (*batch)->ValidateFull());
  Check((*batch)->num_rows() == (first.ok() ? 2 : 0), "a failed Append added a row");
  if (!first.ok()) return false;

  auto encoder = Encoder::Make(schema, type);
  Check(encoder.ok(), "Encoder::Make", encoder.status());
  std::string encoded;
  Status st = (*encoder)->Encode(**batch, 0, &encoded);
  Check(st.ok(), "Encode", st);
  auto again = Decoder::Make(schema, type);
  st = (*again)->Append(encoded);
  Check(st.ok(), "decoding the re-encoded record", st);
  auto batch2 = (*again)->Finish();
  Check(batch2.ok(), "Finish after re-encoding", batch2.status());
  // float64 values that do not fit a float32 are narrowed by design (and counted); otherwise
  // the row must come back unchanged. Either way the narrowed row is a fixed point below.
  const bool narrowed = (*encoder)->stats().narrowed_doubles > 0;
  Check(narrowed || (*batch2)->Equals(*(*batch)->Slice(0, 1)), "round trip changed the row");
  std::string encoded2;
  st = (*encoder)->Encode(**batch2, 0, &encoded2);
  Check(st.ok() && encoded2 == encoded, "re-encoding is not stable", st);
  return true;
}

// Decodes `second` with a decoder that decoded `first` twice (the second time through the layout
// or frame `first` taught) and with a fresh one: the same status and, when it decodes, the same row.
void CheckSameAfter(const SchemaPtr& schema, RecordType type, std::string_view first, std::string_view second) {
  auto shared = Decoder::Make(schema, type);
  auto alone = Decoder::Make(schema, type);
  Check(shared.ok() && alone.ok(), "Decoder::Make", shared.status());
  (void)(*shared)->Append(first);
  (void)(*shared)->Append(first);
  const int64_t rows = (*shared)->num_rows();
  const Status after = (*shared)->Append(second);
  const Status fresh = (*alone)->Append(second);
  Check(after.ToString() == fresh.ToString(), "a record decodes otherwise after another", after);
  auto have = (*shared)->Finish();
  auto want = (*alone)->Finish();
  Check(have.ok() && want.ok(), "Finish");
  Check((*have)->ValidateFull().ok(), "invalid batch after another record", (*have)->ValidateFull());
  Check(!after.ok() || (*have)->Slice(rows, 1)->Equals(**want), "a row decoded otherwise after another record");
}

// The record with one byte changed at three places in turn (a value, or the framing around it),
// each decoded after the record itself and alone.
void CheckVariants(const SchemaPtr& schema, RecordType type, std::string_view record) {
  if (record.empty()) return;
  const std::pair<size_t, int> flips[] = {{record.size() - 1, 0x01}, {record.size() / 2, 0x80}, {record.size() / 3, 0x01}};
  for (const auto& [at, flip] : flips) {
    std::string variant(record);
    variant[at] = static_cast<char>(variant[at] ^ flip);
    CheckSameAfter(schema, type, record, variant);
  }
}

}  // namespace
}  // namespace recflow::example

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace recflow::example;  // NOLINT(build/namespaces)
  const std::string_view record(reinterpret_cast<const char*>(data), size);
  for (RecordType type : {RecordType::kExample, RecordType::kSequenceExample}) {
    SchemaInferrer inferrer(type);
    const recflow::Status observed = inferrer.Observe(record);
    const bool decoded = RoundTrip(inferrer.Finish(), type, record);
    // The inferred schema fits by construction; a record the inferrer rejects is malformed.
    Check(decoded == observed.ok(), "inferrer and decoder disagree", observed);
    const bool fixed = RoundTrip(EveryType(type), type, record);
    Check(observed.ok() || !fixed, "decoder accepted a malformed record");
    if (type == RecordType::kExample) {  // layouts and frames are the Example decoder's
      CheckVariants(inferrer.Finish(), type, record);
      CheckVariants(EveryType(type), type, record);
    }
  }
  RoundTrip(ByteArraySchema(), RecordType::kByteArray, record);
  return 0;
}
