// Locating the shared interop test data and making scratch directories in tests.
#pragma once

#include <filesystem>
#include <string>

namespace recflow::testing {

/// The shared testdata folder (../shared/testdata beside the checkout, or $RECFLOW_TESTDATA_DIR).
std::filesystem::path TestdataDir();

/// True when the shared testdata folder exists; interop tests GTEST_SKIP() otherwise.
bool HaveTestdata();

/// A fresh, empty directory under the system temp dir, removed when the object is destroyed.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  /// path() / name as a string.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace recflow::testing

/// Skips the current test, saying why, when the shared interop data is absent.
#define RECFLOW_REQUIRE_TESTDATA()                                                          \
  do {                                                                                      \
    if (!::recflow::testing::HaveTestdata())                                                \
      GTEST_SKIP() << "shared testdata not found at " << ::recflow::testing::TestdataDir(); \
  } while (false)
