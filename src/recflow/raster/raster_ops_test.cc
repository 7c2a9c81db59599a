// warp, mosaic and chips on the shared Sentinel-2 red band: an identity warp and a two-raster mosaic read back equal to GDAL's read of
// the file, the chip grid, and the refusals of each.
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <tbb/task_arena.h>
#include <gtest/gtest.h>

#include "recflow/raster/chips.h"
#include "recflow/raster/mosaic_raster.h"
#include "recflow/raster/open_raster.h"
#include "recflow/raster/warp_raster.h"
#include "recflow/testing/testdata.h"

namespace recflow::raster {
namespace {

std::string Red() { return (testing::TestdataDir() / "raster/sentinel2-l2a/B04.tif").string(); }

// The red band's DN over `window` (x, y, w, h), NaN for nodata (0), read by GDAL directly.
std::vector<float> GdalWindow(int x, int y, int w, int h) {
  InitGdal();
  std::unique_ptr<GDALDataset> ds(GDALDataset::Open(Red().c_str(), GDAL_OF_RASTER));
  std::vector<float> v(static_cast<size_t>(w) * static_cast<size_t>(h));
  EXPECT_EQ(ds->GetRasterBand(1)->RasterIO(GF_Read, x, y, w, h, v.data(), w, h, GDT_Float32, 0, 0, nullptr), CE_None);
  for (float& f : v) f = f == 0 ? std::nanf("") : f;
  return v;
}

Result<RasterRef> OpenRed(std::optional<std::array<int64_t, 4>> window = std::nullopt) {
  OpenOptions options;
  BandSource s;
  s.name = "red";
  s.dataset = Red();
  options.bands = {s};
  options.window = window;
  return OpenRaster(options);
}

// `ref` over `rect`, read as one chip by ReadChips (on this thread's arena).
std::vector<float> ReadChip(const RasterRef& ref, const TileRect& rect) {
  std::vector<float> values;
  const TileRect rects[] = {rect};
  EXPECT_TRUE(ReadChips(ref, rects, {}, StopToken(), [&](size_t, std::span<const float> chip) {
                values.assign(chip.begin(), chip.end());
                return Status::OK();
              }).ok());
  return values;
}

// `ref` whole, read as one chip.
std::vector<float> ReadAll(const RasterRef& ref) { return ReadChip(ref, {0, 0, ref.width, ref.height}); }

void ExpectSame(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << i;
    } else {
      ASSERT_EQ(got[i], want[i]) << i;
    }
  }
}

TEST(RasterOpsTest, WarpOntoItsOwnGridIsTheBand) {
  RECFLOW_REQUIRE_TESTDATA();
  auto red = OpenRed(std::array<int64_t, 4>{100, 200, 300, 250});
  ASSERT_TRUE(red.ok()) << red.status().ToString();
  WarpOptions options;
  options.like = TargetGrid{red->crs, red->transform, red->width, red->height};
  auto warped = WarpRaster(*red, options);
  ASSERT_TRUE(warped.ok()) << warped.status().ToString();
  EXPECT_EQ(warped->width, 300);
  EXPECT_EQ(warped->height, 250);
  EXPECT_EQ(warped->bands[0].dataset.rfind("<VRTDataset", 0), 0u);
  ExpectSame(ReadAll(*warped), GdalWindow(100, 200, 300, 250));
}

TEST(RasterOpsTest, WarpRefusals) {
  WarpOptions bad_crs;
  bad_crs.crs = "EPSG:999999";
  EXPECT_TRUE(bad_crs.Validate().code() == StatusCode::kInvalidArgument);
  WarpOptions both;
  both.crs = "EPSG:4326";
  both.like = TargetGrid{"EPSG:4326", {0, 1, 0, 0, 0, -1}, 10, 10};
  EXPECT_TRUE(both.Validate().code() == StatusCode::kInvalidArgument);
  WarpOptions empty_extent;
  empty_extent.extent = std::array<double, 4>{1, 1, 0, 2};
  EXPECT_TRUE(empty_extent.Validate().code() == StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseResampling("lanczos").ok());
  RECFLOW_REQUIRE_TESTDATA();
  auto red = OpenRed();
  ASSERT_TRUE(red.ok());
  WarpOptions small;
  small.resolution = std::array<double, 2>{1, 1};
  small.max_pixels = 1000;
  auto refused = WarpRaster(*red, small);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("more than max_pixels (1000)"), std::string::npos);
}

