// Tests of batch decoding on hand-built streams: zero copies, realignment, compression limits, dictionaries, errors.
#include "recflow/formats/arrow_ipc/batch_decoder.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
#include <sys/resource.h>
#include <zstd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/body_compression_internal.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"
#include "recflow/testing/sample_arrays.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

using recflow::testing::BufferOf;
using recflow::testing::ValidityOf;
using testing::Frame;

using testing::BatchMessage;
using testing::Body;
using testing::Bytes;
using testing::DictionaryFile;
using testing::DictionaryMessage;
using testing::DictionarySchemaMessage;
using testing::IndicesMessage;

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadStream(const std::string& bytes,
                                                              const IpcReadOptions& options = IpcReadOptions::Defaults()) {
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(Buffer::FromString(bytes), "hand.arrows", options));
  std::vector<std::shared_ptr<RecordBatch>> out;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

/// The utf8 values a dictionary column decodes to (its dictionary looked up per index).
std::vector<std::string> Decoded(const ArrayData& column) {
  std::vector<std::string> out;
  const auto* indices = column.GetValues<int8_t>(1);
  const auto* offsets = column.dictionary->GetValues<int32_t>(1);
  const auto* data = reinterpret_cast<const char*>(column.dictionary->buffers[2]->data());
  for (int64_t i = 0; i < column.length; ++i) {
    const int8_t k = indices[i];
    out.emplace_back(data + offsets[k], static_cast<size_t>(offsets[k + 1] - offsets[k]));
  }
  return out;
}

TEST(BatchDecoder, DictionaryReplacementAndDeltaInStreamOrder) {
  const std::string stream = DictionarySchemaMessage() + DictionaryMessage({"a", "b"}, false) + IndicesMessage({1, 0}) +
                             DictionaryMessage({"c"}, true) + IndicesMessage({2, 0}) +
                             DictionaryMessage({"z"}, false) + IndicesMessage({0}) + testing::EndOfStream();
  auto batches = ReadStream(stream);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 3u);
  EXPECT_EQ(Decoded(*(*batches)[0]->column_data(0)), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(Decoded(*(*batches)[1]->column_data(0)), (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ(Decoded(*(*batches)[2]->column_data(0)), (std::vector<std::string>{"z"}));
  // Earlier batches keep the dictionary they were decoded with.
  EXPECT_EQ((*batches)[0]->column_data(0)->dictionary->length, 2);
  EXPECT_EQ((*batches)[1]->column_data(0)->dictionary->length, 3);
}

TEST(BatchDecoder, FileDictionariesAppendDeltasAndRefuseReplacement) {
  const std::string file = DictionaryFile({DictionaryMessage({"a", "b"}, false), DictionaryMessage({"c"}, true)},
                                          {IndicesMessage({2, 0}), IndicesMessage({1})});
  auto reader = IpcFileReader::Open(Buffer::FromString(file), "dict.arrow");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_batches(), 2);
  auto second = (*reader)->ReadBatch(1);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(Decoded(*(*second)->column_data(0)), (std::vector<std::string>{"b"}));
  auto first = (*reader)->ReadBatch(0);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(Decoded(*(*first)->column_data(0)), (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ((*reader)->ReadBatch(2).status().code(), StatusCode::kInvalidArgument);

  const std::string replaced = DictionaryFile({DictionaryMessage({"a"}, false), DictionaryMessage({"z"}, false)},
                                              {IndicesMessage({0})});
  auto refused = IpcFileReader::Open(Buffer::FromString(replaced), "dict.arrow");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kDataError);
  EXPECT_NE(refused.status().message().find("replaces dictionary 0"), std::string::npos) << refused.status().ToString();
  EXPECT_EQ(refused.status().context().file, "dict.arrow");
}

TEST(BatchDecoder, ErrorsNameTheFileOffsetAndBatch) {
  // Indices before any dictionary.
  const std::string schema = DictionarySchemaMessage();
  auto missing = ReadStream(schema + IndicesMessage({0}) + testing::EndOfStream());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kDataError);
  EXPECT_NE(missing.status().message().find("record batch 0"), std::string::npos) << missing.status().ToString();
  EXPECT_EQ(missing.status().context().file, "hand.arrows");
  EXPECT_EQ(missing.status().context().offset, static_cast<int64_t>(schema.size()));

  // An index outside the dictionary: caught by ValidateFull, in the second batch.
  const std::string ok = DictionaryMessage({"a"}, false) + IndicesMessage({0});
  auto outside = ReadStream(schema + ok + IndicesMessage({5}) + testing::EndOfStream());
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("record batch 1"), std::string::npos) << outside.status().ToString();
  EXPECT_EQ(outside.status().context().offset, static_cast<int64_t>(schema.size() + ok.size()));

  // Offsets of the dictionary values going backwards.
  Body body;
  body.Add("");
  body.Add(Bytes(std::vector<int32_t>{0, 3, 1}));
  body.Add("abc");
  auto bad_dict = ReadStream(schema + BatchMessage(2, {fb::FieldNode(2, 0)}, body, -1, 0) + testing::EndOfStream());
  ASSERT_FALSE(bad_dict.ok());
  EXPECT_NE(bad_dict.status().message().find("dictionary batch 0"), std::string::npos) << bad_dict.status().ToString();
}

