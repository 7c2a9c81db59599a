// Tests for Sniff on heads built by hand from each format's spec (and bytes the bzip2/zstd/xz CLIs wrote).
#include "recflow/formats/sniff.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "recflow/core/compression.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/tfrecord/framing.h"

namespace recflow::formats {
namespace {

std::span<const uint8_t> Bytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

Sniffed SniffText(std::string_view name, std::string_view head) {
  return Sniff(name, Bytes(head), BuiltinFormats().sniff_rules());
}

/// One framed TFRecord record holding `data`.
std::string Framed(std::string_view data) {
  std::string out;
  tfrecord::AppendFramedRecord(data, &out);
  return out;
}

std::string Gzipped(std::string_view data, Compression c = Compression::kGzip) {
  auto buffer = CompressBuffer(c, Bytes(data)).ValueOrDie();
  return std::string(reinterpret_cast<const char*>(buffer->data()), static_cast<size_t>(buffer->size()));
}

TEST(SniffTest, TfrecordFramingDecidesWhateverTheName) {
  const std::string records = Framed("first") + Framed("second");
  for (std::string_view name : {"x.tfrecord", "part-00000-of-00002", "x.csv", "-"}) {
    const Sniffed s = SniffText(name, records);
    EXPECT_EQ(s.codec, SniffedCodec::kNone) << name;
    EXPECT_EQ(s.content, ContentKind::kTfrecord) << name;
    EXPECT_EQ(s.certainty, Certainty::kChecked) << name;
  }
}

TEST(SniffTest, ARecordLengthThatLooksLikeAZlibHeaderIsStillTfrecord) {
  const std::string records = Framed(std::string(40056, 'a'));  // length bytes 78 9c: a zlib header
  ASSERT_TRUE(LooksLikeZlib(Bytes(records)));
  const Sniffed s = SniffText("data", records);
  EXPECT_EQ(s.codec, SniffedCodec::kNone);
  EXPECT_EQ(s.content, ContentKind::kTfrecord);
}

TEST(SniffTest, GzipAndZlibAreLookedInto) {
  const std::string records = Framed("payload");
  const Sniffed gz = SniffText("data_tfrecord-00000-of-00002.gz", Gzipped(records));
  EXPECT_EQ(gz.codec, SniffedCodec::kGzip);
  EXPECT_EQ(gz.content, ContentKind::kTfrecord);
  EXPECT_EQ(gz.certainty, Certainty::kChecked);
  EXPECT_EQ(gz.evidence, "magic 1f 8b 08, then a TFRecord header with a valid length CRC");
  const Sniffed zz = SniffText("beam-shard", Gzipped(records, Compression::kZlib));
  EXPECT_EQ(zz.codec, SniffedCodec::kZlib);
  EXPECT_EQ(zz.content, ContentKind::kTfrecord);
  const Sniffed csv = SniffText("rows", Gzipped("a,b\n1,2\n"));
  EXPECT_EQ(csv.codec, SniffedCodec::kGzip);
  EXPECT_EQ(csv.content, ContentKind::kCsv);
  EXPECT_EQ(csv.certainty, Certainty::kGuess);
}

TEST(SniffTest, ACutOffCompressedHeadStillShowsItsContent) {
  std::string records;
  for (int i = 0; i < 3000; ++i) records += Framed("record number " + std::to_string(i * 7919));
  const std::string gz = Gzipped(records);
  ASSERT_GT(gz.size(), 1000u);
  const Sniffed s = SniffText("shard", std::string_view(gz).substr(0, 1000));
  EXPECT_EQ(s.codec, SniffedCodec::kGzip);
  EXPECT_EQ(s.content, ContentKind::kTfrecord);
}

TEST(SniffTest, ForeignCodecsAreNamedFromTheirMagic) {
  // The first bytes the bzip2, zstd, xz and lz4 command-line tools wrote for "hello\n".
  EXPECT_EQ(SniffText("x.bz2", std::string("BZh91AY&SY\xc1\xc0\x80\xe2", 14)).codec, SniffedCodec::kBzip2);
  EXPECT_EQ(SniffText("x", std::string("BZh91AY&SY\xc1\xc0\x80\xe2", 14)).codec, SniffedCodec::kBzip2);
  EXPECT_EQ(SniffText("x.zst", std::string("\x28\xb5\x2f\xfd\x04\x58\x31\x00\x00hello", 14)).codec,
            SniffedCodec::kZstd);
  EXPECT_EQ(SniffText("x.xz", std::string("\xfd" "7zXZ\x00\x00\x04\xe6\xd6", 10)).codec, SniffedCodec::kXz);
  EXPECT_EQ(SniffText("x.lz4", std::string("\x04\x22\x4d\x18\x64\x40\xa7", 7)).codec, SniffedCodec::kLz4Frame);
  // "BZh" alone, without a block magic, is text.
  EXPECT_EQ(SniffText("notes", "BZh9 is not bzip2\n").codec, SniffedCodec::kNone);
  const Sniffed zst = SniffText("x.zst", std::string("\x28\xb5\x2f\xfd\x04\x58", 6));
  const Status st = CheckReadable("x.zst", zst);
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.ToString(),
            "x.zst: zstd-compressed input (magic 28 b5 2f fd): recflow does not read zstd; decompress it first, or "
            "pipe it in: zstd -dc FILE | recflow ... -");
}

TEST(SniffTest, ForeignFormatsAreNamedFromTheirMagic) {
  struct Case {
    std::string head;
    ContentKind content;
  };
  const std::vector<Case> cases = {
      {std::string("PAR1\x15\x04\x15\x10", 8), ContentKind::kParquet},
      {std::string("II*\0\x08\0\0\0", 8), ContentKind::kTiff},
      {std::string("MM\0*\0\0\0\x08", 8), ContentKind::kTiff},
      {std::string("II+\0\x08\0\0\0", 8), ContentKind::kBigTiff},
      {std::string("ORC\x0a\x03", 5), ContentKind::kOrc},
      {std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16), ContentKind::kPng},
      {std::string("\xff\xd8\xff\xe0\0\x10JFIF", 10), ContentKind::kJpeg},
      {std::string("\x89HDF\r\n\x1a\n", 8), ContentKind::kHdf5},
      {std::string("FEA1\0\0\0\0", 8), ContentKind::kFeatherV1},
  };
  for (const Case& c : cases) {
    const Sniffed s = SniffText("data.tfrecord", c.head);  // content wins over the suffix
    EXPECT_EQ(s.content, c.content) << ContentName(c.content);
    EXPECT_EQ(s.certainty, Certainty::kChecked);
    EXPECT_TRUE(IsForeign(s.content));
    EXPECT_EQ(CheckReadable("data.tfrecord", s).code(), StatusCode::kDataError);
  }
  const Status parquet = CheckReadable("x.parquet", SniffText("x.parquet", std::string("PAR1\x15\x04", 6)));
  EXPECT_EQ(parquet.ToString(),
            "x.parquet: Parquet file (magic PAR1): recflow does not read it; convert it to Arrow IPC (Feather v2), "
            "CSV or JSON Lines first, e.g. with pyarrow or duckdb");
}

