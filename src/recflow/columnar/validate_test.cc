// Tests of Validate/ValidateFull on hand-made (hostile) ArrayData, and of IsValidUtf8.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/utf8.h"
#include "recflow/columnar/validate.h"

namespace recflow {
namespace {

template <typename T>
std::shared_ptr<Buffer> Buf(const std::vector<T>& values) {
  return *Buffer::CopyOf({reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T)});
}

std::shared_ptr<Buffer> Bytes(std::string_view s) { return Buf(std::vector<char>(s.begin(), s.end())); }

std::shared_ptr<ArrayData> Utf8(std::vector<int32_t> offsets, std::string_view bytes, int64_t offset = 0) {
  const int64_t length = static_cast<int64_t>(offsets.size()) - 1 - offset;
  return ArrayData::Make(utf8(), length, {nullptr, Buf(offsets), Bytes(bytes)}, 0, offset);
}

void ExpectInvalid(const ArrayData& data, const std::string& needle, bool cheap_check_too = true) {
  Status full = ValidateFull(data);
  EXPECT_EQ(full.code(), StatusCode::kDataError);
  EXPECT_NE(full.message().find(needle), std::string::npos) << full.message();
  if (cheap_check_too) {
    EXPECT_FALSE(Validate(data).ok());
  }
}

TEST(Utf8Test, AcceptsWellFormed) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii text longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("\xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf"));
  EXPECT_TRUE(IsValidUtf8("\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf"));  // U+10000, U+10FFFF
  EXPECT_TRUE(IsValidUtf8("0123456789abcdef\xe2\x82\xac"));      // euro sign after the fast path
}

