// recflow-image-floor: the floor an image pipeline is measured against — read, decode and resize every image of a
// `path,label` CSV in a bare loop on N threads, with no pipeline around it. Prints images/s.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/ops/image/resize.h"

namespace {

using namespace recflow;

// The first field of every line after the header.
std::vector<std::string> ReadPaths(const std::string& csv) {
  std::ifstream in(csv);
  std::vector<std::string> paths;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) paths.push_back(line.substr(0, line.find(',')));
  return paths;
}

Status Process(const std::string& path, int size) {
  ASSIGN_OR_RETURN(auto bytes, ReadWholeFile(path));  // as the load_file step reads
  image::DecodeOptions options = image::DecodeOptions::Defaults();
  options.channels = 1;
  ASSIGN_OR_RETURN(image::Image decoded, image::DecodeImage(bytes->span(), options));
  ASSIGN_OR_RETURN(image::Image resized, ops::Resize(decoded, size, size, ops::ResizeMethod::kBilinear));
  return resized.height() == size ? Status::OK() : Status::Internal("bad resize");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s LABELS.csv BASE_DIR THREADS SIZE\n", argv[0]);
    return 2;
  }
  const std::vector<std::string> paths = ReadPaths(argv[1]);
  const std::string base = argv[2];
  const int threads = std::stoi(argv[3]);
  const int size = std::stoi(argv[4]);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  std::vector<int> failures(static_cast<size_t>(threads), 0);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); i < paths.size(); i += static_cast<size_t>(threads)) {
        if (!Process(base + "/" + paths[i], size).ok()) ++failures[static_cast<size_t>(t)];
      }
    });
  }
  for (auto& w : workers) w.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int failed = 0;
  for (int f : failures) failed += f;
  std::printf("{\"images\": %zu, \"failed\": %d, \"seconds\": %.4f, \"images_per_second\": %.1f}\n", paths.size(),
              failed, seconds, static_cast<double>(paths.size()) / seconds);
  return failed == 0 ? 0 : 1;
}
