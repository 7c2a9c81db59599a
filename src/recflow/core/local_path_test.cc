// Tests of HasUriScheme and LocalPath.
#include "recflow/core/local_path.h"

#include <gtest/gtest.h>

namespace recflow {
namespace {

TEST(LocalPathTest, PlainPathsPassThrough) {
  for (const char* path : {"data.csv", "/abs/x", "./s3:/odd", "a:b/c", "-", "", "dir/file://x"}) {
    EXPECT_FALSE(HasUriScheme(path)) << path;
    EXPECT_EQ(*LocalPath(path), path);
  }
}

TEST(LocalPathTest, FileUrisNameLocalPaths) {
  EXPECT_EQ(*LocalPath("file:///data/x.csv"), "/data/x.csv");
  EXPECT_EQ(*LocalPath("FILE://localhost/data/x"), "/data/x");
  EXPECT_EQ(*LocalPath("file:///a%20b/%2541"), "/a b/%41");
  for (const char* bad : {"file://otherhost/x", "file://", "file:///x%2", "file:///x%zz", "file:///x%00.csv", "file:///a%0Ab"}) {
    EXPECT_EQ(LocalPath(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(LocalPathTest, OtherSchemesAreRefusedByName) {
  for (const char* uri : {"s3://bucket/out", "gs://b/k", "http://host/x", "hdfs+x://h/p"}) {
    EXPECT_TRUE(HasUriScheme(uri)) << uri;
    const Status st = LocalPath(uri).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << uri;
    EXPECT_NE(st.message().find("does not read or write"), std::string::npos) << st.ToString();
  }
}

}  // namespace
}  // namespace recflow