TEST(Utf8Test, RejectsMalformed) {
  EXPECT_FALSE(IsValidUtf8("\xc0\x80"));              // overlong NUL
  EXPECT_FALSE(IsValidUtf8("\xc1\xbf"));              // overlong
  EXPECT_FALSE(IsValidUtf8("\xe0\x80\x80"));          // overlong 3-byte
  EXPECT_FALSE(IsValidUtf8("\xf0\x80\x80\x80"));      // overlong 4-byte
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));          // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xed\xbf\xbf"));          // surrogate U+DFFF
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));      // U+110000
  EXPECT_FALSE(IsValidUtf8("\xf5\x80\x80\x80"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\x80"));                  // lone continuation
  EXPECT_FALSE(IsValidUtf8("abc\xe2\x82"));           // truncated at the end
  EXPECT_FALSE(IsValidUtf8("abcdefgh\xe2\x82z"));     // bad continuation
  EXPECT_FALSE(IsValidUtf8("\xf0\x9f\x98"));          // truncated 4-byte
}

TEST(ValidateTest, BuiltArraysAreValid) {
  auto good = Utf8({0, 1, 3, 3}, "abc");
  EXPECT_TRUE(Validate(*good).ok());
  EXPECT_TRUE(ValidateFull(*good).ok());
  EXPECT_TRUE(ValidateFull(*Utf8({0, 1, 3, 3}, "abc", 1)).ok());
  // An empty array needs no buffers.
  EXPECT_TRUE(ValidateFull(*ArrayData::Make(utf8(), 0, {nullptr, nullptr, nullptr}, 0)).ok());
  EXPECT_TRUE(ValidateFull(*ArrayData::Make(int64(), 0, {nullptr, nullptr}, 0)).ok());
}

TEST(ValidateTest, InvalidUtf8PerElement) {
  ExpectInvalid(*Utf8({0, 2, 4}, "ok\xc0\x80"), "element 1 is not valid UTF-8", false);
  ExpectInvalid(*Utf8({0, 3}, "\xed\xa0\x80"), "UTF-8", false);
  // A sequence split across two elements is invalid in each, though the bytes are fine together.
  ExpectInvalid(*Utf8({0, 1, 2}, "\xc3\xa9"), "element 0", false);
  // Null elements are not checked; binary is never checked.
  auto with_null = Utf8({0, 2, 4}, "ok\xc0\x80");
  uint8_t bits = 0x01;
  with_null->buffers[0] = *Buffer::CopyOf({&bits, 1});
  with_null->null_count = 1;
  EXPECT_TRUE(ValidateFull(*with_null).ok());
  auto bin = Utf8({0, 2, 4}, "ok\xc0\x80");
  bin->type = binary();
  EXPECT_TRUE(ValidateFull(*bin).ok());
}

TEST(ValidateTest, OffsetsOutOfRange) {
  ExpectInvalid(*Utf8({0, 1, 5}, "abc"), "beyond");
  ExpectInvalid(*Utf8({-1, 1, 3}, "abc"), "negative first offset");
  ExpectInvalid(*Utf8({2, 1, 1}, "abc"), "before first");
  // Non-monotonic in the middle: only the full check sees it.
  auto zigzag = Utf8({0, 3, 1, 3}, "abc");
  EXPECT_TRUE(Validate(*zigzag).ok());
  ExpectInvalid(*zigzag, "offsets decrease at element 1", false);
}

TEST(ValidateTest, ShortBuffers) {
  // Offsets buffer too short for length + offset + 1 entries.
  auto short_offsets = Utf8({0, 1, 2}, "ab");
  short_offsets->length = 3;
  ExpectInvalid(*short_offsets, "offsets buffer");
  auto sliced_past_end = Utf8({0, 1, 2}, "ab", 1);
  sliced_past_end->offset = 2;
  ExpectInvalid(*sliced_past_end, "offsets buffer");
  // Values buffer too short.
  auto ints = ArrayData::Make(int64(), 3, {nullptr, Buf(std::vector<int64_t>{1, 2})}, 0);
  ExpectInvalid(*ints, "values buffer");
  ints->length = 2;
  EXPECT_TRUE(ValidateFull(*ints).ok());
  ints->offset = 1;
  ExpectInvalid(*ints, "values buffer");
  ExpectInvalid(*ArrayData::Make(int32(), 1, {nullptr, nullptr}, 0), "missing values buffer");
  // Validity too short.
  uint8_t bits = 0xFF;
  auto bools = ArrayData::Make(boolean(), 9, {*Buffer::CopyOf({&bits, 1}), Buf(std::vector<uint8_t>{0xFF, 0x01})}, 0);
  ExpectInvalid(*bools, "validity bitmap");
  // Wrong buffer count.
  ExpectInvalid(*ArrayData::Make(int32(), 0, {nullptr}, 0), "buffers, expected 2");
}

TEST(ValidateTest, NullCounts) {
  uint8_t bits = 0b00000101;  // elements 0 and 2 valid
  auto ints = ArrayData::Make(int8(), 4, {*Buffer::CopyOf({&bits, 1}), Buf(std::vector<int8_t>{1, 2, 3, 4})}, 1);
  EXPECT_TRUE(Validate(*ints).ok());
  ExpectInvalid(*ints, "bitmap has 2 nulls", false);
  ints->null_count = 2;
  EXPECT_TRUE(ValidateFull(*ints).ok());
  ints->null_count = 5;
  ExpectInvalid(*ints, "outside [0, length]");
  auto no_bitmap = ArrayData::Make(int8(), 1, {nullptr, Buf(std::vector<int8_t>{1})}, 1);
  ExpectInvalid(*no_bitmap, "without a validity bitmap");
  ExpectInvalid(*ArrayData::Make(null(), 3, {}, 2), "null_count must equal length");
  EXPECT_TRUE(ValidateFull(*ArrayData::Make(null(), 3, {}, 3)).ok());
}

TEST(ValidateTest, ChildrenChecked) {
  auto ints = ArrayData::Make(int64(), 2, {nullptr, Buf(std::vector<int64_t>{1, 2})}, 0);
  // list: last offset beyond the child.
  auto lists = ArrayData::Make(list(int64()), 2, {nullptr, Buf(std::vector<int32_t>{0, 1, 3})}, 0, 0, {ints});
  ExpectInvalid(*lists, "beyond");
  lists->buffers[1] = Buf(std::vector<int32_t>{0, 1, 2});
  EXPECT_TRUE(ValidateFull(*lists).ok());
  // Missing child, wrong child type, invalid child.
  auto no_child = ArrayData::Make(list(int64()), 0, {nullptr, nullptr}, 0);
  ExpectInvalid(*no_child, "0 children, expected 1");
  auto wrong_type = ArrayData::Make(list(int32()), 2, {nullptr, Buf(std::vector<int32_t>{0, 1, 2})}, 0, 0, {ints});
  ExpectInvalid(*wrong_type, "has type int64, expected int32");
  auto bad_child = ArrayData::Make(int64(), 2, {nullptr, Buf(std::vector<int64_t>{1})}, 0);
  auto lists2 = ArrayData::Make(list(int64()), 1, {nullptr, Buf(std::vector<int32_t>{0, 2})}, 0, 0, {bad_child});
  ExpectInvalid(*lists2, "child 0: ");
  // struct: a child shorter than offset + length.
  auto type = struct_({Field::Make("a", int64())});
  auto st = ArrayData::Make(type, 3, {nullptr}, 0, 0, {ints});
  ExpectInvalid(*st, "expected at least 3");
  st->length = 1;
  st->offset = 1;
  EXPECT_TRUE(ValidateFull(*st).ok());
  st->children[0] = nullptr;
  ExpectInvalid(*st, "missing");
}

TEST(ValidateTest, HostileSizesDoNotOverflow) {
  auto ints = ArrayData::Make(int64(), int64_t{1} << 62, {nullptr, Buf(std::vector<int64_t>{1})}, 0);
  ExpectInvalid(*ints, "too large");
  ints->length = -1;
  ExpectInvalid(*ints, "negative");
  auto strings = Utf8({0, 1}, "a");
  strings->offset = std::numeric_limits<int64_t>::max() - 1;
  ExpectInvalid(*strings, "too large");
  ArrayData untyped;
  ExpectInvalid(untyped, "no type");
}

TEST(ValidateTest, EmptyUnionsWithoutBuffers) {
  // An IPC reader gives zero-length buffers as nullptr; an empty union then has neither type
  // codes nor offsets.
  for (const auto mode : {UnionMode::kSparse, UnionMode::kDense}) {
    auto type = union_(mode, {Field::Make("a", int64())});
    auto child = ArrayData::Make(int64(), 0, {nullptr, nullptr}, 0);
    std::vector<std::shared_ptr<Buffer>> buffers = {nullptr, nullptr};
    if (mode == UnionMode::kDense) buffers.push_back(nullptr);
    auto empty = ArrayData::Make(type, 0, buffers, 0, 0, {child});
    EXPECT_TRUE(ValidateFull(*empty).ok()) << ValidateFull(*empty).ToString();
    empty->length = 1;
    EXPECT_FALSE(ValidateFull(*empty).ok());
  }
}

}  // namespace
}  // namespace recflow