TEST(BatchDecoder, ErrorsInABufferNameItsByteOffsetThroughBuffersAndStreams) {
  // Batch 1's values buffer (after a 24-byte validity buffer) is a bad Zstandard frame.
  const auto zstd = static_cast<int>(fb::CompressionType::ZSTD);
  const std::string values = Bytes(std::vector<int32_t>{1, 2, 3, 4});
  Body good;
  good.Add("");
  good.Add(Bytes(std::vector<int64_t>{-1}) + values);
  Body bad;
  bad.Add(Bytes(std::vector<int64_t>{-1}) + std::string(16, '\xFF'));
  bad.Add(Bytes(std::vector<int64_t>{16}) + "not a zstd frame");
  const std::string schema = testing::Int32SchemaMessage();
  const std::string first = BatchMessage(4, {fb::FieldNode(4, 0)}, good, zstd);
  const std::string second = BatchMessage(4, {fb::FieldNode(4, 0)}, bad, zstd);
  const std::string stream = schema + first + second + testing::EndOfStream();
  const auto second_at = static_cast<int64_t>(schema.size() + first.size());
  const int64_t body_at = second_at + static_cast<int64_t>(second.size() - bad.bytes.size());
  const int64_t buffer_at = body_at + bad.buffers[1].offset();

  auto from_buffer = ReadStream(stream);
  ASSERT_FALSE(from_buffer.ok());
  EXPECT_EQ(from_buffer.status().context().file, "hand.arrows");
  EXPECT_EQ(from_buffer.status().context().offset, buffer_at) << from_buffer.status().ToString();
  EXPECT_NE(from_buffer.status().message().find("record batch 1: buffer 1:"), std::string::npos)
      << from_buffer.status().ToString();

  // The same through an InputStream (a pipe or socket): the offset counts the bytes read.
  auto reader = IpcStreamReader::Open(std::make_unique<BufferInputStream>(Buffer::FromString(stream), "<stdin>"));
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->Next().ok());
  const Status st = (*reader)->Next().status();
  EXPECT_EQ(st.context().file, "<stdin>");
  EXPECT_EQ(st.context().offset, buffer_at) << st.ToString();

  // A problem of the decoded values names the message and the column.
  Body nulls;
  nulls.Add(std::string(1, '\x0F'));  // no nulls in the bitmap, the node says 2
  nulls.Add(values);
  const std::string lying = BatchMessage(4, {fb::FieldNode(4, 2)}, nulls);
  auto counted = ReadStream(schema + first + lying + testing::EndOfStream());
  ASSERT_FALSE(counted.ok());
  EXPECT_EQ(counted.status().context().offset, second_at);
  EXPECT_EQ(counted.status().context().field, "x") << counted.status().ToString();
}

