// Rasters through GDAL: the shared Sentinel-2 and Landsat bands opened, tiled, evaluated and written back; hostile files refused by name.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include <cpl_string.h>
#include <gdal_priv.h>
#include <gtest/gtest.h>
#include <ogr_spatialref.h>
#include <tbb/task_arena.h>

#include "recflow/raster/open_raster.h"
#include "recflow/raster/tiles.h"
#include "recflow/raster/write_raster.h"
#include "recflow/testing/testdata.h"

namespace recflow::raster {
namespace {

std::string S2(const std::string& band) { return (testing::TestdataDir() / "raster/sentinel2-l2a" / band).string(); }

BandSource Source(std::string name, std::string dataset, double scale = 1.0) {
  BandSource s;
  s.name = std::move(name);
  s.dataset = std::move(dataset);
  s.scale = scale;
  return s;
}

// The shared Sentinel-2 red band as reflectance (DN × 1e-4).
Result<RasterRef> OpenRed() {
  OpenOptions options;
  options.bands = {Source("red", S2("B04.tif"), 1e-4)};
  return OpenRaster(options);
}

// Band 1 of `path` whole, as doubles, read by GDAL directly.
std::vector<double> ReadWhole(const std::string& path, int band = 1) {
  InitGdal();
  std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER));
  EXPECT_NE(ds, nullptr) << path;
  if (ds == nullptr) return {};
  GDALRasterBand* b = ds->GetRasterBand(band);
  std::vector<double> v(static_cast<size_t>(b->GetXSize()) * static_cast<size_t>(b->GetYSize()));
  EXPECT_EQ(b->RasterIO(GF_Read, 0, 0, b->GetXSize(), b->GetYSize(), v.data(), b->GetXSize(), b->GetYSize(),
                        GDT_Float64, 0, 0, nullptr),
            CE_None);
  return v;
}

// A `width` × `height` one-band uint16 GeoTIFF in UTM 29N (no CRS when `crs` is false), pixel value x + y.
void MakeTiff(const std::string& path, int width, int height, bool crs = true,
              std::initializer_list<const char*> extra = {}) {
  InitGdal();
  CPLStringList options;
  options.SetNameValue("TILED", "YES");
  for (const char* option : extra) options.AddString(option);
  std::unique_ptr<GDALDataset> ds(GetGDALDriverManager()->GetDriverByName("GTiff")->Create(
      path.c_str(), width, height, 1, GDT_UInt16, options.List()));
  ASSERT_NE(ds, nullptr);
  double gt[6] = {500000, 10, 0, 4000000, 0, -10};
  ds->SetGeoTransform(gt);
  if (crs) {
    OGRSpatialReference srs;
    srs.importFromEPSG(32629);
    ds->SetSpatialRef(&srs);
  }
  if (static_cast<int64_t>(width) * height <= 4096 * 4096) {
    std::vector<uint16_t> v(static_cast<size_t>(width) * static_cast<size_t>(height));
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) v[static_cast<size_t>(y) * width + x] = static_cast<uint16_t>(x + y);
    }
    ASSERT_EQ(ds->GetRasterBand(1)->RasterIO(GF_Write, 0, 0, width, height, v.data(), width, height, GDT_UInt16, 0, 0,
                                             nullptr),
              CE_None);
  }
}

TEST(RasterIoTest, OpensSentinel2BandsWithTheirGridAndBlocks) {
  RECFLOW_REQUIRE_TESTDATA();
  OpenOptions options;
  options.bands = {Source("blue", S2("B02.tif")), Source("red", S2("B04.tif")), Source("nir", S2("B08.tif"))};
  auto ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(ref->width, 1098);
  EXPECT_EQ(ref->height, 1098);
  EXPECT_EQ(ref->transform, (std::array<double, 6>{199980, 100, 0, 2800020, 0, -100}));
  EXPECT_NE(ref->crs.find("32629"), std::string::npos);
  ASSERT_EQ(ref->bands.size(), 3u);
  EXPECT_EQ(ref->bands[1].type, "UInt16");
  EXPECT_EQ(ref->bands[1].nodata, 0.0);
  EXPECT_EQ(ref->bands[1].block_width, 512);
  // Tiles follow the 512 × 512 blocks: 3 × 3, the last row and column 74 pixels.
  const auto tiles = TilesOf(*ref);
  ASSERT_EQ(tiles.size(), 9u);
  EXPECT_EQ(tiles[2].x, 1024);
  EXPECT_EQ(tiles[2].width, 74);
  EXPECT_EQ(tiles[8].height, 74);
}

