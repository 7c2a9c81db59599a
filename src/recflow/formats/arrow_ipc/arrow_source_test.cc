// Tests of the Arrow source: a unit's input bytes are the messages it read, dictionaries and nested arrays included.
#include "recflow/formats/arrow_ipc/arrow_source.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/arrow_sniffer_internal.h"
#include "recflow/formats/arrow_ipc/dictionary_test_util_internal.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

using recflow::testing::BufferOf;

/// The Arrow format's content checks, which OpenArrowSource's callers sniff with.
formats::SniffRules ArrowSniffers() {
  static const ArrowFileSniffer file;
  static const ArrowStreamSniffer stream;
  static const formats::ContentSniffer* const sniffers[] = {&file, &stream};
  return {sniffers, {}};
}

/// `dictionary` (one dictionary column) with a list<utf8> column of two rows added.
std::shared_ptr<RecordBatch> WithTags(const std::shared_ptr<RecordBatch>& dictionary) {
  auto text = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 2, 3, 7}), Buffer::FromString("abcdefg")}, 0);
  auto tags = ArrayData::Make(list(utf8()), 2, {nullptr, BufferOf<int32_t>({0, 2, 3})}, 0, 0, {text});
  const auto schema = Schema::Make({dictionary->schema()->field(0), Field::Make("tags", tags->type, true)});
  return *RecordBatch::Make(schema, 2, {dictionary->column_data(0), tags});
}

/// Writes `batches` to `path` as a stream or file; returns the writer's position after the
/// header and after each batch (the batch and the dictionary batches it needed).
std::vector<int64_t> WriteArrow(const std::string& path, bool file,
                                const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  auto out = FileOutputStream::Open(path);
  EXPECT_TRUE(out.ok());
  const SchemaPtr schema = batches.front()->schema();
  auto writer = file ? IpcWriter::OpenFile(out->get(), schema, IpcWriteOptions::Defaults())
                     : IpcWriter::OpenStream(out->get(), schema, IpcWriteOptions::Defaults());
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  std::vector<int64_t> positions = {(*writer)->bytes_written()};
  for (const auto& batch : batches) {
    EXPECT_TRUE((*writer)->Write(*batch).ok());
    positions.push_back((*writer)->bytes_written());
  }
  EXPECT_TRUE((*writer)->Finish().ok());
  EXPECT_TRUE((*out)->Close().ok());
  return positions;
}

/// The input bytes of every unit of `path`, decoding each.
std::vector<int64_t> UnitBytes(const std::string& path) {
  auto source = OpenArrowSource(path, formats::SniffFile(path, ArrowSniffers()).ValueOrDie().content);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  std::vector<int64_t> bytes;
  while (true) {
    auto unit = (*source)->NextUnit();
    EXPECT_TRUE(unit.ok()) << unit.status().ToString();
    if (!unit.ok() || *unit == nullptr) return bytes;
    bytes.push_back((*unit)->input_bytes());
    EXPECT_TRUE((*unit)->Decode().ok());
  }
}

TEST(ArrowSourceTest, UnitsCountTheDictionaryBatchesAndNestedArraysTheyRead) {
  // The second batch extends the dictionary: a delta batch precedes it.
  const std::vector<std::shared_ptr<RecordBatch>> batches = {
      WithTags(testing::DictionaryBatch({0, 1}, "ab", {0, 1, 2})),
      WithTags(testing::DictionaryBatch({2, 0}, "abc", {0, 1, 2, 3}))};
  recflow::testing::ScratchDir dir;

  // A stream's unit holds the messages read since the previous one.
  const std::string stream = dir.File("in.arrows");
  const std::vector<int64_t> at = WriteArrow(stream, false, batches);
  EXPECT_EQ(UnitBytes(stream), (std::vector<int64_t>{at[1] - at[0], at[2] - at[1]}));

  // A file's first unit holds every dictionary batch (all read at open), each its own batch.
  const std::string file = dir.File("in.feather");
  const std::vector<int64_t> file_at = WriteArrow(file, true, batches);
  const std::vector<int64_t> units = UnitBytes(file);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0] + units[1], file_at[2] - file_at[0]);
  EXPECT_GT(units[0], file_at[1] - file_at[0]);  // the delta for the second batch too
}

/// A pipe fed `bytes` by a thread (then closed), read as /dev/fd/N: what `<(cat x)` gives.
class FedPipe {
 public:
  explicit FedPipe(std::string bytes) {
    EXPECT_EQ(::pipe(fds_), 0);
    writer_ = std::thread([this, bytes = std::move(bytes)] {
      size_t done = 0;
      while (done < bytes.size()) {
        const ssize_t n = ::write(fds_[1], bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
      ::close(fds_[1]);
    });
  }
  ~FedPipe() {
    ::close(fds_[0]);  // a writer still blocked gets EPIPE
    writer_.join();
  }
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }

 private:
  int fds_[2];
  std::thread writer_;
};

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(ArrowSourceTest, AStreamFromAPipeIsReadFromItsFirstByteAndAFileIsRefusedClearly) {
  const std::vector<std::shared_ptr<RecordBatch>> batches = {
      WithTags(testing::DictionaryBatch({0, 1}, "ab", {0, 1, 2})),
      WithTags(testing::DictionaryBatch({2, 0}, "abc", {0, 1, 2, 3}))};
  recflow::testing::ScratchDir dir;
  WriteArrow(dir.File("in.arrows"), false, batches);
  WriteArrow(dir.File("in.arrow"), true, batches);

  // The sniffer peeks the pipe's head; the source reads it again (it used to be dropped by a
  // second look at the magic, and the stream then started mid-message).
  FedPipe stream(ReadBytes(dir.File("in.arrows")));
  const formats::Sniffed sniffed = formats::SniffFile(stream.path(), ArrowSniffers()).ValueOrDie();
  ASSERT_EQ(sniffed.content, formats::ContentKind::kArrowStream);
  auto source = OpenArrowSource(stream.path(), sniffed.content);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  int64_t rows = 0;
  while (true) {
    auto unit = (*source)->NextUnit();
    ASSERT_TRUE(unit.ok()) << unit.status().ToString();
    if (*unit == nullptr) break;
    rows += (*unit)->Decode().ValueOrDie().batch->num_rows();
  }
  EXPECT_EQ(rows, 4);

  FedPipe file(ReadBytes(dir.File("in.arrow")));
  const formats::ContentKind content = formats::SniffFile(file.path(), ArrowSniffers()).ValueOrDie().content;
  ASSERT_EQ(content, formats::ContentKind::kArrowFile);
  auto refused = OpenArrowSource(file.path(), content);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().ToString().find(file.path() + ": an Arrow IPC file needs random access"),
            std::string::npos)
      << refused.status().ToString();
}

}  // namespace
}  // namespace recflow::arrow_ipc