TEST(BatchDecoder, LegacyFramedStreamsBuiltByHandDecodeLikeCurrentOnes) {
  // Before Arrow 0.15 a message starts with its int32 length, no continuation marker, and the
  // stream ends with a length of 0 (4 zero bytes).
  flatbuffers::FlatBufferBuilder schema_fbb;
  testing::FinishSchemaMessage(
      schema_fbb, {testing::MakeField(schema_fbb, "x", fb::Type::Int, fb::CreateInt(schema_fbb, 32, true).Union())},
      fb::MetadataVersion::V4);
  Body body;
  body.Add(std::string(1, '\x0B'));  // 1101: element 2 is null
  body.Add(Bytes(std::vector<int32_t>{7, -8, 0, 9}));
  const std::vector<fb::FieldNode> nodes = {fb::FieldNode(4, 1)};
  flatbuffers::FlatBufferBuilder batch_fbb;
  auto batch = fb::CreateRecordBatchDirect(batch_fbb, 4, &nodes, &body.buffers);
  batch_fbb.Finish(fb::CreateMessage(batch_fbb, fb::MetadataVersion::V4, fb::MessageHeader::RecordBatch, batch.Union(),
                                     static_cast<int64_t>(body.bytes.size())));
  const std::string legacy = Frame(schema_fbb, "", true) + Frame(batch_fbb, body.bytes, true) + std::string(4, '\0');
  const std::string current = Frame(schema_fbb) + Frame(batch_fbb, body.bytes) + testing::EndOfStream();
  auto from_legacy = ReadStream(legacy + "bytes after the end are not read");
  auto from_current = ReadStream(current);
  ASSERT_TRUE(from_legacy.ok()) << from_legacy.status().ToString();
  ASSERT_TRUE(from_current.ok()) << from_current.status().ToString();
  ASSERT_EQ(from_legacy->size(), 1u);
  EXPECT_EQ((*from_legacy)[0]->ToString(), "x: int32 = [7, -8, null, 9]\n");
  EXPECT_TRUE((*from_legacy)[0]->Equals(*(*from_current)[0]));
}

TEST(BatchDecoder, MisalignedBuffersAreCopiedAlignedOthersAreNot) {
  // int32 values at body offset 2 (misaligned) and at offset 0 (aligned).
  for (const int pad : {2, 0}) {
    Body body;
    body.Add(std::string(1, '\x05'));  // validity 1, 0, 1
    body.Add(Bytes(std::vector<int32_t>{7, 0, -9}), pad);
    const std::string stream = testing::Int32SchemaMessage() + BatchMessage(3, {fb::FieldNode(3, 1)}, body) +
                               testing::EndOfStream();
    auto data = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(stream.data()), stream.size()});
    ASSERT_TRUE(data.ok());
    auto reader = IpcStreamReader::Open(*data, "aligned");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    const ArrayData& column = *(*batch)->column_data(0);
    const auto expected = ArrayData::Make(int32(), 3, {ValidityOf("101"), BufferOf<int32_t>({7, 0, -9})}, 1);
    EXPECT_TRUE(ArrayEquals(column, *expected));
    const uint8_t* values = column.buffers[1]->data();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(values) % 4, 0u);
    const bool inside = values >= (*data)->data() && values < (*data)->data() + (*data)->size();
    EXPECT_EQ(inside, pad == 0) << "pad " << pad;  // zero-copy exactly when aligned
  }
}

