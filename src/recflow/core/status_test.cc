// Tests for Status, Result and the propagation macros.
#include "recflow/core/result.h"

#include <gtest/gtest.h>

namespace recflow {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::DataError("odd value " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  ASSIGN_OR_RETURN(int h, Half(x));
  ASSIGN_OR_RETURN(h, Half(h));
  return h;
}

Status CheckEven(int x) {
  RETURN_NOT_OK(Half(x).status());
  return Status::OK();
}

TEST(StatusTest, OkIsCheapAndEmpty) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_TRUE(s.WithFile("x").ok());
  EXPECT_EQ(sizeof(Status), sizeof(void*));
}

TEST(StatusTest, WithNoteAppendsAndKeepsTheContext) {
  const Status st = Status::DataError("bad").WithFile("f").WithRecord(3).WithOffset(40).WithNote(" (why)");
  EXPECT_EQ(st.ToString(), "f: record 3, byte offset 40: bad (why)");
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_TRUE(Status::OK().WithNote("x").ok());
}

TEST(StatusTest, WithPrefixPrependsAndKeepsTheContext) {
  const Status st = Status::IOError("disk full").WithFile("f").WithField("x").WithPrefix("step 'w': ");
  EXPECT_EQ(st.ToString(), "f: field 'x': step 'w': disk full");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_TRUE(Status::OK().WithPrefix("x").ok());
}

TEST(StatusTest, ContextIsFormattedAndKeptOnce) {
  Status s = Status::DataError("bad data CRC").WithRecord(12).WithOffset(3456).WithFile("a.tfrecord");
  EXPECT_EQ(s.ToString(), "a.tfrecord: record 12, byte offset 3456: bad data CRC");
  // The innermost context wins: an outer layer does not overwrite what an inner one knew.
  Status t = s.WithFile("other").WithRecord(99).WithField("x");
  EXPECT_EQ(t.ToString(), "a.tfrecord: record 12, byte offset 3456, field 'x': bad data CRC");
  EXPECT_EQ(t.context().record, 12);
  EXPECT_EQ(t.code(), StatusCode::kDataError);
  Status copy = t;
  EXPECT_EQ(copy.ToString(), t.ToString());
}

TEST(ResultTest, PropagatesValuesAndErrors) {
  EXPECT_EQ(*Quarter(12), 3);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "odd value 3");
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_EQ(CheckEven(5).code(), StatusCode::kDataError);
}

TEST(ResultTest, OkStatusIsNotAValue) {
  Result<int> r{Status::OK()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

TEST(ResultDeathTest, ValueOrDieAbortsWithTheStatusInEveryBuild) {
  // An assert would vanish under NDEBUG (the release preset) and read an empty optional.
  const Result<int> failed = Status::DataError("odd value 3").WithFile("in.csv").WithRecord(7);
  EXPECT_DEATH((void)failed.ValueOrDie(), "failed Result \\(data error\\): in.csv: record 7: odd value 3");
  EXPECT_DEATH((void)*failed, "odd value 3");
  Result<std::string> text = Status::Cancelled("interrupted by SIGINT");
  EXPECT_DEATH((void)text->size(), "\\(cancelled\\): interrupted by SIGINT");
  EXPECT_DEATH((void)std::move(text).ValueOrDie(), "interrupted by SIGINT");
}

TEST(StatusTest, CancelledHasItsOwnCode) {
  const Status st = Status::Cancelled("interrupted by SIGTERM");
  EXPECT_EQ(st.code(), StatusCode::kCancelled);
  EXPECT_EQ(StatusCodeName(st.code()), "cancelled");
  EXPECT_EQ(st.ToString(), "interrupted by SIGTERM");
}

}  // namespace
}  // namespace recflow