TEST(RasterOpsTest, MosaicOfTwoWindowsIsTheirUnion) {
  RECFLOW_REQUIRE_TESTDATA();
  auto a = OpenRed(std::array<int64_t, 4>{0, 0, 60, 40});
  auto b = OpenRed(std::array<int64_t, 4>{50, 30, 70, 50});
  ASSERT_TRUE(a.ok() && b.ok());
  const std::vector<RasterRef> rasters{*a, *b};
  auto mosaic = MosaicRasters(rasters, MosaicOptions{});
  ASSERT_TRUE(mosaic.ok()) << mosaic.status().ToString();
  ASSERT_EQ(mosaic->width, 120);
  ASSERT_EQ(mosaic->height, 80);
  // One scene: where either window covers a pixel it holds the band's value, elsewhere nodata.
  const std::vector<float> whole = GdalWindow(0, 0, 120, 80);
  std::vector<float> want(whole.size(), std::nanf(""));
  for (int y = 0; y < 80; ++y) {
    for (int x = 0; x < 120; ++x) {
      if ((x < 60 && y < 40) || (x >= 50 && y >= 30)) want[static_cast<size_t>(y * 120 + x)] = whole[y * 120 + x];
    }
  }
  ExpectSame(ReadAll(*mosaic), want);
}

TEST(RasterOpsTest, MosaicRefusals) {
  EXPECT_FALSE(MosaicRasters({}, MosaicOptions{}).ok());
  EXPECT_FALSE(ParseMosaicRule("median").ok());
  RECFLOW_REQUIRE_TESTDATA();
  auto a = OpenRed();
  ASSERT_TRUE(a.ok());
  RasterRef renamed = *a;
  renamed.bands[0].name = "nir";
  const std::vector<RasterRef> rasters{*a, renamed};
  auto refused = MosaicRasters(rasters, MosaicOptions{});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("raster 1 has band 'nir' where raster 0 has 'red'"), std::string::npos);
}

TEST(RasterOpsTest, ChipRectsDropOrPadTheEdges) {
  RasterRef ref;
  ref.width = 100;
  ref.height = 50;
  ChipOptions options;
  options.size = 40;
  options.stride = 30;
  EXPECT_EQ(ChipRects(ref, options).size(), 3u * 1u);  // x 0, 30, 60; y 0
  options.pad = true;
  EXPECT_EQ(ChipRects(ref, options).size(), 4u * 2u);  // x 0, 30, 60, 90; y 0, 30
  options.size = 0;
  EXPECT_TRUE(options.Validate().code() == StatusCode::kInvalidArgument);
}

TEST(RasterOpsTest, APaddedChipIsNaNBeyondTheGrid) {
  RECFLOW_REQUIRE_TESTDATA();
  auto red = OpenRed(std::array<int64_t, 4>{0, 0, 50, 50});
  ASSERT_TRUE(red.ok());
  const std::vector<float> chip = ReadChip(*red, {40, 30, 20, 20});
  ASSERT_EQ(chip.size(), 400u);
  const std::vector<float> inside = GdalWindow(40, 30, 10, 20);
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 20; ++x) {
      const float v = chip[static_cast<size_t>(y * 20 + x)];
      if (x >= 10) {
        EXPECT_TRUE(std::isnan(v));
      } else if (!std::isnan(inside[static_cast<size_t>(y * 10 + x)])) {
        EXPECT_EQ(v, inside[static_cast<size_t>(y * 10 + x)]);
      }
    }
  }
}

// `/vsicount/PATH`: PATH read through GDAL's VSI, counting each time the file is opened.
std::atomic<int> opens{0};

