// Arrow IPC write (into memory, /dev/null and a tmpfs file) and read throughput next to memcpy of the same bytes; mapped reads by size.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>

#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/testing/sample_arrays.h"
#include "recflow/testing/testdata.h"

namespace {

using namespace recflow;

constexpr int64_t kRowsPerBatch = 64 * 1024;

/// A batch of int64, float64 and short utf8 columns (about 2.2 MB).
std::shared_ptr<RecordBatch> MakeBatch() {
  std::mt19937_64 rng(7);
  std::vector<int64_t> ids(kRowsPerBatch);
  std::vector<double> values(kRowsPerBatch);
  std::vector<int32_t> offsets(kRowsPerBatch + 1, 0);
  std::string text;
  for (int64_t i = 0; i < kRowsPerBatch; ++i) {
    ids[static_cast<size_t>(i)] = static_cast<int64_t>(rng());
    values[static_cast<size_t>(i)] = static_cast<double>(rng() % 100000) / 7.0;
    text += "label-" + std::to_string(rng() % 1000);
    offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(text.size());
  }
  auto schema = Schema::Make({Field::Make("id", int64(), false), Field::Make("x", float64(), false),
                              Field::Make("label", utf8(), false)});
  const auto n = kRowsPerBatch;
  return *RecordBatch::Make(schema, n,
                            {ArrayData::Make(int64(), n, {nullptr, testing::BufferOf(ids)}, 0),
                             ArrayData::Make(float64(), n, {nullptr, testing::BufferOf(values)}, 0),
                             ArrayData::Make(utf8(), n, {nullptr, testing::BufferOf(offsets), Buffer::FromString(text)}, 0)});
}

const std::shared_ptr<RecordBatch>& Batch() {
  static const auto batch = MakeBatch();
  return batch;
}

/// `batches` copies of Batch() as an IPC stream or file in memory.
std::shared_ptr<Buffer> Encoded(int batches, bool file) {
  BufferOutputStream out;
  auto writer = file ? arrow_ipc::IpcWriter::OpenFile(&out, Batch()->schema(), arrow_ipc::IpcWriteOptions::Defaults())
                     : arrow_ipc::IpcWriter::OpenStream(&out, Batch()->schema(), arrow_ipc::IpcWriteOptions::Defaults());
  for (int i = 0; i < batches; ++i) {
    if (!(*writer)->Write(*Batch()).ok()) std::abort();
  }
  if (!(*writer)->Finish().ok()) std::abort();
  return out.Finish();
}

void BM_Memcpy(benchmark::State& state) {
  const auto stream = Encoded(16, false);
  std::string copy(static_cast<size_t>(stream->size()), '\0');
  for (auto _ : state) {
    std::memcpy(copy.data(), stream->data(), copy.size());
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_Memcpy);

/// memcpy of the stream's bytes into pages mapped for each copy (mmap/munmap, whatever the heap
/// holds): the copy pays the page faults that the fresh page-cache pages of a new file pay too.
void BM_MemcpyToNewPages(benchmark::State& state) {
  const auto stream = Encoded(16, false);
  const auto size = static_cast<size_t>(stream->size());
  for (auto _ : state) {
    void* pages = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) std::abort();
    std::memcpy(pages, stream->data(), size);
    benchmark::DoNotOptimize(pages);
    ::munmap(pages, size);
  }
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_MemcpyToNewPages);

void BM_IpcWriteStream(benchmark::State& state) {
  const int64_t size = Encoded(16, false)->size();
  for (auto _ : state) {
    BufferOutputStream out;
    auto writer = arrow_ipc::IpcWriter::OpenStream(&out, Batch()->schema(), arrow_ipc::IpcWriteOptions::Defaults());
    for (int i = 0; i < 16; ++i) {
      if (!(*writer)->Write(*Batch()).ok()) std::abort();
    }
    if (!(*writer)->Finish().ok()) std::abort();
    benchmark::DoNotOptimize(out.Finish());
  }
  state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(BM_IpcWriteStream);

/// A file on tmpfs (/dev/shm): the page cache's copy without a disk.
std::string TmpfsPath(const char* suffix) { return "/dev/shm/recflow-bench-" + std::to_string(::getpid()) + suffix; }

/// Writes 16 copies of Batch() through the FileSystem layer's writable file for `path` (created
/// or truncated each iteration, as a new output file is), as a stream or (`file`) the file format.
void WriteThroughFileSystem(benchmark::State& state, const std::string& path, bool file) {
  const int64_t size = Encoded(16, file)->size();
  LocalFileSystem fs;
  for (auto _ : state) {
    auto out = fs.OpenOutputStream(path);
    if (!out.ok()) {
      state.SkipWithError(out.status().ToString().c_str());
      return;
    }
    const auto options = arrow_ipc::IpcWriteOptions::Defaults();
    auto writer = file ? arrow_ipc::IpcWriter::OpenFile(out->get(), Batch()->schema(), options)
                       : arrow_ipc::IpcWriter::OpenStream(out->get(), Batch()->schema(), options);
    for (int i = 0; i < 16; ++i) {
      if (!(*writer)->Write(*Batch()).ok()) std::abort();
    }
    if (!(*writer)->Finish().ok() || !(*out)->Close().ok()) std::abort();
  }
  state.SetBytesProcessed(state.iterations() * size);
}

/// The floor of a file write: the stream's bytes, already encoded, written to a new tmpfs file
/// with one write(2) (the kernel's copy into fresh page-cache pages).
void BM_WriteEncodedToTmpfsFile(benchmark::State& state) {
  const auto stream = Encoded(16, false);
  const std::string path = TmpfsPath(".bytes");
  LocalFileSystem fs;
  for (auto _ : state) {
    auto out = fs.OpenOutputStream(path);
    if (!out.ok() || !(*out)->Write(stream->data(), stream->size()).ok() || !(*out)->Close().ok()) std::abort();
  }
  ::unlink(path.c_str());
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_WriteEncodedToTmpfsFile);

/// Ways of putting the encoded bytes into a tmpfs file (issue 15: is the new file's cost the
/// kernel's page allocation, and does any way of writing avoid it?).
enum TmpfsWrite : int64_t {
  kNewFileOneWrite = 0,       ///< O_TRUNC, one write(2): BM_WriteEncodedToTmpfsFile's floor
  kNewFile64KiBWrites = 1,    ///< O_TRUNC, write(2) of 64 KiB pieces
  kNewFile4MiBWrites = 2,     ///< O_TRUNC, write(2) of 4 MiB pieces
  kNewFileFallocated = 3,     ///< O_TRUNC, fallocate(2) of the whole size, then one write(2)
  kNewFileMappedPopulated = 4,  ///< O_TRUNC, ftruncate, mmap MAP_SHARED | MAP_POPULATE, memcpy
  kOverwriteExisting = 5,     ///< no O_TRUNC: one pwrite(2) over the pages the last pass allocated
};

/// The encoded stream written into a tmpfs file the state.range(0) way.
void BM_TmpfsWriteHow(benchmark::State& state) {
  const auto stream = Encoded(16, false);
  const auto size = static_cast<size_t>(stream->size());
  const std::string path = TmpfsPath(".how");
  const auto how = static_cast<TmpfsWrite>(state.range(0));
  const auto write_all = [&](int fd, size_t piece) {
    for (size_t pos = 0; pos < size;) {
      const ssize_t n = ::write(fd, stream->data() + pos, std::min(piece, size - pos));
      if (n <= 0) std::abort();
      pos += static_cast<size_t>(n);
    }
  };
  for (auto _ : state) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (how == kOverwriteExisting ? 0 : O_TRUNC), 0644);
    if (fd < 0) std::abort();
    switch (how) {
      case kNewFileOneWrite:
        write_all(fd, size);
        break;
      case kNewFile64KiBWrites:
        write_all(fd, size_t{64} << 10);
        break;
      case kNewFile4MiBWrites:
        write_all(fd, size_t{4} << 20);
        break;
      case kNewFileFallocated:
        if (::fallocate(fd, 0, 0, static_cast<off_t>(size)) != 0) std::abort();
        write_all(fd, size);
        break;
      case kNewFileMappedPopulated: {
        const int rw = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
        if (rw < 0 || ::ftruncate(rw, static_cast<off_t>(size)) != 0) std::abort();
        void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, rw, 0);
        if (map == MAP_FAILED) std::abort();
        std::memcpy(map, stream->data(), size);
        ::munmap(map, size);
        ::close(rw);
        break;
      }
      case kOverwriteExisting:
        if (::pwrite(fd, stream->data(), size, 0) != static_cast<ssize_t>(size)) std::abort();
        break;
    }
    ::close(fd);
  }
  ::unlink(path.c_str());
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_TmpfsWriteHow)->ArgName("how")->DenseRange(kNewFileOneWrite, kOverwriteExisting);