TEST(BatchDecoder, FileBatchesAreSlicesOfTheFileBytes) {
  RECFLOW_REQUIRE_TESTDATA();
  const auto path = recflow::testing::TestdataDir() / "arrow-integration/1.0.0-littleendian/generated_primitive.arrow_file";
  auto bytes = ReadWholeFile(path.string());
  ASSERT_TRUE(bytes.ok());
  auto reader = IpcFileReader::Open(*bytes, path.string());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  int64_t checked = 0;
  for (int i = 0; i < (*reader)->num_batches(); ++i) {
    auto batch = (*reader)->ReadBatch(i);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    for (const auto& column : (*batch)->columns()) {
      for (const auto& buffer : column->buffers) {
        if (buffer == nullptr) continue;
        EXPECT_GE(buffer->data(), (*bytes)->data());
        EXPECT_LT(buffer->data(), (*bytes)->data() + (*bytes)->size());
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50);
}

std::string Lz4(const std::string& in) {
  std::string out(LZ4F_compressFrameBound(in.size(), nullptr), '\0');
  out.resize(LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr));
  return out;
}

std::string Zstd(const std::string& in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
  return out;
}

std::span<const uint8_t> Span(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(BodyCompression, RoundTripsAndRefusesWrongSizes) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += static_cast<char>('a' + i % 7);
  for (const auto codec : {CompressionCodec::kLz4Frame, CompressionCodec::kZstd}) {
    SCOPED_TRACE(CompressionCodecName(codec));
    const std::string packed = codec == CompressionCodec::kZstd ? Zstd(text) : Lz4(text);
    const auto size = static_cast<int64_t>(text.size());
    auto out = DecompressBodyBuffer(codec, Span(packed), size);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)->view(), text);
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(packed), size - 1).status().code(), StatusCode::kDataError);
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(packed), size + 1).status().code(), StatusCode::kDataError);
    // A lie of a terabyte costs only the real expansion (the output grows as bytes arrive).
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(packed), int64_t{1} << 40).status().code(), StatusCode::kDataError);
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(packed.substr(0, packed.size() / 2)), size).status().code(),
              StatusCode::kDataError);
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(std::string(64, 'x')), size).status().code(), StatusCode::kDataError);
    EXPECT_EQ(DecompressBodyBuffer(codec, Span(packed), -5).status().code(), StatusCode::kDataError);
  }
}

TEST(BodyCompression, CompressedBatchesAndTheirLimits) {
  const std::string values = Bytes(std::vector<int32_t>{1, 2, 3, 4});
  auto prefixed = [](int64_t length, const std::string& payload) { return Bytes(std::vector<int64_t>{length}) + payload; };
  struct Case {
    std::string values_buffer;
    bool ok;
  };
  const std::vector<Case> cases = {
      {prefixed(16, Zstd(values)), true},
      {prefixed(-1, values), true},                     // stored uncompressed
      {prefixed(16 + 65, Zstd(values + std::string(65, '\0'))), false},  // more than 4 int32 (+ 64 slack) can use
      {prefixed(1 << 30, Zstd(std::string(1 << 20, '\0'))), false},     // refused before decompressing
      {std::string("abc"), false},                       // shorter than the length prefix
  };
  for (const Case& c : cases) {
    Body body;
    body.Add("");
    body.Add(c.values_buffer);
    const std::string stream = testing::Int32SchemaMessage() +
                               BatchMessage(4, {fb::FieldNode(4, 0)}, body, static_cast<int>(fb::CompressionType::ZSTD)) +
                               testing::EndOfStream();
    auto batches = ReadStream(stream);
    ASSERT_EQ(batches.ok(), c.ok) << batches.status().ToString();
    if (c.ok) {
      EXPECT_TRUE(ArrayEquals(*(*batches)[0]->column_data(0), *ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0)));
    } else {
      EXPECT_EQ(batches.status().code(), StatusCode::kDataError);
      EXPECT_NE(batches.status().message().find("record batch 0"), std::string::npos);
    }
  }
}

