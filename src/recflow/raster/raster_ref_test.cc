// RasterRef's JSON: a round trip keeps every field, and text that is not a raster value is refused.
#include "recflow/raster/raster_ref.h"

#include <gtest/gtest.h>

namespace recflow::raster {
namespace {

TEST(RasterRefTest, RoundTripsEveryField) {
  RasterRef r;
  r.width = 10980;
  r.height = 7;
  r.crs = "PROJCRS[\"WGS 84 / UTM \\\"29N\\\"\"]\n\t";
  r.transform = {199980.5, 100, 0, 2800020, 0, -100.25};
  r.expression = "2.5 * (nir - red)";
  BandRef b{"red", "/vsicurl/http://127.0.0.1/B04.tif", 3, 1, "UInt16", 1e-4, -0.1, 0.0, 5, 6, 512, 256};
  r.bands = {b, b};
  r.bands[1].name = "nir";
  r.bands[1].nodata.reset();
  auto back = RasterRef::FromJson(r.ToJson());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToJson(), r.ToJson());
  EXPECT_EQ(back->crs, r.crs);
  EXPECT_EQ(back->transform, r.transform);
  EXPECT_EQ(back->bands[0].nodata, 0.0);
  EXPECT_FALSE(back->bands[1].nodata.has_value());
  EXPECT_EQ(back->bands[0].scale, 1e-4);
  EXPECT_EQ(back->output_bands(), 1);
}

TEST(RasterRefTest, RefusesWhatIsNotARasterValue) {
  EXPECT_EQ(RasterRef::FromJson("{").status().message(), "not a raster value: invalid JSON");
  EXPECT_EQ(RasterRef::FromJson("[]").status().message(), "not a raster value: not an object");
  EXPECT_EQ(RasterRef::FromJson(R"({"width":0,"height":1})").status().message(), "not a raster value: empty grid");
  EXPECT_EQ(RasterRef::FromJson(R"({"width":1000000,"height":1000000})").status().message(),
            "not a raster value: a 1000000 × 1000000 grid is more than 2^36 pixels");
  const std::string no_bands =
      R"({"width":1,"height":1,"crs":"","expression":"","transform":[0,1,0,0,0,1],"bands":[]})";
  EXPECT_EQ(RasterRef::FromJson(no_bands).status().message(), "not a raster value: no bands");
  const std::string bad_band =
      R"({"width":1,"height":1,"crs":"","expression":"","transform":[0,1,0,0,0,1],"bands":[{"name":"a",)"
      R"("dataset":"x","type":"Byte","band":0,"overview":-1,"block_width":1,"block_height":1,"x0":0,"y0":0,)"
      R"("scale":1,"offset":0,"nodata":null}]})";
  EXPECT_EQ(RasterRef::FromJson(bad_band).status().message(),
            "not a raster value: band a has an index, overview, block size or window out of range");
}

}  // namespace
}  // namespace recflow::raster
