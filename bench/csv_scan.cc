// recflow-csv-scan: parses a CSV file into columnar batches on N threads and discards them,
// printing rows, bytes and seconds — recflow's side of bench/csv_vs_duckdb.py.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "recflow/formats/csv/csv_source.h"
#include "recflow/pipeline/scan.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: recflow-csv-scan FILE [--threads N] [--block-size BYTES]\n");
    return 2;
  }
  recflow::ExecContext context;
  recflow::csv::ReadOptions options = recflow::csv::ReadOptions::Defaults();
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) {
      context.threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--block-size") == 0) {
      options.block_size = std::atoll(argv[i + 1]);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  auto in = recflow::FileInputStream::Open(argv[1]);
  if (!in.ok()) {
    std::fprintf(stderr, "recflow-csv-scan: %s\n", in.status().ToString().c_str());
    return 1;
  }
  auto source = recflow::csv::OpenCsvSource(std::move(in).ValueUnsafe(), options);
  if (!source.ok()) {
    std::fprintf(stderr, "recflow-csv-scan: %s\n", source.status().ToString().c_str());
    return 1;
  }
  auto stats = recflow::pipeline::ScanSource(context, source->get());
  if (!stats.ok()) {
    std::fprintf(stderr, "recflow-csv-scan: %s\n", stats.status().ToString().c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("rows %lld bytes %lld seconds %.6f\n", static_cast<long long>(stats->records),
              static_cast<long long>(stats->input_bytes), seconds);
  return 0;
}