TEST(BatchDecoder, UnionsBeforeV5CarryAValidityBuffer) {
  // A sparse union<int32> "u" in metadata V4: validity, type ids, then the child's buffers.
  flatbuffers::FlatBufferBuilder fbb;
  auto child = testing::MakeField(fbb, "i", fb::Type::Int, fb::CreateInt(fbb, 32, true).Union());
  std::vector<int32_t> ids = {0};
  auto u = testing::MakeField(fbb, "u", fb::Type::Union, fb::CreateUnionDirect(fbb, fb::UnionMode::Sparse, &ids).Union(),
                              {child});
  testing::FinishSchemaMessage(fbb, {u}, fb::MetadataVersion::V4);
  const std::string schema = Frame(fbb);
  for (const int64_t union_nulls : {0, 1}) {
    Body body;
    body.Add(union_nulls ? std::string(1, '\x01') : "");
    body.Add(Bytes(std::vector<int8_t>{0, 0}));
    body.Add("");
    body.Add(Bytes(std::vector<int32_t>{4, 5}));
    const std::string stream = schema +
                               BatchMessage(2, {fb::FieldNode(2, union_nulls), fb::FieldNode(2, 0)}, body, -1, -1,
                                            false, fb::MetadataVersion::V4) +
                               testing::EndOfStream();
    auto batches = ReadStream(stream);
    ASSERT_EQ(batches.ok(), union_nulls == 0) << batches.status().ToString();
    if (union_nulls == 0) {
      const ArrayData& column = *(*batches)[0]->column_data(0);
      EXPECT_EQ(column.buffers.size(), 2u);
      EXPECT_EQ(column.buffers[0], nullptr);
      EXPECT_EQ(column.children[0]->GetValues<int32_t>(1)[1], 5);
    }
  }
}

/// A Zstandard frame of `size` zero bytes, compressed 1 MiB at a time; its header states the
/// size only when `state_size`.
std::string ZstdZeros(int64_t size, bool state_size) {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> ctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (state_size) ZSTD_CCtx_setPledgedSrcSize(ctx.get(), static_cast<unsigned long long>(size));
  const std::string chunk(size_t{1} << 20, '\0');
  std::string out;
  std::string room(ZSTD_CStreamOutSize(), '\0');
  for (int64_t done = 0; done < size;) {
    const auto n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(chunk.size()), size - done));
    done += static_cast<int64_t>(n);
    const ZSTD_EndDirective mode = done == size ? ZSTD_e_end : ZSTD_e_continue;
    ZSTD_inBuffer in{chunk.data(), n, 0};
    size_t left = 0;
    do {
      ZSTD_outBuffer o{room.data(), room.size(), 0};
      left = ZSTD_compressStream2(ctx.get(), &o, &in, mode);
      EXPECT_FALSE(ZSTD_isError(left));
      out.append(room.data(), o.pos);
    } while (mode == ZSTD_e_end ? left != 0 : in.pos < in.size);
  }
  return out;
}

/// An LZ4 frame of `size` zero bytes whose header states its size.
std::string Lz4Zeros(int64_t size) {
  LZ4F_preferences_t prefs{};
  prefs.frameInfo.contentSize = static_cast<unsigned long long>(size);
  const std::string in(static_cast<size_t>(size), '\0');
  std::string out(LZ4F_compressFrameBound(in.size(), &prefs), '\0');
  out.resize(LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &prefs));
  return out;
}

/// A buffer of a compressed body: the uncompressed-length prefix, then `frame`.
std::string Prefixed(int64_t length, const std::string& frame) { return Bytes(std::vector<int64_t>{length}) + frame; }

/// A stream of one record batch of the int32 schema whose `length` values are `values` (a
/// compressed buffer) and whose validity buffer is `validity`, compressed with `codec`.
std::string CompressedInt32Stream(int64_t length, const std::string& validity, const std::string& values,
                                  fb::CompressionType codec = fb::CompressionType::ZSTD) {
  Body body;
  body.Add(validity);
  body.Add(values);
  return testing::Int32SchemaMessage() + BatchMessage(length, {fb::FieldNode(length, 0)}, body, static_cast<int>(codec)) +
         testing::EndOfStream();
}

