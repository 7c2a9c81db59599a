// RasterRef's JSON: a round trip keeps every field (a GDAL configuration by name only), and text that is not a raster value is refused.
#include "recflow/raster/raster_ref.h"

#include <gtest/gtest.h>

#include "recflow/raster/gdal_configs.h"

namespace recflow::raster {
namespace {

TEST(RasterRefTest, RoundTripsEveryField) {
  RasterRef r;
  r.width = 10980;
  r.height = 7;
  r.crs = "PROJCRS[\"WGS 84 / UTM \\\"29N\\\"\"]\n\t";
  r.transform = {199980.5, 100, 0, 2800020, 0, -100.25};
  r.expression = "2.5 * (nir - red)";
  r.config = KeepGdalConfig({{"GDAL_HTTP_USERPWD", "reader:s3cret"}});
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
  // The configuration travels by name only, and the name finds it again in this process.
  EXPECT_EQ(r.ToJson().find("s3cret"), std::string::npos);
  auto config = FindGdalConfig(back->config);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(*config, (GdalConfig{{"GDAL_HTTP_USERPWD", "reader:s3cret"}}));
}

TEST(RasterRefTest, AConfigurationNameOfAnotherProcessIsRefused) {
  const std::string mine = KeepGdalConfig({{"AWS_REGION", "eu-west-1"}});
  const std::string other = "gdal-config-0000000000000000-0";
  ASSERT_NE(mine.substr(0, other.size() - 1), other.substr(0, other.size() - 1));
  const Status st = FindGdalConfig(other).status();
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_NE(st.message().find("'" + other + "', which this process does not have"), std::string::npos) << st.ToString();
  EXPECT_FALSE(FindGdalConfig(mine + "0").ok());
  // A raster value without the field (written before it existed) has no configuration.
  const std::string old =
      R"({"width":1,"height":1,"crs":"","expression":"","transform":[0,1,0,0,0,1],"bands":[{"name":"a",)"
      R"("dataset":"x","type":"Byte","band":1,"overview":-1,"block_width":1,"block_height":1,"x0":0,"y0":0,)"
      R"("scale":1,"offset":0,"nodata":null}]})";
  auto ref = RasterRef::FromJson(old);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(ref->config, "");
}

TEST(RasterRefTest, ConfigurationsOfRastersReadTogetherMergeOrNameTheOptionTheyDisagreeOn) {
  const std::string s3 = KeepGdalConfig({{"AWS_S3_ENDPOINT", "127.0.0.1:9"}, {"AWS_SECRET_ACCESS_KEY", "secret-1"}});
  const std::string http = KeepGdalConfig({{"GDAL_HTTP_USERPWD", "reader:two"}, {"AWS_S3_ENDPOINT", "127.0.0.1:9"}});
  EXPECT_EQ(*MergeGdalConfigs({"", s3, "", s3}), s3);
  EXPECT_EQ(*MergeGdalConfigs({"", ""}), "");
  auto merged = MergeGdalConfigs({s3, "", http});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(*FindGdalConfig(*merged), (GdalConfig{{"AWS_S3_ENDPOINT", "127.0.0.1:9"},
                                                  {"AWS_SECRET_ACCESS_KEY", "secret-1"},
                                                  {"GDAL_HTTP_USERPWD", "reader:two"}}));
  EXPECT_EQ(*MergeGdalConfigs({s3, http}), *merged);  // one kept configuration per distinct merge
  const std::string other = KeepGdalConfig({{"AWS_SECRET_ACCESS_KEY", "secret-3"}});
  const Status st = MergeGdalConfigs({s3, http, other}).status();
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_NE(st.message().find("rasters 0 and 2 set AWS_SECRET_ACCESS_KEY to different values"), std::string::npos)
      << st.ToString();
  EXPECT_EQ(st.message().find("secret-1"), std::string::npos);
  EXPECT_EQ(st.message().find("secret-3"), std::string::npos);
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
