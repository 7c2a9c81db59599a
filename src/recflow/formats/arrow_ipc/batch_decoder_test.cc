// Tests of batch decoding on hand-built streams: zero copies, realignment, compression limits, dictionaries, errors.
#include "recflow/formats/arrow_ipc/batch_decoder.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
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

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

/// A batch body: buffers appended at chosen offsets.
struct Body {
  std::string bytes;
  std::vector<fb::Buffer> buffers;
  /// Appends `data` after `pad` zero bytes (a misaligned buffer when pad is not a multiple of 8).
  void Add(const std::string& data, int pad = 0) {
    bytes.append(static_cast<size_t>(pad), '\0');
    buffers.emplace_back(static_cast<int64_t>(bytes.size()), static_cast<int64_t>(data.size()));
    bytes += data;
    while (bytes.size() % 8 != 0) bytes.push_back('\0');
  }
};

/// A framed RecordBatch message (or DictionaryBatch when `dictionary_id` >= 0).
std::string BatchMessage(int64_t length, const std::vector<fb::FieldNode>& nodes, const Body& body, int codec = -1,
                         int64_t dictionary_id = -1, bool is_delta = false,
                         fb::MetadataVersion version = fb::MetadataVersion::V5) {
  flatbuffers::FlatBufferBuilder fbb;
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (codec >= 0) compression = fb::CreateBodyCompression(fbb, static_cast<fb::CompressionType>(codec));
  auto batch = fb::CreateRecordBatchDirect(fbb, length, &nodes, &body.buffers, compression);
  const auto size = static_cast<int64_t>(body.bytes.size());
  if (dictionary_id >= 0) {
    auto dict = fb::CreateDictionaryBatch(fbb, dictionary_id, batch, is_delta);
    fbb.Finish(fb::CreateMessage(fbb, version, fb::MessageHeader::DictionaryBatch, dict.Union(), size));
  } else {
    fbb.Finish(fb::CreateMessage(fbb, version, fb::MessageHeader::RecordBatch, batch.Union(), size));
  }
  return Frame(fbb, body.bytes);
}

/// A nullable utf8 field "s" encoded as dictionary 0 with int8 indices.
flatbuffers::Offset<fb::Field> DictionaryField(flatbuffers::FlatBufferBuilder& fbb) {
  auto encoding = fb::CreateDictionaryEncoding(fbb, 0, fb::CreateInt(fbb, 8, true), false);
  return testing::MakeField(fbb, "s", fb::Type::Utf8, fb::CreateUtf8(fbb).Union(), {}, encoding);
}

/// A schema of the one DictionaryField.
std::string DictionarySchemaMessage() {
  flatbuffers::FlatBufferBuilder fbb;
  testing::FinishSchemaMessage(fbb, {DictionaryField(fbb)});
  return Frame(fbb);
}

/// An IPC file of the DictionaryField schema holding `dictionaries` and then `batches` (framed
/// messages), with a footer listing their blocks in that order.
std::string DictionaryFile(const std::vector<std::string>& dictionaries, const std::vector<std::string>& batches) {
  std::string out = std::string("ARROW1\0\0", 8) + DictionarySchemaMessage();
  const auto append = [&out](const std::string& message, std::vector<fb::Block>& blocks) {
    int32_t metadata = 0;
    std::memcpy(&metadata, message.data() + 4, 4);
    blocks.emplace_back(static_cast<int64_t>(out.size()), 8 + metadata, static_cast<int64_t>(message.size()) - 8 - metadata);
    out += message;
  };
  std::vector<fb::Block> dictionary_blocks, batch_blocks;
  for (const auto& m : dictionaries) append(m, dictionary_blocks);
  for (const auto& m : batches) append(m, batch_blocks);
  out += testing::EndOfStream();
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> fields = {DictionaryField(fbb)};
  auto schema = fb::CreateSchemaDirect(fbb, fb::Endianness::Little, &fields);
  fbb.Finish(fb::CreateFooterDirect(fbb, fb::MetadataVersion::V5, schema, &dictionary_blocks, &batch_blocks));
  const auto footer_length = static_cast<int32_t>(fbb.GetSize());
  out.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  out.append(reinterpret_cast<const char*>(&footer_length), 4);
  return out + "ARROW1";
}

std::string DictionaryMessage(const std::vector<std::string>& values, bool is_delta) {
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  Body body;
  body.Add("");
  body.Add(Bytes(offsets));
  body.Add(data);
  const auto n = static_cast<int64_t>(values.size());
  return BatchMessage(n, {fb::FieldNode(n, 0)}, body, -1, 0, is_delta);
}

std::string IndicesMessage(const std::vector<int8_t>& indices) {
  Body body;
  body.Add("");
  body.Add(Bytes(indices));
  const auto n = static_cast<int64_t>(indices.size());
  return BatchMessage(n, {fb::FieldNode(n, 0)}, body);
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadStream(const std::string& bytes) {
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(Buffer::FromString(bytes), "hand.arrows"));
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

}  // namespace
}  // namespace recflow::arrow_ipc