/// Decompression limits that a test can afford to hit.
IpcReadOptions SmallCap() {
  IpcReadOptions options = IpcReadOptions::Defaults();
  options.max_decompressed_batch_bytes = int64_t{4} << 20;
  return options;
}

/// The process's peak resident set so far, in bytes.
int64_t PeakRss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

constexpr int64_t kBombSize = int64_t{256} << 20;
constexpr int64_t kBombValues = kBombSize / 4;  // int32 values: the layout allows the whole bomb

/// ZstdZeros(kBombSize, state_size), made once.
const std::string& Bomb(bool state_size) {
  static const std::string stated = ZstdZeros(kBombSize, true);
  static const std::string unstated = ZstdZeros(kBombSize, false);
  return state_size ? stated : unstated;
}

/// Expects the DataError of a batch over the cap, naming `what` (the batch), `file` and `offset`.
void ExpectCapError(const Status& status, const std::string& what, const std::string& file, int64_t offset) {
  EXPECT_EQ(status.code(), StatusCode::kDataError) << status.ToString();
  EXPECT_NE(status.message().find(what), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("max_decompressed_batch_bytes"), std::string::npos) << status.ToString();
  EXPECT_EQ(status.context().file, file);
  EXPECT_EQ(status.context().offset, offset);
}

TEST(DecompressionCap, OptionsValidate) {
  EXPECT_TRUE(IpcReadOptions::Defaults().Validate().ok());
  EXPECT_EQ(IpcReadOptions::Defaults().max_decompressed_batch_bytes, int64_t{2} << 30);
  IpcReadOptions zero = IpcReadOptions::Defaults();
  zero.max_decompressed_batch_bytes = 0;
  EXPECT_EQ(zero.Validate().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadStream(testing::Int32SchemaMessage(), zero).status().code(), StatusCode::kInvalidArgument);
}

TEST(DecompressionCap, ZstdBombIsRefusedBeforeAnythingIsAllocated) {
  const std::string& bomb = Bomb(true);
  ASSERT_LT(bomb.size(), 64u << 10);  // a few KB that expand to 256 MiB
  const std::string stream = CompressedInt32Stream(kBombValues, "", Prefixed(kBombSize, bomb));
  const int64_t peak_before = PeakRss();
  auto batches = ReadStream(stream, SmallCap());
  ASSERT_FALSE(batches.ok());
  ExpectCapError(batches.status(), "record batch 0", "hand.arrows",
                 static_cast<int64_t>(testing::Int32SchemaMessage().size()));
  EXPECT_LT(PeakRss() - peak_before, int64_t{64} << 20);  // far from the bomb's 256 MiB
}

TEST(DecompressionCap, PrefixesAreSummedOverTheBatch) {
  // 128 KiB of validity and 4 MiB of values: each within the 4 MiB cap, together over it.
  const int64_t length = int64_t{1} << 20;
  const int64_t validity = length / 8;
  const std::string stream = CompressedInt32Stream(length, Prefixed(validity, ZstdZeros(validity, true)),
                                                   Prefixed(4 * length, ZstdZeros(4 * length, true)));
  auto batches = ReadStream(stream, SmallCap());
  ASSERT_FALSE(batches.ok());
  ExpectCapError(batches.status(), "record batch 0", "hand.arrows",
                 static_cast<int64_t>(testing::Int32SchemaMessage().size()));
  EXPECT_TRUE(ReadStream(stream).ok());  // within the default cap
}

