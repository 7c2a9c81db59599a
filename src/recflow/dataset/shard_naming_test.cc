// Tests for Beam and Spark shard file names: making them, validating options, parsing them back.
#include "recflow/dataset/shard_naming.h"

#include <gtest/gtest.h>

#include <set>

namespace recflow::dataset {
namespace {

ShardNamer Beam(int64_t num_shards, std::string suffix = ".tfrecord.gz") {
  ShardNamer namer = ShardNamer::Defaults();
  namer.num_shards = num_shards;
  namer.suffix = std::move(suffix);
  return namer;
}

ShardNamer Spark(int64_t num_shards, std::string suffix = ".tfrecord.gz") {
  ShardNamer namer = Beam(num_shards, std::move(suffix));
  namer.naming = ShardNaming::kSpark;
  return namer;
}

TEST(ShardNamingTest, BeamNames) {
  EXPECT_EQ(*Beam(16).Name(3), "part-00003-of-00016.tfrecord.gz");
  EXPECT_EQ(*Beam(1, "").Name(0), "part-00000-of-00001");
  EXPECT_EQ(*Beam(99999).Name(99998), "part-99998-of-99999.tfrecord.gz");
  EXPECT_EQ(*Beam(100000).Name(3), "part-000003-of-100000.tfrecord.gz");
  ShardNamer named = Beam(4, ".jsonl");
  named.prefix = "train-data";
  EXPECT_EQ(*named.Name(2), "train-data-00002-of-00004.jsonl");
}

TEST(ShardNamingTest, SparkNamesShareOneRandomV4UuidPerJob) {
  const ShardNamer namer = Spark(200000);
  ASSERT_TRUE(IsCanonicalUuid(namer.job_uuid)) << namer.job_uuid;
  EXPECT_EQ(namer.job_uuid[14], '4');
  EXPECT_NE(std::string("89ab").find(namer.job_uuid[19]), std::string::npos) << namer.job_uuid;
  EXPECT_EQ(*namer.Name(3), "part-00003-" + namer.job_uuid + "-c000.tfrecord.gz");
  EXPECT_EQ(*namer.Name(123456), "part-123456-" + namer.job_uuid + "-c000.tfrecord.gz");
  std::set<std::string> uuids;
  for (int job = 0; job < 100; ++job) uuids.insert(ShardNamer::Defaults().job_uuid);
  EXPECT_EQ(uuids.size(), 100u);
}

TEST(ShardNamingTest, InvalidOptionsAndIndicesAreRefused) {
  ShardNamer namer = Beam(4);
  EXPECT_TRUE(namer.Validate().ok());
  for (int64_t bad_index : {int64_t{-1}, int64_t{4}}) {
    EXPECT_EQ(namer.Name(bad_index).status().code(), StatusCode::kInvalidArgument) << bad_index;
  }
  const auto refused = [](ShardNamer n) {
    return n.Validate().code() == StatusCode::kInvalidArgument && !n.Name(0).ok();
  };
  ShardNamer empty_prefix = Beam(4);
  empty_prefix.prefix = "";
  EXPECT_TRUE(refused(empty_prefix));
  ShardNamer slash_prefix = Beam(4);
  slash_prefix.prefix = "../part";
  EXPECT_TRUE(refused(slash_prefix));
  EXPECT_TRUE(refused(Beam(4, ".gz/x")));
  EXPECT_TRUE(refused(Beam(4, std::string(".gz\0", 4))));
  EXPECT_TRUE(refused(Beam(0)));
  ShardNamer bad_uuid = Spark(4);
  bad_uuid.job_uuid = "not-a-uuid";
  EXPECT_TRUE(refused(bad_uuid));
  bad_uuid.job_uuid = "1F5B4D1A-2C3E-4B5A-9D8E-0123456789AB";  // uppercase is not what Spark writes
  EXPECT_TRUE(refused(bad_uuid));
  bad_uuid.naming = ShardNaming::kBeam;  // Beam names ignore the UUID
  EXPECT_TRUE(bad_uuid.Validate().ok());
  EXPECT_EQ(Beam(4, "." + std::string(240, 's')).Name(0).status().code(), StatusCode::kInvalidArgument);
}

TEST(ShardNamingTest, NamesParseBack) {
  for (const ShardNamer& namer : {Beam(16), Beam(100000, ""), Spark(3), Spark(200000, ".snappy.parquet")}) {
    for (int64_t index : {int64_t{0}, namer.num_shards - 1}) {
      const std::string name = *namer.Name(index);
      auto parsed = ParseShardName(name);
      ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status().ToString();
      EXPECT_EQ(parsed->naming, namer.naming) << name;
      EXPECT_EQ(parsed->prefix, "part") << name;
      EXPECT_EQ(parsed->index, index) << name;
      EXPECT_EQ(parsed->suffix, namer.suffix) << name;
      if (namer.naming == ShardNaming::kBeam) {
        EXPECT_EQ(parsed->num_shards, namer.num_shards) << name;
      } else {
        EXPECT_EQ(parsed->num_shards, std::nullopt) << name;
        EXPECT_EQ(parsed->job_uuid, namer.job_uuid) << name;
        EXPECT_EQ(parsed->file_counter, 0) << name;
      }
    }
  }
}

TEST(ShardNamingTest, ParsesNamesOtherWritersProduce) {
  // Beam with more than 99999 shards (index padded to 5 only), a dashed prefix and no suffix.
  auto beam = ParseShardName("gs-bucket-train-00003-of-100000");
  ASSERT_TRUE(beam.ok()) << beam.status().ToString();
  EXPECT_EQ(beam->prefix, "gs-bucket-train");
  EXPECT_EQ(beam->index, 3);
  EXPECT_EQ(beam->num_shards, 100000);
  EXPECT_EQ(beam->suffix, "");

  // Spark: uppercase hex is accepted on read; a later file counter (maxRecordsPerFile).
  auto spark = ParseShardName("part-00042-1F5B4D1A-2C3E-4B5A-9D8E-0123456789AB-c012.snappy.parquet");
  ASSERT_TRUE(spark.ok()) << spark.status().ToString();
  EXPECT_EQ(spark->naming, ShardNaming::kSpark);
  EXPECT_EQ(spark->prefix, "part");
  EXPECT_EQ(spark->index, 42);
  EXPECT_EQ(spark->job_uuid, "1F5B4D1A-2C3E-4B5A-9D8E-0123456789AB");
  EXPECT_EQ(spark->file_counter, 12);
  EXPECT_EQ(spark->suffix, ".snappy.parquet");
}

TEST(ShardNamingTest, OtherNamesAreDataErrors) {
  for (const char* name :
       {"data.tfrecord", "part-1-of-2", "part-00002-of-00002", "-00001-of-00002", "part-00001-of-00002gz",
        "part-00001-of-99999999999999999999", "part-00001-1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab-c00.gz",
        "part-0001-1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab-c000", "part-00001-1f5b4d1a-2c3e-4b5a-9d8e-0123456789-c000", "",
        "_SUCCESS"}) {
    auto parsed = ParseShardName(name);
    ASSERT_FALSE(parsed.ok()) << name;
    EXPECT_EQ(parsed.status().code(), StatusCode::kDataError) << name;
  }
}

}  // namespace
}  // namespace recflow::dataset