TEST(SniffTest, ArrowFileAndAvroMagic) {
  EXPECT_EQ(SniffText("x", std::string("ARROW1\0\0", 8)).content, ContentKind::kArrowFile);
  EXPECT_EQ(SniffText("x.csv", std::string("Obj\x01\x04\x14", 6)).content, ContentKind::kAvro);
  EXPECT_TRUE(CheckReadable("x", SniffText("x", std::string("ARROW1\0\0", 8))).ok());
  // The file check is arrow_ipc::LooksLikeFile's: padding and, as far as the head shows, a message.
  EXPECT_EQ(SniffText("x", "ARROW1\xFE\xFE").content, ContentKind::kUnknown);
  EXPECT_EQ(SniffText("x", std::string("ARROW1\0\0\xFF\xFF\xFF\xFF\x08\0\0\0", 16) + std::string(8, '\x7F')).content,
            ContentKind::kUnknown);
  EXPECT_EQ(SniffText("x.arrow", "ARROW1\xFE\xFE").content, ContentKind::kArrowFile);  // by its name: the reader says why
}

TEST(SniffTest, AHeadIsDecidedWhenMoreBytesCouldNotChangeTheAnswer) {
  // What SniffFile stops reading a pipe at.
  EXPECT_FALSE(SniffText("-", "").decided);
  EXPECT_TRUE(SniffText("-", Framed("r").substr(0, 12)).decided);  // a whole TFRecord header
  EXPECT_FALSE(SniffText("-", Framed("r").substr(0, 8)).decided);
  EXPECT_FALSE(SniffText("-", "{\"a\": 1").decided);  // the first line may still turn binary
  EXPECT_TRUE(SniffText("-", "{\"a\": 1}\n").decided);
  EXPECT_TRUE(SniffText("x.csv", "a,b\n1").decided);
  EXPECT_FALSE(SniffText("x.csv", std::string("a\0b\n", 4)).decided);  // binary bytes go by the name, undecided
  EXPECT_FALSE(SniffText("-", std::string("\x01\x02\x03\x00\xfe", 5)).decided);
  EXPECT_TRUE(SniffText("-", std::string("\x28\xb5\x2f\xfd\x04\x58\x31\x00\x00hello", 14)).decided);
  const std::string gz = Gzipped("a,b\n1,2\n");
  EXPECT_TRUE(SniffText("-", gz).decided);
  EXPECT_FALSE(SniffText("-", gz.substr(0, 10)).decided);  // the gzip header alone shows no content
}

