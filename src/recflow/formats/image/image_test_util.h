// Test and benchmark helpers for images: real files from Debian packages and Pillow as the oracle.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::image::testing {

/// The sample images python3-skimage ships (JPEG, 8-bit/palette/bilevel PNG, truncated.jpg).
std::string SkimageDataDir();
/// SkimageDataDir() / name.
std::string SkimageFile(const std::string& name);
/// True when /usr/bin/python3 can import PIL (python3-pil); Pillow tests skip otherwise.
bool HavePillow();
/// Runs tests/python/pillow_oracle.py with `args`; the output dump (the word OUT in `args` is
/// replaced by a scratch file) is read back as an image.
Result<Image> RunPillow(const std::vector<std::string>& args);
/// Runs tests/python/pillow_oracle.py with `args` for its side effect (e.g. writing a file).
Status RunPillowCommand(const std::vector<std::string>& args);
/// Writes `bytes` to a new file at `path`.
Status WriteFileBytes(const std::string& path, const Buffer& bytes);
/// Largest |a - b| over all samples (images must have the same shape and type; else -1).
double MaxAbsDiff(const Image& a, const Image& b);

}  // namespace recflow::image::testing