void InstallCountingFileSystem() {
  static const bool installed = [] {
    VSIFilesystemPluginCallbacksStruct* cb = VSIAllocFilesystemPluginCallbacksStruct();
    cb->open = [](void*, const char* name, const char* access) -> void* {
      VSILFILE* f = VSIFOpenL(name, access);  // the name without the prefix
      if (f != nullptr) ++opens;
      return f;
    };
    cb->stat = [](void*, const char* name, VSIStatBufL* st, int flags) { return VSIStatExL(name, st, flags); };
    cb->tell = [](void* f) { return VSIFTellL(static_cast<VSILFILE*>(f)); };
    cb->seek = [](void* f, vsi_l_offset at, int whence) { return VSIFSeekL(static_cast<VSILFILE*>(f), at, whence); };
    cb->read = [](void* f, void* buffer, size_t size, size_t count) {
      return VSIFReadL(buffer, size, count, static_cast<VSILFILE*>(f));
    };
    cb->eof = [](void* f) { return VSIFEofL(static_cast<VSILFILE*>(f)); };
    cb->close = [](void* f) { return VSIFCloseL(static_cast<VSILFILE*>(f)); };
    const bool ok = VSIInstallPluginHandler("/vsicount/", cb) == 0;
    VSIFreeFilesystemPluginCallbacksStruct(cb);
    return ok;
  }();
  ASSERT_TRUE(installed);
}

TEST(RasterOpsTest, ChipsOfARowOpenTheDatasetOncePerThreadNotPerChip) {
  RECFLOW_REQUIRE_TESTDATA();
  InitGdal();
  InstallCountingFileSystem();
  OpenOptions options;
  BandSource s;
  s.name = "red";
  s.dataset = "/vsicount/" + Red();
  options.bands = {s};
  options.window = std::array<int64_t, 4>{0, 0, 300, 200};
  auto red = OpenRaster(options);
  ASSERT_TRUE(red.ok()) << red.status().ToString();
  ChipOptions grid;
  grid.size = 32;
  grid.stride = 32;
  const std::vector<TileRect> rects = ChipRects(*red, grid);
  ASSERT_EQ(rects.size(), 9u * 6u);
  tbb::task_arena arena(2);
  opens = 0;
  size_t next = 0;
  const Status read = arena.execute([&] {
    return ReadChips(*red, rects, {}, StopToken(), [&](size_t i, std::span<const float> chip) {
      EXPECT_EQ(i, next++);  // in order
      const TileRect& r = rects[i];
      ExpectSame(std::vector<float>(chip.begin(), chip.end()), GdalWindow(static_cast<int>(r.x), static_cast<int>(r.y),
                                                                          32, 32));
      return Status::OK();
    });
  });
  ASSERT_TRUE(read.ok()) << read.ToString();
  EXPECT_EQ(next, rects.size());
  // One handle per thread of the arena (a chip per open was 54).
  EXPECT_GE(opens.load(), 1);
  EXPECT_LE(opens.load(), 2);
}

TEST(RasterOpsTest, AChipLargerThanATileIsReadInPiecesOfRows) {
  RECFLOW_REQUIRE_TESTDATA();
  auto red = OpenRed();
  ASSERT_TRUE(red.ok());
  // 1098 × 1098 padded to 2100 × 2100: 4.4 Mi pixels, more than kMaxTilePixels, read in two pieces.
  const std::vector<float> chip = ReadChip(*red, {0, 0, 2100, 2100});
  ASSERT_EQ(chip.size(), 2100u * 2100u);
  const std::vector<float> band = GdalWindow(0, 0, 1098, 1098);
  for (int y = 0; y < 2100; y += 7) {
    for (int x = 0; x < 2100; x += 5) {
      const float v = chip[static_cast<size_t>(y) * 2100 + static_cast<size_t>(x)];
      if (x >= 1098 || y >= 1098) {
        ASSERT_TRUE(std::isnan(v)) << x << "," << y;
      } else {
        const float want = band[static_cast<size_t>(y) * 1098 + static_cast<size_t>(x)];
        ASSERT_TRUE(std::isnan(want) ? std::isnan(v) : v == want) << x << "," << y;
      }
    }
  }
}

}  // namespace
}  // namespace recflow::raster
