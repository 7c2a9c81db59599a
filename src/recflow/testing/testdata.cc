// Test data location and scratch directories.
#include "recflow/testing/testdata.h"

#include <cstdlib>
#include <random>

namespace recflow::testing {

std::filesystem::path TestdataDir() {
  if (const char* env = std::getenv("RECFLOW_TESTDATA_DIR"); env != nullptr && *env != '\0') return env;
  return RECFLOW_TESTDATA_DIR;
}

bool HaveTestdata() { return std::filesystem::is_directory(TestdataDir() / "tfrecord"); }

ScratchDir::ScratchDir() {
  std::random_device rd;
  std::filesystem::path base = std::filesystem::temp_directory_path();
  for (;;) {
    path_ = base / ("recflow-test-" + std::to_string(rd()));
    if (std::filesystem::create_directory(path_)) break;
  }
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace recflow::testing
