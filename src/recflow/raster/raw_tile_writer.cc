// RawTileWriter on libtiff: TIFFOpenExt with a per-file error handler, TIFFComputeTile and TIFFWriteRawTile.
#include "recflow/raster/raw_tile_writer.h"

#include <cstdarg>
#include <cstdio>

#include <fmt/format.h>
#include <tiffio.h>

namespace recflow::raster {

// The open file and the last message libtiff reported for it.
struct RawTileWriter::State {
  std::string path;
  TIFF* tiff = nullptr;
  std::string message;
};

namespace {

int KeepMessage(TIFF*, void* user_data, const char* module, const char* format, va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof(text), format, args);
  auto* message = static_cast<std::string*>(user_data);
  *message = (module != nullptr ? std::string(module) + ": " : std::string()) + text;
  return 1;
}

int IgnoreWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

RawTileWriter::RawTileWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

RawTileWriter::~RawTileWriter() {
  if (state_->tiff != nullptr) TIFFClose(state_->tiff);
}

Result<std::unique_ptr<RawTileWriter>> RawTileWriter::Open(const std::string& path) {
  auto state = std::make_unique<State>();
  state->path = path;
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(options, KeepMessage, &state->message);
  TIFFOpenOptionsSetWarningHandlerExtR(options, IgnoreWarning, nullptr);
  state->tiff = TIFFOpenExt(path.c_str(), "r+", options);
  TIFFOpenOptionsFree(options);
  std::unique_ptr<RawTileWriter> writer(new RawTileWriter(std::move(state)));
  if (writer->state_->tiff == nullptr) return writer->Error("cannot open the TIFF to write its tiles");
  if (!TIFFIsTiled(writer->state_->tiff)) return Status::Internal("the TIFF is not tiled").WithFile(path);
  return writer;
}

Status RawTileWriter::Error(const std::string& what) {
  std::string message = what;
  if (!state_->message.empty()) message += ": " + state_->message;
  state_->message.clear();
  return Status::IOError(std::move(message)).WithFile(state_->path);
}

Status RawTileWriter::Write(int band, int64_t x, int64_t y, std::span<const uint8_t> bytes) {
  const uint32_t tile = TIFFComputeTile(state_->tiff, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 0,
                                        static_cast<uint16_t>(band));
  if (TIFFWriteRawTile(state_->tiff, tile, const_cast<uint8_t*>(bytes.data()), static_cast<tmsize_t>(bytes.size())) !=
      static_cast<tmsize_t>(bytes.size())) {
    return Error(fmt::format("cannot write band {}'s tile at pixels {},{}", band + 1, x, y));
  }
  return Status::OK();
}

Status RawTileWriter::Close() {
  TIFF* tiff = state_->tiff;
  state_->tiff = nullptr;
  // TIFFFlush reports a failed write of the directory; TIFFClose does not.
  const bool flushed = TIFFFlush(tiff) == 1;
  TIFFClose(tiff);
  if (!flushed) return Error("cannot write the TIFF's tile offsets");
  return Status::OK();
}

}  // namespace recflow::raster