TEST(SniffTest, SniffFileReadsASlowPipeOnlyUntilItsHeadDecides) {
  // A writer that sends a first JSON line and waits, like `tail -f x.jsonl`: SniffFile answers with
  // that line instead of waiting for kSniffHeadBytes or the end, and the input still reads whole.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string line = "{\"a\": 1}\n";
  ASSERT_EQ(::write(fds[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
  const std::string path = "/dev/fd/" + std::to_string(fds[0]);
  auto sniffed = std::async(std::launch::async, [&] { return SniffFile(path, BuiltinFormats().sniff_rules()); });
  // A bound on a hang, not a timing: the writer closes only after the sniff returned (or gave up).
  const bool returned = sniffed.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  const std::string more = "{\"a\": 2}\n";
  EXPECT_EQ(::write(fds[1], more.data(), more.size()), static_cast<ssize_t>(more.size()));
  ::close(fds[1]);
  ASSERT_TRUE(returned) << "SniffFile waited for more than a decided head";
  EXPECT_EQ(sniffed.get().ValueOrDie().content, ContentKind::kJsonl);
  auto in = FileInputStream::Open(path).ValueOrDie();
  std::string all(64, '\0');
  int64_t got = 0;
  while (true) {
    const int64_t n = in->Read(all.data() + got, static_cast<int64_t>(all.size()) - got).ValueOrDie();
    if (n == 0) break;
    got += n;
  }
  EXPECT_EQ(all.substr(0, static_cast<size_t>(got)), line + more);
  ::close(fds[0]);
}

TEST(SniffTest, TextGoesBySuffixThenByContent) {
  EXPECT_EQ(SniffText("rows.jsonl", "a,b\n1,2\n").content, ContentKind::kJsonl);  // the suffix wins over text
  EXPECT_EQ(SniffText("rows.csv", "{\"a\": 1}\n").content, ContentKind::kCsv);
  const Sniffed jsonl = SniffText("rows", "\xEF\xBB\xBF  {\"a\": 1}\n");
  EXPECT_EQ(jsonl.content, ContentKind::kJsonl);
  EXPECT_EQ(jsonl.certainty, Certainty::kGuess);
  EXPECT_EQ(SniffText("rows", "id,name\n1,caf\xC3\xA9\n").content, ContentKind::kCsv);
  EXPECT_EQ(SniffText("rows", "id,name\n1,caf\xC3").content, ContentKind::kCsv);  // a cut-off character
  EXPECT_EQ(SniffText("rows", "id,name\n1,\xC3\x28\n").content, ContentKind::kUnknown);  // not UTF-8
  EXPECT_EQ(SniffText("rows", std::string("a\0b", 3)).content, ContentKind::kUnknown);
  // A damaged TFRecord file keeps its suffix's format, so its reader names the fault.
  const Sniffed damaged = SniffText("x.tfrecord", std::string(16, '\x07'));
  EXPECT_EQ(damaged.content, ContentKind::kTfrecord);
  EXPECT_EQ(damaged.certainty, Certainty::kSuffix);
}

TEST(SniffTest, EmptyAndUnknownInputs) {
  const Sniffed empty = SniffText("part-00001-of-00002", "");
  EXPECT_EQ(empty.content, ContentKind::kEmpty);
  EXPECT_EQ(SniffText("rows.csv", "").content, ContentKind::kCsv);
  const Sniffed unknown = SniffText("blob", std::string("\x01\x02\x03\x00\xfe", 5));
  EXPECT_EQ(unknown.content, ContentKind::kUnknown);
  EXPECT_EQ(unknown.certainty, Certainty::kNone);
  EXPECT_TRUE(CheckReadable("blob", unknown).ok());  // the caller decides what unknown means
}

TEST(SniffTest, SuffixesComeFromTheFormatsAndTheForeignTable) {
  const std::span<const SuffixRule> builtin = BuiltinFormats().sniff_rules().suffixes;
  EXPECT_EQ(ContentFromSuffix("a.tfrecord.gz", builtin), ContentKind::kTfrecord);
  EXPECT_EQ(ContentFromSuffix("a.tfrecords", builtin), ContentKind::kTfrecord);
  EXPECT_EQ(ContentFromSuffix("a.ndjson.zz", builtin), ContentKind::kJsonl);
  EXPECT_EQ(ContentFromSuffix("a.arrows", builtin), ContentKind::kArrowStream);
  EXPECT_EQ(ContentFromSuffix("a.feather", builtin), ContentKind::kArrowFile);
  EXPECT_EQ(ContentFromSuffix("B02.tif", builtin), ContentKind::kTiff);
  EXPECT_EQ(ContentFromSuffix("data_tfrecord-00000-of-00002.gz", builtin), ContentKind::kUnknown);
  EXPECT_EQ(ContentFromSuffix("-", builtin), ContentKind::kUnknown);
  // Without the registered formats only the foreign suffixes are known.
  EXPECT_EQ(ContentFromSuffix("a.csv", {}), ContentKind::kUnknown);
  EXPECT_EQ(ContentFromSuffix("a.parquet", {}), ContentKind::kParquet);
  EXPECT_EQ(SniffText("a.tsv", "x\n").content, ContentKind::kCsv) << "a format's suffix decides over a text guess";
}

}  // namespace
}  // namespace recflow::formats