void BM_IpcWriteStreamToDevNull(benchmark::State& state) { WriteThroughFileSystem(state, "/dev/null", false); }
BENCHMARK(BM_IpcWriteStreamToDevNull);

void BM_IpcWriteFileToDevNull(benchmark::State& state) { WriteThroughFileSystem(state, "/dev/null", true); }
BENCHMARK(BM_IpcWriteFileToDevNull);

void BM_IpcWriteStreamToTmpfsFile(benchmark::State& state) {
  const std::string path = TmpfsPath(".arrows");
  WriteThroughFileSystem(state, path, false);
  ::unlink(path.c_str());
}
BENCHMARK(BM_IpcWriteStreamToTmpfsFile);

void BM_IpcWriteFileToTmpfsFile(benchmark::State& state) {
  const std::string path = TmpfsPath(".arrow");
  WriteThroughFileSystem(state, path, true);
  ::unlink(path.c_str());
}
BENCHMARK(BM_IpcWriteFileToTmpfsFile);

void BM_IpcReadStream(benchmark::State& state) {
  const auto stream = Encoded(16, false);
  for (auto _ : state) {
    auto reader = arrow_ipc::IpcStreamReader::Open(stream, "bench");
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (*batch == nullptr) break;
      benchmark::DoNotOptimize(batch->get());
    }
  }
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_IpcReadStream);

/// Opens a memory-mapped IPC file of range(0) batches and reads its middle batch: the cost must
/// not grow with the file (no copies, only the footer and one batch are touched).
void BM_IpcMappedFileRandomBatch(benchmark::State& state) {
  static std::map<int64_t, std::string> paths;
  static testing::ScratchDir dir;
  std::string& path = paths[state.range(0)];
  if (path.empty()) {
    path = dir.File("bench-" + std::to_string(state.range(0)) + ".arrow");
    const auto file = Encoded(static_cast<int>(state.range(0)), true);
    auto out = FileOutputStream::Open(path);
    if (!out.ok() || !(*out)->Write(file->data(), file->size()).ok() || !(*out)->Close().ok()) std::abort();
  }
  for (auto _ : state) {
    auto reader = arrow_ipc::IpcFileReader::OpenFile(path);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    auto batch = (*reader)->ReadBatch((*reader)->num_batches() / 2);
    benchmark::DoNotOptimize(batch->get());
  }
  state.counters["file_MB"] = static_cast<double>(state.range(0)) * 2.2;
}
BENCHMARK(BM_IpcMappedFileRandomBatch)->Arg(4)->Arg(64)->Arg(512);

}  // namespace
