// Tests for the JSON writer, base64 and UTF-8 validation.
#include "recflow/formats/jsonl/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace recflow::jsonl {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string_view("\xff\xfe\x00", 3)), "//4A");
}

std::string Render(void (*fn)(JsonWriter&)) {
  std::string out;
  JsonWriter w(&out);
  fn(w);
  return out;
}

TEST(JsonWriterTest, NestingAndCommas) {
  EXPECT_EQ(Render([](JsonWriter& w) {
              w.BeginObject();
              w.Key("a");
              w.Int(-1);
              w.Key("b");
              w.BeginArray();
              w.UInt(18446744073709551615ull);
              w.Bool(true);
              w.Null();
              w.BeginArray();
              w.EndArray();
              w.EndArray();
              w.Key("c");
              w.BeginObject();
              w.EndObject();
              w.EndObject();
            }),
            R"({"a":-1,"b":[18446744073709551615,true,null,[]],"c":{}})");
}

TEST(JsonWriterTest, EscapesStrings) {
  EXPECT_EQ(Render([](JsonWriter& w) { w.String("q\"b\\s/\n\t\r\b\f\x01\x1f"); }),
            R"("q\"b\\s/\n\t\r\b\f\u0001\u001f")");
  EXPECT_EQ(Render([](JsonWriter& w) { w.String(std::string_view("a\0b", 3)); }), R"("a\u0000b")");
  // Valid non-ASCII UTF-8 passes through; a string that is not UTF-8 is read as Latin-1.
  EXPECT_EQ(Render([](JsonWriter& w) { w.String("caf\xc3\xa9 \xf0\x9f\x98\x80"); }), "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(Render([](JsonWriter& w) { w.String("a\xff\xc3"); }), R"("a\u00ff\u00c3")");
}

TEST(JsonWriterTest, BytesAsStringOrBase64) {
  EXPECT_EQ(Render([](JsonWriter& w) { w.Bytes("text"); }), R"("text")");
  EXPECT_EQ(Render([](JsonWriter& w) { w.Bytes("\xff\x00\x01"); }), R"({"$base64":"/w=="})");
  EXPECT_EQ(Render([](JsonWriter& w) {
              w.BeginArray();
              w.Bytes(std::string_view("\xff\x00\x01", 3));
              w.Bytes("x");
              w.EndArray();
            }),
            R"([{"$base64":"/wAB"},"x"])");
}

TEST(JsonWriterTest, ShortestRoundTripFloats) {
  EXPECT_EQ(Render([](JsonWriter& w) { w.Float(0.1f); }), "0.1");
  EXPECT_EQ(Render([](JsonWriter& w) { w.Double(0.1); }), "0.1");
  EXPECT_EQ(Render([](JsonWriter& w) { w.Double(static_cast<double>(0.1f)); }), "0.10000000149011612");
  EXPECT_EQ(Render([](JsonWriter& w) { w.Float(-2.5f); }), "-2.5");
  EXPECT_EQ(Render([](JsonWriter& w) { w.Float(1.0f); }), "1.0");  // still a float when read back
  EXPECT_EQ(Render([](JsonWriter& w) { w.Float(3.4028235e38f); }), "3.4028235e+38");
}

TEST(JsonWriterTest, NonFiniteAsStrings) {
  EXPECT_EQ(Render([](JsonWriter& w) {
              w.BeginArray();
              w.Float(std::numeric_limits<float>::quiet_NaN());
              w.Double(std::numeric_limits<double>::infinity());
              w.Float(-std::numeric_limits<float>::infinity());
              w.EndArray();
            }),
            R"(["NaN","Infinity","-Infinity"])");
}

}  // namespace
}  // namespace recflow::jsonl
