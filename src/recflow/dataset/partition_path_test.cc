// Tests for partition directory names: Spark's escape set, hostile values, long values split over directories, parsing.
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
          std::string(200, 'v'),
          "",
          "%~",
          "%+",
          "x%+",
          "%+x",
          std::string(300, 'v'),
          std::string(300, '\0'),
          std::string(600, '/'),
          [] {
            std::string cjk;
            for (int i = 0; i < 200; ++i) cjk += "日";
            return cjk;
          }()};
}

/// Hostile values short enough to be column names (a key is never split over directories).
bool IsUsableKey(const std::string& hostile) { return !hostile.empty() && EscapePathName(hostile).size() < 200; }

/// The directory components of a relative path.
std::vector<std::string> Components(const std::string& path) {
  std::vector<std::string> parts;
  for (const fs::path& part : fs::path(path)) parts.push_back(part.string());
  return parts;
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

TEST(PartitionPathTest, NullIsTheHiveDefaultPartitionAndEmptyIsDistinct) {
  EXPECT_EQ(*PartitionLevelPath("k", std::nullopt), "k=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(*PartitionLevelPath("k", ""), "k=%~");
  auto null = ParsePartitionDirectoryName("k=__HIVE_DEFAULT_PARTITION__");
  ASSERT_TRUE(null.ok()) << null.status().ToString();
  EXPECT_EQ(**null, (PartitionKeyValue{"k", std::nullopt}));
  auto empty = ParsePartitionDirectoryName("k=%~");
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(**empty, (PartitionKeyValue{"k", ""}));
  // The literal texts escape to something else, so they stay values.
  EXPECT_EQ(*PartitionLevelPath("k", "%~"), "k=%25~");
}

TEST(PartitionPathTest, HostileValuesAndKeysGiveSafeComponentsThatRoundTrip) {
  for (const std::string& hostile : HostileValues()) {
    SCOPED_TRACE(EscapePathName(hostile).substr(0, 80));
    std::vector<std::pair<std::string, std::string>> cases = {{"k", hostile}};
    if (IsUsableKey(hostile)) cases.emplace_back(hostile, "v");
    for (const auto& [key, value] : cases) {
      auto path = PartitionLevelPath(key, value);
      ASSERT_TRUE(path.ok()) << path.status().ToString();
      for (const std::string& component : Components(*path)) EXPECT_TRUE(IsSafeComponent(component)) << component;
      auto parsed = ParsePartitionPath(*path);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      EXPECT_EQ(*parsed, (std::vector<PartitionKeyValue>{{key, value}}));
    }
  }
}

TEST(PartitionPathTest, HostileDirectoriesStayInsideTheScratchDir) {
  testing::ScratchDir dir;
  const fs::path root = fs::weakly_canonical(dir.path());
  for (const std::string& hostile : HostileValues()) {
    const std::vector<PartitionKeyValue> levels = IsUsableKey(hostile)
                                                      ? std::vector<PartitionKeyValue>{{"a", hostile}, {hostile, "b"}}
                                                      : std::vector<PartitionKeyValue>{{"a", hostile}, {"c", "b"}};
    auto path = PartitionPath(levels);
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    const fs::path created = dir.path() / *path;
    ASSERT_TRUE(fs::create_directories(created)) << created;
    std::ofstream(created / "data.txt") << "x";
    const fs::path canonical = fs::weakly_canonical(created / "data.txt");
    const auto [root_end, unused] = std::mismatch(root.begin(), root.end(), canonical.begin(), canonical.end());
    EXPECT_EQ(root_end, root.end()) << canonical << " escaped " << root;
    EXPECT_EQ(std::distance(canonical.begin(), canonical.end()),
              std::distance(root.begin(), root.end()) + static_cast<std::ptrdiff_t>(Components(*path).size()) + 1)
        << "expected exactly the path's directories in " << canonical;
    auto back = ParsePartitionPath(*path);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, levels);
  }
  // Nothing was created outside: the scratch dir holds only `a=...` directories.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().rfind("a=", 0), 0u) << entry.path();
  }
}

TEST(PartitionPathTest, LongValuesContinueInNestedDirectories) {
  // The limit counts escaped bytes: "k=" plus 253 bytes fits in one name, 254 does not.
  EXPECT_EQ(*PartitionLevelPath("k", std::string(253, 'x')), "k=" + std::string(253, 'x'));
  EXPECT_EQ(*PartitionLevelPath("k", std::string(300, 'x')),
            "k=" + std::string(251, 'x') + "%+/%+" + std::string(49, 'x'));
  // 85 '/' escape to 255 bytes: the cut falls between escapes, never inside one.
  EXPECT_EQ(*PartitionLevelPath("k", std::string(85, '/')),
            "k=" + EscapePathName(std::string(83, '/')) + "%+/%+" + EscapePathName("//"));
  // Multi-byte characters are never split.
  std::string cjk;
  for (int i = 0; i < 100; ++i) cjk += "日";
  const std::vector<std::string> parts = Components(*PartitionLevelPath("k", cjk));
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], "k=" + cjk.substr(0, 249) + "%+");
  EXPECT_EQ(parts[1], "%+" + cjk.substr(249));

  // And the file system accepts every component; 256 bytes is really too long for it.
  testing::ScratchDir dir;
  const std::string path = *PartitionPath({{"a", std::string(500, ':')}, {"b", std::string(300, 'y')}});
  EXPECT_EQ(Components(path).size(), 9u);
  EXPECT_TRUE(fs::create_directories(dir.path() / path));
  std::error_code ec;
  fs::create_directory(dir.path() / ("k=" + std::string(254, 'x')), ec);
  EXPECT_TRUE(ec) << "the file system accepted a 256-byte name";
}

TEST(PartitionPathTest, OverlongKeysAndPathsAreRefusedNamingTheColumn) {
  // A key leaves room for `=`, the marker and one 4-byte character in a 255-byte name.
  auto path = PartitionLevelPath(std::string(250, 'c'), "v");
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(path.status().message().find(std::string(250, 'c')), std::string::npos) << path.status().message();
  EXPECT_FALSE(PartitionLevelPath(std::string(249, 'c'), "v").ok());
  EXPECT_TRUE(PartitionLevelPath(std::string(248, 'c'), std::string(300, 'v')).ok());

  auto too_long = PartitionPath({{"a", "1"}, {"city", std::string(700, '/')}});
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), StatusCode::kDataError) << "a value is data, not usage";
  EXPECT_NE(too_long.status().message().find("'city'"), std::string::npos) << too_long.status().message();
  EXPECT_NE(too_long.status().message().find("2100 bytes escaped"), std::string::npos) << too_long.status().message();
  EXPECT_TRUE(PartitionPath({{"city", std::string(600, '/')}}).ok());
}

TEST(PartitionPathTest, BrokenContinuationsAreDataErrors) {
  for (const char* bad : {"a=1%+", "%+x/a=1", "a=1%+/b=2", "a=1%+/%+2%+", "a=1/%+2"}) {
    auto levels = ParsePartitionPath(bad);
    ASSERT_FALSE(levels.ok()) << bad;
    EXPECT_EQ(levels.status().code(), StatusCode::kDataError) << bad;
  }
  auto joined = ParsePartitionPath("a=1%+/%+2%+/%+3/b=4");
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_EQ(*joined, (std::vector<PartitionKeyValue>{{"a", "123"}, {"b", "4"}}));
}

TEST(PartitionPathTest, EmptyKeyIsRefused) {
  auto name = PartitionLevelPath("", "v");
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