TEST(RasterIoTest, SmallBlocksAreReadSeveralAtATime) {
  RECFLOW_REQUIRE_TESTDATA();
  // Landsat's uncompressed SR bands are strips of 10 rows, 379 pixels wide: 70 rows per tile
  // (the first multiple of 10 reaching 256 Ki pixels), on strip boundaries.
  OpenOptions options;
  options.bands = {Source("red", (testing::TestdataDir() / "raster/landsat8-c2l2/SR_B4.TIF").string())};
  auto ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->bands[0].block_width, 379);
  EXPECT_EQ(ref->bands[0].block_height, 10);
  const auto tiles = TilesOf(*ref);
  ASSERT_EQ(tiles.size(), 1u);  // 379 × 386 is under 256 Ki pixels: one tile
  // 16 × 16 tiles of a 1024 × 1024 file: 512 × 512 tiles (32 blocks a side).
  testing::ScratchDir dir;
  MakeTiff(dir.File("small.tif"), 1024, 1024, true, {"BLOCKXSIZE=16", "BLOCKYSIZE=16"});
  options.bands = {Source("red", dir.File("small.tif"))};
  ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->bands[0].block_width, 16);
  const auto small = TilesOf(*ref);
  ASSERT_EQ(small.size(), 4u);
  EXPECT_EQ(small[1].x, 512);
  EXPECT_EQ(small[3].height, 512);
}

TEST(RasterIoTest, WindowsAndOverviewsMoveTheGrid) {
  RECFLOW_REQUIRE_TESTDATA();
  OpenOptions options;
  options.bands = {Source("red", S2("B04.tif"))};
  options.window = std::array<int64_t, 4>{600, 100, 450, 50};
  auto ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(ref->transform[0], 199980 + 600 * 100);
  EXPECT_EQ(ref->transform[3], 2800020 - 100 * 100);
  // Tiles break at the block edge x = 1024 of the file (424 pixels into the window).
  const auto tiles = TilesOf(*ref);
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[0].x, 0);
  EXPECT_EQ(tiles[0].width, 424);
  EXPECT_EQ(tiles[1].x, 424);
  EXPECT_EQ(tiles[1].width, 26);
  options.window.reset();
  options.bbox = std::array<double, 4>{199980 + 150, 2800020 - 250, 199980 + 350, 2800020 - 1};
  ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->width, 3);   // columns 1..3
  EXPECT_EQ(ref->height, 3);  // rows 0..2
  options.bbox.reset();
  options.overview = 0;
  ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->width, 549);
  EXPECT_EQ(ref->transform[1], 200);
  options.overview = 5;
  EXPECT_EQ(OpenRaster(options).status().ToString(),
            S2("B04.tif") + ": band 1 ('red'): no overview 5 (the band has 2)");
}

