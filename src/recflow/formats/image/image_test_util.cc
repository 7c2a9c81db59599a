// Test helpers for images: sample file locations, Pillow oracle runs and pixel comparisons.
#include "recflow/formats/image/image_test_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "recflow/core/io.h"
#include "recflow/testing/testdata.h"

namespace recflow::image::testing {
namespace {

std::string Quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string OracleCommand(const std::vector<std::string>& args, const std::string& out) {
  std::string command = "/usr/bin/python3 " + Quote(RECFLOW_PILLOW_ORACLE);
  for (const auto& arg : args) command += " " + Quote(arg == "OUT" ? out : arg);
  return command;
}

template <typename T>
double MaxDiff(const T* a, const T* b, int64_t n) {
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::fabs(double(a[i]) - double(b[i])));
  return worst;
}

}  // namespace

std::string SkimageDataDir() { return "/usr/lib/python3/dist-packages/skimage/data"; }

std::string SkimageFile(const std::string& name) { return SkimageDataDir() + "/" + name; }

bool HavePillow() {
  static const bool have = std::system("/usr/bin/python3 -c 'import PIL' > /dev/null 2>&1") == 0;
  return have;
}

Status RunPillowCommand(const std::vector<std::string>& args) {
  const std::string command = OracleCommand(args, "");
  if (std::system(command.c_str()) != 0) return Status::IOError("Pillow oracle failed: " + command);
  return Status::OK();
}

Result<Image> RunPillow(const std::vector<std::string>& args) {
  recflow::testing::ScratchDir dir;
  const std::string out = dir.File("pillow.raw");
  const std::string command = OracleCommand(args, out);
  if (std::system(command.c_str()) != 0) return Status::IOError("Pillow oracle failed: " + command);
  ASSIGN_OR_RETURN(auto bytes, ReadWholeFile(out));
  const std::string_view all = bytes->view();
  const size_t newline = all.find('\n');
  if (newline == std::string_view::npos) return Status::DataError("Pillow dump without a header");
  std::istringstream header{std::string(all.substr(0, newline))};
  int height = 0, width = 0, channels = 0;
  std::string dtype;
  header >> height >> width >> channels >> dtype;
  const auto type = ParsePixelType(dtype);
  if (!type) return Status::DataError("Pillow dump dtype " + dtype);
  ASSIGN_OR_RETURN(auto pixels, Buffer::CopyOf(bytes->span().subspan(newline + 1)));
  return Image::Wrap(height, width, channels, *type, std::move(pixels));
}

Status WriteFileBytes(const std::string& path, const Buffer& bytes) {
  ASSIGN_OR_RETURN(auto out, FileOutputStream::Open(path));
  RETURN_NOT_OK(out->Write(bytes.data(), bytes.size()));
  return out->Close();
}

double MaxAbsDiff(const Image& a, const Image& b) {
  if (a.height() != b.height() || a.width() != b.width() || a.channels() != b.channels() ||
      a.pixel_type() != b.pixel_type()) {
    return -1;
  }
  const int64_t n = int64_t{a.height()} * a.width() * a.channels();
  switch (a.pixel_type()) {
    case PixelType::kUInt8: return MaxDiff(a.samples<uint8_t>(), b.samples<uint8_t>(), n);
    case PixelType::kUInt16: return MaxDiff(a.samples<uint16_t>(), b.samples<uint16_t>(), n);
    case PixelType::kFloat32: return MaxDiff(a.samples<float>(), b.samples<float>(), n);
  }
  return -1;
}

}  // namespace recflow::image::testing
