// Tests for partition directory names: Spark's escape set, hostile values, length limit, parsing.
#include "recflow/dataset/partition_path.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

/// Values a hostile or careless producer could put in a partition column.
std::vector<std::string> HostileValues() {
  return {"../x",
          "a/b",
          "=",
          "%",
          "..",
          ".",
          "/",
          "../../etc/passwd",
          "NUL\0in"s,
          "\0"s,
          "\x01\x1F\x7F",
          "tab\there",
          "new\nline",
          "é✓日本",
          "a=b/c=d",
          "%2F",
          "%%41",
          "__x__",
          " leading and trailing ",
          "{[]}^*?:\\\"'#",
          std::string(200, 'v')};
}

bool IsSafeComponent(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos && name.size() <= kMaxPathComponentBytes;
}

TEST(PartitionPathTest, EscapeSetIsSparksPlusNul) {
  const std::string special = "\"#%'*/:=?\\\x7F{[]^";
  for (int b = 0; b < 256; ++b) {
    const bool expected = b <= 0x1F || special.find(static_cast<char>(b)) != std::string::npos;
    EXPECT_EQ(NeedsEscape(static_cast<unsigned char>(b)), expected) << "byte " << b;
  }
  EXPECT_EQ(EscapePathName("a/b"), "a%2Fb");
  EXPECT_EQ(EscapePathName("k=v"), "k%3Dv");
  EXPECT_EQ(EscapePathName("100%"), "100%25");
  EXPECT_EQ(EscapePathName("../x"), "..%2Fx");
  EXPECT_EQ(EscapePathName("\0"s), "%00");
  EXPECT_EQ(EscapePathName("\x01\x1F\x7F"), "%01%1F%7F");
  EXPECT_EQ(EscapePathName("{a}"), "%7Ba}");  // '}' is not in Spark's set
  EXPECT_EQ(EscapePathName("a b+c,d;e"), "a b+c,d;e");
  EXPECT_EQ(EscapePathName("é✓"), "é✓");  // non-ASCII UTF-8 passes through
}

TEST(PartitionPathTest, UnescapeInvertsEscapeForEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const std::string escaped = EscapePathName(all);
  EXPECT_EQ(escaped.find('/'), std::string::npos);
  EXPECT_EQ(escaped.find('\0'), std::string::npos);
  EXPECT_EQ(UnescapePathName(escaped), all);
}

TEST(PartitionPathTest, InvalidEscapesAreKeptLiterally) {
  EXPECT_EQ(UnescapePathName("%"), "%");
  EXPECT_EQ(UnescapePathName("%2"), "%2");
  EXPECT_EQ(UnescapePathName("a%"), "a%");
  EXPECT_EQ(UnescapePathName("%G1"), "%G1");
  EXPECT_EQ(UnescapePathName("%+1"), "%+1");
  EXPECT_EQ(UnescapePathName("%%41"), "%A");
  EXPECT_EQ(UnescapePathName("%2f%2F"), "//");
  EXPECT_EQ(UnescapePathName("100%25"), "100%");
  EXPECT_EQ(UnescapePathName("%C3%A9"), "é");  // bytes, so UTF-8 escapes decode to UTF-8
}

TEST(PartitionPathTest, NullAndEmptyValuesBecomeTheHiveDefaultPartition) {
  EXPECT_EQ(*PartitionDirectoryName("k", std::nullopt), "k=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(*PartitionDirectoryName("k", ""), "k=__HIVE_DEFAULT_PARTITION__");
  auto parsed = ParsePartitionDirectoryName("k=__HIVE_DEFAULT_PARTITION__");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(**parsed, (PartitionKeyValue{"k", std::nullopt}));
}

TEST(PartitionPathTest, HostileValuesAndKeysGiveOneSafeComponentThatRoundTrips) {
  for (const std::string& hostile : HostileValues()) {
    SCOPED_TRACE(EscapePathName(hostile));
    for (const auto& [key, value] : {std::pair{std::string("k"), hostile}, std::pair{hostile, std::string("v")}}) {
      auto name = PartitionDirectoryName(key, value);
      ASSERT_TRUE(name.ok()) << name.status().ToString();
      EXPECT_TRUE(IsSafeComponent(*name)) << *name;
      auto parsed = ParsePartitionDirectoryName(*name);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      ASSERT_TRUE(parsed->has_value());
      EXPECT_EQ(**parsed, (PartitionKeyValue{key, value}));
    }
  }
}

TEST(PartitionPathTest, HostileDirectoriesStayInsideTheScratchDir) {
  testing::ScratchDir dir;
  const fs::path root = fs::weakly_canonical(dir.path());
  for (const std::string& hostile : HostileValues()) {
    auto path = PartitionPath({{"a", hostile}, {hostile, "b"}});
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    const fs::path created = dir.path() / *path;
    ASSERT_TRUE(fs::create_directories(created)) << created;
    std::ofstream(created / "data.txt") << "x";
    const fs::path canonical = fs::weakly_canonical(created / "data.txt");
    const auto [root_end, unused] = std::mismatch(root.begin(), root.end(), canonical.begin(), canonical.end());
    EXPECT_EQ(root_end, root.end()) << canonical << " escaped " << root;
    EXPECT_EQ(std::distance(canonical.begin(), canonical.end()), std::distance(root.begin(), root.end()) + 3)
        << "expected exactly two directory levels in " << canonical;
    auto back = ParsePartitionPath(*path);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, (std::vector<PartitionKeyValue>{{"a", hostile}, {hostile, "b"}}));
  }
  // Nothing was created outside: the scratch dir holds only `a=...` directories.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().rfind("a=", 0), 0u) << entry.path();
  }
}