TEST(RasterIoTest, WrittenCogHoldsTheValuesGdalReads) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  auto ref = OpenRed();
  ASSERT_TRUE(ref.ok());
  const std::string out = dir.File("red.tif");
  auto stats = WriteRaster(*ref, out, WriteOptions::Defaults());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  const auto dn = ReadWhole(S2("B04.tif"));
  const auto written = ReadWhole(out);
  ASSERT_EQ(dn.size(), written.size());
  int64_t valid = 0;
  for (size_t i = 0; i < dn.size(); ++i) {
    if (dn[i] == 0) {
      ASSERT_TRUE(std::isnan(written[i])) << i;
    } else {
      ++valid;
      ASSERT_EQ(written[i], static_cast<float>(dn[i] * 1e-4)) << i;
    }
  }
  EXPECT_EQ(stats->valid_count, valid);
  std::unique_ptr<GDALDataset> ds(GDALDataset::Open(out.c_str(), GDAL_OF_RASTER));
  ASSERT_NE(ds, nullptr);
  EXPECT_STREQ(ds->GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE"), "COG");
  EXPECT_GE(ds->GetRasterBand(1)->GetOverviewCount(), 1);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// The bytes of the file at `path`.
std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RasterIoTest, TilesCompressedOnTheWorkersAreWhatGdalReadsAndTheSameOnAnyThreadCount) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  auto ref = OpenRed();
  ASSERT_TRUE(ref.ok());
  const auto dn = ReadWhole(S2("B04.tif"));
  for (const char* compress : {"DEFLATE", "ZSTD", "LZW", "NONE"}) {
    WriteOptions write = WriteOptions::Defaults();
    write.layout = WriteOptions::Layout::kGeoTiff;
    write.compress = compress;
    write.block_size = 256;  // 1098 pixels: the last tile column and row are 74 pixels, padded
    write.overviews = false;
    std::string bytes[2];
    WriteStats stats[2];
    for (const int threads : {1, 2}) {
      const std::string out = dir.File(std::string(compress) + std::to_string(threads) + ".tif");
      tbb::task_arena arena(threads);
      auto written = arena.execute([&] { return WriteRaster(*ref, out, write); });
      ASSERT_TRUE(written.ok()) << written.status().ToString();
      stats[threads - 1] = *written;
      bytes[threads - 1] = FileBytes(out);
    }
    EXPECT_TRUE(bytes[0] == bytes[1]) << compress << ": the file differs between 1 and 2 threads";
    EXPECT_EQ(stats[0].mean, stats[1].mean) << compress;
    const std::string out = dir.File(std::string(compress) + "1.tif");
    const auto written = ReadWhole(out);
    ASSERT_EQ(written.size(), dn.size()) << compress;
    for (size_t i = 0; i < dn.size(); ++i) {
      if (dn[i] == 0) {
        ASSERT_TRUE(std::isnan(written[i])) << compress << " " << i;
      } else {
        ASSERT_EQ(written[i], static_cast<float>(dn[i] * 1e-4)) << compress << " " << i;
      }
    }
    std::unique_ptr<GDALDataset> ds(GDALDataset::Open(out.c_str(), GDAL_OF_RASTER));
    ASSERT_NE(ds, nullptr);
    const char* compression = ds->GetMetadataItem("COMPRESSION", "IMAGE_STRUCTURE");
    EXPECT_STREQ(compression, std::string(compress) == "NONE" ? nullptr : compress);
    const char* predictor = ds->GetMetadataItem("PREDICTOR", "IMAGE_STRUCTURE");
    EXPECT_STREQ(predictor, std::string(compress) == "NONE" ? nullptr : "3") << compress;
    int block_w = 0, block_h = 0;
    ds->GetRasterBand(1)->GetBlockSize(&block_w, &block_h);
    EXPECT_EQ(block_w, 256);
    EXPECT_EQ(block_h, 256);
    std::array<double, 6> gt{};
    ASSERT_EQ(ds->GetGeoTransform(gt.data()), CE_None);
    EXPECT_EQ(gt, ref->transform);
  }
}

TEST(RasterIoTest, Sentinel2BoaOffsetFollowsTheProcessingBaseline) {
  testing::ScratchDir dir;
  for (const char* baseline : {"04.00", "05.09", "02.14"}) {
    const std::string path = dir.File(std::string("b") + baseline + ".tif");
    MakeTiff(path, 16, 16);
    {
      std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_UPDATE));
      ASSERT_NE(ds, nullptr);
      ds->SetMetadataItem("PROCESSING_BASELINE", baseline);
      if (std::string(baseline) == "05.09") ds->SetMetadataItem("BOA_ADD_OFFSET", "-2000");
    }
    OpenOptions options;
    options.bands = {Source("red", path, 1e-4)};
    options.bands[0].sentinel2_boa_offset = true;
    auto ref = OpenRaster(options);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    const double dn_offset = std::string(baseline) == "04.00" ? -1000 : std::string(baseline) == "05.09" ? -2000 : 0;
    EXPECT_DOUBLE_EQ(ref->bands[0].offset, dn_offset * 1e-4) << baseline;
    EXPECT_EQ(ref->bands[0].nodata, 0.0) << baseline;  // DN 0 is nodata when the file declares none
    // Read back: (DN + offset) / 10000, NaN at DN 0 (pixel 0,0 has x + y = 0).
    TileReader reader(*ref, {});
    std::vector<std::vector<double>> bands(1);
    const int band = 0;
    ASSERT_TRUE(reader.ReadBands({&band, 1}, {0, 0, 16, 16}, bands).ok());
    EXPECT_TRUE(std::isnan(bands[0][0]));
    EXPECT_DOUBLE_EQ(bands[0][17], 2 * 1e-4 + dn_offset * 1e-4);
  }
}

TEST(RasterIoTest, ConfigIsSetWhileOpeningOnly) {
  testing::ScratchDir dir;
  const std::string path = dir.File("pam.tif");
  MakeTiff(path, 16, 16);
  {
    // Read-only, the nodata value goes to GDAL's side file (PAM: pam.tif.aux.xml).
    std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER));
    ASSERT_NE(ds, nullptr);
    ds->GetRasterBand(1)->SetNoDataValue(7);
  }
  ASSERT_TRUE(std::filesystem::exists(path + ".aux.xml"));
  OpenOptions options;
  options.bands = {Source("red", path)};
  // GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR (InitGdal's default): no side file is looked for.
  auto ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_FALSE(ref->bands[0].nodata.has_value());
  options.config = {{"GDAL_DISABLE_READDIR_ON_OPEN", "NO"}};
  ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->bands[0].nodata, 7.0);
  // Restored after the open.
  options.config.clear();
  EXPECT_FALSE(OpenRaster(options)->bands[0].nodata.has_value());
}

