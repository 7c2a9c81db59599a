// Tests for the IDX reader: headers checked against the real size, columns, batching, pairing.
#include "recflow/formats/idx/idx_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "recflow/columnar/array.h"
#include "recflow/core/compression.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/testing/testdata.h"

namespace recflow::idx {
namespace {

// An IDX uint8 file with the given dimensions and payload.
std::string MakeIdx(const std::vector<uint32_t>& dims, const std::string& payload) {
  std::string out = {0, 0, static_cast<char>(kTypeUInt8), static_cast<char>(dims.size())};
  for (uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((d >> shift) & 0xff));
  }
  return out + payload;
}

Result<std::shared_ptr<const IdxFile>> Parse(const std::string& bytes) {
  return IdxFile::FromBuffer(Buffer::FromString(bytes), "test.idx");
}

TEST(IdxFileTest, ReadsImages) {
  // Three 2x2 images.
  auto file = Parse(MakeIdx({3, 2, 2}, "abcdefghijkl"));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->num_items(), 3);
  EXPECT_EQ((*file)->item_size(), 4);
  EXPECT_EQ((*file)->field()->name(), "image");
  EXPECT_EQ((*file)->field()->metadata()->Get(kShapeMetadataKey), "2,2");
  auto column = (*file)->Column(1, 2);
  ASSERT_TRUE(column.ok()) << column.status().ToString();
  BinaryArray images(*column);
  ASSERT_EQ(images.length(), 2);
  EXPECT_EQ(images.GetView(0), "efgh");
  EXPECT_EQ(images.GetView(1), "ijkl");
}

TEST(IdxFileTest, ReadsLabelsAsInt64) {
  auto file = Parse(MakeIdx({4}, std::string("\x00\x09\xff\x01", 4)));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->field()->name(), "label");
  auto column = (*file)->Column(0, 4);
  ASSERT_TRUE(column.ok());
  Int64Array labels(*column);
  EXPECT_EQ(labels.Value(0), 0);
  EXPECT_EQ(labels.Value(1), 9);
  EXPECT_EQ(labels.Value(2), 255);
  EXPECT_EQ(labels.Value(3), 1);
}

TEST(IdxFileTest, DetectsGzip) {
  const std::string raw = MakeIdx({2}, "\x03\x04");
  auto gz = CompressBuffer(Compression::kGzip, {reinterpret_cast<const uint8_t*>(raw.data()), raw.size()});
  ASSERT_TRUE(gz.ok());
  auto file = IdxFile::FromBuffer(*gz, "labels.gz");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->num_items(), 2);
}

TEST(IdxFileTest, RejectsHostileHeaders) {
  const std::vector<std::string> bad = {
      "",                                        // empty
      std::string("\x00\x00\x08", 3),            // truncated magic
      std::string("\x01\x00\x08\x01", 4),        // bad magic
      std::string("\x00\x00\x0d\x01", 4),        // float elements: unsupported
      std::string("\x00\x00\x08\x00", 4),        // zero dimensions
      std::string("\x00\x00\x08\x05", 4),        // too many dimensions
      std::string("\x00\x00\x08\x03\x00\x00", 6),  // truncated dimension list
      MakeIdx({3, 2, 2}, "abcdefghijk"),         // one byte short
      MakeIdx({3, 2, 2}, "abcdefghijklm"),       // one byte too many
      MakeIdx({0xffffffff, 0xffffffff, 0xffffffff}, "x"),  // sizes far beyond the file
      MakeIdx({5, 0, 2}, ""),                    // zero-size items
      MakeIdx({2}, "\x01"),                      // labels short
  };
  for (const auto& bytes : bad) {
    auto file = Parse(bytes);
    ASSERT_FALSE(file.ok()) << "accepted " << bytes.size() << " bytes";
    EXPECT_EQ(file.status().code(), StatusCode::kDataError);
    EXPECT_EQ(file.status().context().file, "test.idx");
    EXPECT_GE(file.status().context().offset, 0);
  }
}

