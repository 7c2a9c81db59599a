// Tests for PrintableText: what passes unchanged and what is escaped.
#include "recflow/core/printable.h"

#include <gtest/gtest.h>

namespace recflow {
namespace {

TEST(PrintableTextTest, PrintableAsciiAndWellFormedUtf8PassUnchanged) {
  EXPECT_EQ(PrintableText("no column 'x' (columns: a, b)\n\tat line 2"), "no column 'x' (columns: a, b)\n\tat line 2");
  EXPECT_EQ(PrintableText("Grüße, 東京, 🙂"), "Grüße, 東京, 🙂");
}

TEST(PrintableTextTest, ControlBytesAndDelAreEscaped) {
  EXPECT_EQ(PrintableText(std::string("a\0b\x01\x1b[31m\x7f\r", 11)), "a\\x00b\\x01\\x1b[31m\\x7f\\x0d");
}

TEST(PrintableTextTest, MalformedUtf8IsEscapedBytewise) {
  EXPECT_EQ(PrintableText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(PrintableText("\xc3"), "\\xc3");                   // truncated sequence at the end
  EXPECT_EQ(PrintableText("\xc3("), "\\xc3(");                 // bad continuation byte
  EXPECT_EQ(PrintableText("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(PrintableText("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // UTF-16 surrogate
  EXPECT_EQ(PrintableText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  EXPECT_EQ(PrintableText("\xe2\x82"), "\\xe2\\x82");
}

}  // namespace
}  // namespace recflow