TEST(RasterIoTest, MismatchedBandSizesAreRefusedByName) {
  testing::ScratchDir dir;
  MakeTiff(dir.File("a.tif"), 64, 64);
  MakeTiff(dir.File("b.tif"), 32, 64);
  OpenOptions options;
  options.bands = {Source("red", dir.File("a.tif")), Source("nir", dir.File("b.tif"))};
  EXPECT_EQ(OpenRaster(options).status().ToString(),
            dir.File("b.tif") +
                ": band 1 ('nir'): its grid (32×64, origin 500000, 4000000, pixel 10 × -10) differs "
                "from red's (64×64, origin 500000, 4000000, pixel 10 × -10); bands must share one grid");
}

TEST(RasterIoTest, AMissingCrsIsRefusedUnlessAllowed) {
  testing::ScratchDir dir;
  MakeTiff(dir.File("a.tif"), 16, 16, /*crs=*/false);
  OpenOptions options;
  options.bands = {Source("red", dir.File("a.tif"))};
  EXPECT_EQ(OpenRaster(options).status().ToString(),
            dir.File("a.tif") + ": band 1 ('red'): the dataset has no CRS GDAL understands");
  options.allow_missing_crs = true;
  EXPECT_TRUE(OpenRaster(options).ok());
}

TEST(RasterIoTest, AHugeHeaderIsRefusedBeforeAnyRead) {
  testing::ScratchDir dir;
  // A 16 × 16 stripped GeoTIFF whose ImageWidth and ImageLength tags then say 10^6 (classic
  // little-endian TIFF: the first IFD's offset at byte 4, 12-byte entries of tag, type, count, value).
  const std::string path = dir.File("huge.tif");
  MakeTiff(path, 16, 16, true, {"TILED=NO"});
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_EQ(bytes.substr(0, 4), std::string("II*\0", 4));
  auto u16 = [&](size_t at) {
    return static_cast<uint32_t>(static_cast<uint8_t>(bytes[at]) | static_cast<uint8_t>(bytes[at + 1]) << 8);
  };
  const size_t ifd = u16(4) | u16(6) << 16;
  int patched = 0;
  for (size_t i = 0; i < u16(ifd); ++i) {
    const size_t entry = ifd + 2 + 12 * i;
    const uint32_t tag = u16(entry);
    if (tag != 256 && tag != 257) continue;
    constexpr uint32_t kMillion = 1000000;
    bytes[entry + 2] = 4;  // LONG
    bytes[entry + 3] = 0;
    for (int k = 0; k < 4; ++k) bytes[entry + 8 + static_cast<size_t>(k)] = static_cast<char>(kMillion >> (8 * k));
    ++patched;
  }
  ASSERT_EQ(patched, 2);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  OpenOptions options;
  options.bands = {Source("red", path)};
  const Status st = OpenRaster(options).status();
  EXPECT_EQ(st.ToString(), path + ": band 1 ('red'): declares 1000000 × 1000000 pixels, more than max_pixels "
                                  "(68719476736)");
}

TEST(RasterIoTest, ATruncatedTiffNamesTheBandTheBlockAndItsOffset) {
  testing::ScratchDir dir;
  const std::string path = dir.File("cut.tif");
  MakeTiff(path, 1024, 1024, true, {"COMPRESS=DEFLATE"});
  OpenOptions options;
  options.bands = {Source("red", path)};
  auto ref = OpenRaster(options);
  ASSERT_TRUE(ref.ok());
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  WriteOptions write = WriteOptions::Defaults();
  const std::string out = dir.File("out.tif");
  const Status st = WriteRaster(*ref, out, write).status();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.context().file, path) << st.ToString();
  EXPECT_NE(st.message().find("cannot read band 1 ('red'), block "), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find(") at byte offset "), std::string::npos) << st.ToString();
  // A failed write leaves nothing behind.
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(RasterIoTest, AStoppedWriteIsCancelledAndLeavesNothing) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  auto ref = OpenRed();
  ASSERT_TRUE(ref.ok());
  for (const auto layout : {WriteOptions::Layout::kCog, WriteOptions::Layout::kGeoTiff}) {
    StopSource source;
    WriteOptions write = WriteOptions::Defaults();
    write.layout = layout;
    write.stop_token = source.token();
    ASSERT_TRUE(source.RequestStop());
    const Status st = WriteRaster(*ref, dir.File("red.tif"), write).status();
    EXPECT_EQ(st.code(), StatusCode::kCancelled) << st.ToString();
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 0);
  }
}

}  // namespace
}  // namespace recflow::raster
