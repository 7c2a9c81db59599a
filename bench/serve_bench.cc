// recflow-serve-bench: writes the numeric Feather input of bench/serve_throughput.py and reads live `recflow serve` passes as its C++ client.
//
//   recflow-serve-bench generate OUT.feather ROWS   8 columns (4 int64, 4 float64), 65536-row batches
//   recflow-serve-bench read ENDPOINT [--raw]       one pass: decoded batches (or --raw: bytes only)
// `read` prints "bytes B batches N rows R seconds S" (batches and rows are 0 with --raw).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/stream_client.h"

namespace {

using recflow::Result;
using recflow::Status;

constexpr int64_t kBatchRows = 65536;
constexpr int kColumnsPerType = 4;

/// A column of `rows` 8-byte values derived from the row number.
template <typename T>
std::shared_ptr<recflow::ArrayData> Column(int64_t first_row, int64_t rows, int column) {
  recflow::BufferBuilder values;
  if (!values.Reserve(rows * 8).ok()) std::abort();
  for (int64_t i = 0; i < rows; ++i) values.UnsafeAppendValue(static_cast<T>((first_row + i) * (column + 1)));
  return recflow::ArrayData::Make(std::is_same_v<T, double> ? recflow::float64() : recflow::int64(), rows,
                                  {nullptr, values.Finish()}, 0);
}

Status Generate(const std::string& path, int64_t rows) {
  std::vector<recflow::FieldPtr> fields;
  for (int c = 0; c < kColumnsPerType; ++c) fields.push_back(recflow::Field::Make("i" + std::to_string(c), recflow::int64(), false));
  for (int c = 0; c < kColumnsPerType; ++c) fields.push_back(recflow::Field::Make("f" + std::to_string(c), recflow::float64(), false));
  const auto schema = recflow::Schema::Make(std::move(fields));
  ASSIGN_OR_RETURN(auto out, recflow::FileOutputStream::Open(path));
  ASSIGN_OR_RETURN(auto writer, recflow::arrow_ipc::IpcWriter::OpenFile(out.get(), schema,
                                                                      recflow::arrow_ipc::IpcWriteOptions::Defaults()));
  for (int64_t first = 0; first < rows; first += kBatchRows) {
    const int64_t n = std::min(kBatchRows, rows - first);
    std::vector<std::shared_ptr<recflow::ArrayData>> columns;
    for (int c = 0; c < kColumnsPerType; ++c) columns.push_back(Column<int64_t>(first, n, c));
    for (int c = 0; c < kColumnsPerType; ++c) columns.push_back(Column<double>(first, n, c));
    ASSIGN_OR_RETURN(auto batch, recflow::RecordBatch::Make(schema, n, std::move(columns)));
    RETURN_NOT_OK(writer->Write(*batch));
  }
  RETURN_NOT_OK(writer->Finish());
  return out->Close();
}

struct Received {
  int64_t bytes = 0;
  int64_t batches = 0;
  int64_t rows = 0;
};

// One pass on a bare socket: bytes only, nothing decoded.
Result<Received> ReadRaw(const std::string& endpoint) {
  ASSIGN_OR_RETURN(recflow::serve::Endpoint parsed, recflow::serve::ParseEndpoint(endpoint));
  ASSIGN_OR_RETURN(int fd, recflow::serve::Connect(parsed));
  auto in = recflow::FileInputStream::FromFd(fd, endpoint, /*owned=*/true);
  std::vector<char> buffer(1 << 20);
  Received got;
  while (true) {
    ASSIGN_OR_RETURN(const int64_t n, in->Read(buffer.data(), static_cast<int64_t>(buffer.size())));
    if (n == 0) break;
    got.bytes += n;
  }
  return got;
}

// One pass through the client API: every batch decoded.
Result<Received> ReadDecoded(const std::string& endpoint) {
  ASSIGN_OR_RETURN(auto client, recflow::serve::StreamClient::Connect(endpoint));
  Received got;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, client->Next());
    if (batch == nullptr) break;
    ++got.batches;
    got.rows += batch->num_rows();
  }
  got.bytes = client->bytes_received();
  return got;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "generate" && argc == 4) {
    const Status st = Generate(argv[2], std::atoll(argv[3]));
    if (!st.ok()) std::fprintf(stderr, "recflow-serve-bench: %s\n", st.ToString().c_str());
    return st.ok() ? 0 : 1;
  }
  if (command == "read" && (argc == 3 || (argc == 4 && std::strcmp(argv[3], "--raw") == 0))) {
    const auto start = std::chrono::steady_clock::now();
    auto got = argc == 4 ? ReadRaw(argv[2]) : ReadDecoded(argv[2]);
    if (!got.ok()) {
      std::fprintf(stderr, "recflow-serve-bench: %s\n", got.status().ToString().c_str());
      return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("bytes %lld batches %lld rows %lld seconds %.6f\n", static_cast<long long>(got->bytes),
                static_cast<long long>(got->batches), static_cast<long long>(got->rows), seconds);
    return 0;
  }
  std::fprintf(stderr, "usage: recflow-serve-bench generate OUT.feather ROWS | read ENDPOINT [--raw]\n");
  return 2;
}