TEST(IdxReaderTest, BatchesAndZipsImagesWithLabels) {
  auto images = Parse(MakeIdx({5, 1, 2}, "aabbccddee"));
  auto labels = Parse(MakeIdx({5}, "\x01\x02\x03\x04\x05"));
  ASSERT_TRUE(images.ok() && labels.ok());
  IdxReaderOptions options = IdxReaderOptions::Defaults();
  options.batch_size = 2;
  auto reader = IdxReader::Make({*images, *labels}, options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema()->ToString(), Schema::Make({(*images)->field(), (*labels)->field()})->ToString());
  std::vector<int64_t> sizes;
  std::string all_pixels;
  int64_t label_sum = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    ASSERT_TRUE((*batch)->ValidateFull().ok());
    sizes.push_back((*batch)->num_rows());
    BinaryArray pixels((*batch)->column_data(0));
    Int64Array label((*batch)->column_data(1));
    for (int64_t i = 0; i < (*batch)->num_rows(); ++i) {
      all_pixels += pixels.GetView(i);
      label_sum += label.Value(i);
    }
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(all_pixels, "aabbccddee");
  EXPECT_EQ(label_sum, 15);
}

TEST(IdxReaderTest, RejectsMismatchedCounts) {
  auto images = Parse(MakeIdx({2, 1, 1}, "ab"));
  auto labels = Parse(MakeIdx({3}, "\x01\x02\x03"));
  ASSERT_TRUE(images.ok() && labels.ok());
  auto reader = IdxReader::Make({*images, *labels}, IdxReaderOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
}

TEST(IdxReaderTest, OpenPairChecksRolesOnItsFileSystem) {
  // The files exist only in memory: OpenPair reads them through the file system it is given.
  MemoryFileSystem memory;
  ASSERT_TRUE(memory.WriteSmallFile("/images", MakeIdx({1, 1, 1}, "x"), false).ok());
  ASSERT_TRUE(memory.WriteSmallFile("/labels", MakeIdx({1}, "\x07"), false).ok());
  const auto options = IdxReaderOptions::Defaults();
  auto pair = IdxReader::OpenPair("/images", "/labels", options, memory);
  ASSERT_TRUE(pair.ok()) << pair.status().ToString();
  auto batch = (*pair)->Next();
  ASSERT_TRUE(batch.ok() && *batch != nullptr);
  EXPECT_EQ(Int64Array((*batch)->column_data(1)).Value(0), 7);
  EXPECT_FALSE(IdxReader::OpenPair("/labels", "/images", options, memory).ok());
  auto missing = IdxReader::OpenPair("/missing", "/labels", options, memory);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().ToString().find("/missing"), std::string::npos) << missing.status().ToString();
  EXPECT_FALSE(IdxReader::OpenPair("/images", "/labels", options, *LocalFileSystem::Instance()).ok())
      << "the in-memory files are not on the local disk";
}

TEST(IdxReaderTest, RejectsBadOptions) {
  IdxReaderOptions options;
  options.batch_size = 0;
  EXPECT_FALSE(options.Validate().ok());
}

TEST(IdxReaderTest, ReadsFashionMnistWhenInstalled) {
  const std::string dir = "/usr/share/datasets/fashion-mnist/";
  std::ifstream probe(dir + "t10k-labels-idx1-ubyte.gz");
  if (!probe) GTEST_SKIP() << "Debian package dataset-fashion-mnist not installed";
  auto reader = IdxReader::OpenPair(dir + "t10k-images-idx3-ubyte.gz", dir + "t10k-labels-idx1-ubyte.gz",
                                    IdxReaderOptions::Defaults(), *LocalFileSystem::Instance());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->num_rows(), 10000);
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok());
  BinaryArray images((*batch)->column_data(0));
  EXPECT_EQ(images.GetView(0).size(), 784u);
  Int64Array labels((*batch)->column_data(1));
  EXPECT_EQ(labels.Value(0), 9);  // the first t10k item is an ankle boot
}

}  // namespace
}  // namespace recflow::idx