TEST(PartitionPathTest, OverlongNamesAreRefusedNamingColumnAndValue) {
  const std::string value300(300, 'x');
  auto name = PartitionDirectoryName("city", value300);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(name.status().message().find("'city'"), std::string::npos) << name.status().message();
  EXPECT_NE(name.status().message().find(std::string(64, 'x')), std::string::npos) << name.status().message();
  EXPECT_NE(name.status().message().find("305 bytes"), std::string::npos) << name.status().message();

  // The limit counts escaped bytes: "k=" plus 253 bytes fits, 254 does not; 85 '/' escape to 255.
  EXPECT_TRUE(PartitionDirectoryName("k", std::string(253, 'x')).ok());
  EXPECT_FALSE(PartitionDirectoryName("k", std::string(254, 'x')).ok());
  EXPECT_TRUE(PartitionDirectoryName("k", std::string(84, '/')).ok());
  EXPECT_FALSE(PartitionDirectoryName("k", std::string(85, '/')).ok());
  EXPECT_FALSE(PartitionPath({{"a", "1"}, {"b", value300}}).ok());

  // And the boundary is really the operating system's.
  testing::ScratchDir dir;
  const std::string longest = *PartitionDirectoryName("k", std::string(253, 'x'));
  EXPECT_TRUE(fs::create_directory(dir.path() / longest));
  std::error_code ec;
  fs::create_directory(dir.path() / ("k=" + std::string(254, 'x')), ec);
  EXPECT_TRUE(ec) << "the file system accepted a 256-byte name";
}

TEST(PartitionPathTest, EmptyKeyIsRefused) {
  auto name = PartitionDirectoryName("", "v");
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().code(), StatusCode::kInvalidArgument);
}

TEST(PartitionPathTest, ParsesRelativePaths) {
  auto levels = ParsePartitionPath("a=1/b=x%2Fy");
  ASSERT_TRUE(levels.ok()) << levels.status().ToString();
  EXPECT_EQ(*levels, (std::vector<PartitionKeyValue>{{"a", "1"}, {"b", "x/y"}}));

  auto with_empties = ParsePartitionPath("/a=1//b=%3D=/");
  ASSERT_TRUE(with_empties.ok()) << with_empties.status().ToString();
  EXPECT_EQ(*with_empties, (std::vector<PartitionKeyValue>{{"a", "1"}, {"b", "=="}}));

  auto empty = ParsePartitionPath("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());

  EXPECT_EQ(*PartitionPath({{"a", "1"}, {"b", "x/y"}, {"c", std::nullopt}}),
            "a=1/b=x%2Fy/c=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(*PartitionPath({}), "");
}

TEST(PartitionPathTest, MalformedComponentsAreDataErrors) {
  for (const char* bad : {"a=1/plain", "a=1/..", "./a=1", "=1", "a=", "a=1/=x"}) {
    auto levels = ParsePartitionPath(bad);
    ASSERT_FALSE(levels.ok()) << bad;
    EXPECT_EQ(levels.status().code(), StatusCode::kDataError) << bad;
  }
  auto plain = ParsePartitionDirectoryName("plain");
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->has_value());
}

}  // namespace
}  // namespace recflow::dataset