TEST(DecompressionCap, LyingLengthPrefixes) {
  const int64_t peak_before = PeakRss();
  // The frame header states 256 MiB, the prefix 1 MiB: refused before decompressing.
  auto stated = ReadStream(CompressedInt32Stream(kBombValues, "", Prefixed(1 << 20, Bomb(true))));
  ASSERT_FALSE(stated.ok());
  EXPECT_EQ(stated.status().code(), StatusCode::kDataError);
  EXPECT_NE(stated.status().message().find("frame header says it expands to 268435456 bytes, the length prefix 1048576"),
            std::string::npos)
      << stated.status().ToString();
  // The same lie about an LZ4 frame.
  auto lz4 = ReadStream(CompressedInt32Stream(1 << 20, "", Prefixed(1 << 20, Lz4Zeros(4 << 20)),
                                              fb::CompressionType::LZ4_FRAME));
  ASSERT_FALSE(lz4.ok());
  EXPECT_NE(lz4.status().message().find("frame header says"), std::string::npos) << lz4.status().ToString();
  // No size in the header: decompression stops at the 2 MiB the prefix allows.
  auto unstated =
      ReadStream(CompressedInt32Stream(kBombValues, "", Prefixed(2 << 20, Bomb(false))), SmallCap());
  ASSERT_FALSE(unstated.ok());
  EXPECT_NE(unstated.status().message().find("expands to more than the 2097152 bytes announced"), std::string::npos)
      << unstated.status().ToString();
  // A prefix beyond the cap, with or without a stated size.
  for (const bool state_size : {true, false}) {
    auto big = ReadStream(CompressedInt32Stream(kBombValues, "", Prefixed(kBombSize, Bomb(state_size))),
                          SmallCap());
    ASSERT_FALSE(big.ok());
    ExpectCapError(big.status(), "record batch 0", "hand.arrows",
                   static_cast<int64_t>(testing::Int32SchemaMessage().size()));
  }
  EXPECT_LT(PeakRss() - peak_before, int64_t{64} << 20);
}

TEST(DecompressionCap, DictionaryBatchesAndFilesAreCappedToo) {
  // A dictionary of one utf8 value whose compressed data buffer says 16 MiB.
  const int64_t size = int64_t{16} << 20;
  Body dictionary;
  dictionary.Add("");
  dictionary.Add(Prefixed(-1, Bytes(std::vector<int32_t>{0, static_cast<int32_t>(size)})));
  dictionary.Add(Prefixed(size, ZstdZeros(size, true)));
  const std::string dictionary_message =
      BatchMessage(1, {fb::FieldNode(1, 0)}, dictionary, static_cast<int>(fb::CompressionType::ZSTD), 0);
  const std::string schema = DictionarySchemaMessage();
  auto stream = ReadStream(schema + dictionary_message + IndicesMessage({0}) + testing::EndOfStream(), SmallCap());
  ASSERT_FALSE(stream.ok());
  ExpectCapError(stream.status(), "dictionary batch 0", "hand.arrows", static_cast<int64_t>(schema.size()));
  auto file = IpcFileReader::Open(Buffer::FromString(DictionaryFile({dictionary_message}, {IndicesMessage({0})})),
                                  "dict.arrow", SmallCap());
  ASSERT_FALSE(file.ok());
  ExpectCapError(file.status(), "dictionary batch 0", "dict.arrow", static_cast<int64_t>(8 + schema.size()));

  // A record batch of a file, read on demand.
  Body body;
  body.Add("");
  body.Add(Prefixed(kBombSize, Bomb(true)));
  const std::string bomb = BatchMessage(kBombValues, {fb::FieldNode(kBombValues, 0)}, body,
                                        static_cast<int>(fb::CompressionType::ZSTD));
  int32_t metadata = 0;
  std::memcpy(&metadata, bomb.data() + 4, 4);
  auto reader = IpcFileReader::Open(Buffer::FromString(testing::MakeFile(testing::Int32SchemaMessage(), bomb, 8 + metadata)),
                                    "bomb.arrow", SmallCap());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batch = (*reader)->ReadBatch(0);
  ASSERT_FALSE(batch.ok());
  ExpectCapError(batch.status(), "record batch 0", "bomb.arrow",
                 static_cast<int64_t>(8 + testing::Int32SchemaMessage().size()));
}

}  // namespace
}  // namespace recflow::arrow_ipc
