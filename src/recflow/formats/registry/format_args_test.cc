// FormatArgs: texts, lists, booleans and integers read back, defaults for absent keys, bad values named.
#include "recflow/formats/registry/format_args.h"

#include <gtest/gtest.h>

namespace recflow::formats {
namespace {

TEST(FormatArgsTest, AbsentKeysTakeTheFallback) {
  FormatArgs args;
  EXPECT_FALSE(args.Has("delimiter"));
  EXPECT_EQ(args.String("delimiter", ",").ValueOrDie(), ",");
  EXPECT_TRUE(args.List("null_values").empty());
  EXPECT_TRUE(args.Bool("header", true).ValueOrDie());
  EXPECT_EQ(args.Int("max_record_bytes", 7).ValueOrDie(), 7);
}

TEST(FormatArgsTest, SetValuesAreReadBack) {
  FormatArgs args;
  args.Set("delimiter", "tab");
  args.SetList("null_values", {"NA", "-"});
  args.Set("header", "false");
  args.Set("max_record_bytes", "65536");
  EXPECT_TRUE(args.Has("delimiter"));
  EXPECT_EQ(args.String("delimiter", ",").ValueOrDie(), "tab");
  EXPECT_EQ(args.List("null_values"), (std::vector<std::string>{"NA", "-"}));
  EXPECT_FALSE(args.Bool("header", true).ValueOrDie());
  EXPECT_EQ(args.Int("max_record_bytes", 0).ValueOrDie(), 65536);
}

TEST(FormatArgsTest, BadValuesNameTheKey) {
  FormatArgs args;
  args.Set("header", "yes");
  args.Set("max_record_bytes", "12k");
  args.SetList("quote", {"'", "\""});
  EXPECT_EQ(args.Bool("header", true).status().message(), "header must be true or false, not 'yes'");
  EXPECT_EQ(args.Int("max_record_bytes", 0).status().message(), "max_record_bytes must be an integer, not '12k'");
  EXPECT_EQ(args.String("quote", "\"").status().message(), "quote takes one value, got 2");
}

}  // namespace
}  // namespace recflow::formats
