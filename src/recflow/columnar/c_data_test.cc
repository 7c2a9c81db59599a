// Tests of the Arrow C Data Interface: every type and array round-trips; hostile structs are errors.
#include "recflow/columnar/c_data.h"

#include <gtest/gtest.h>

#include "recflow/columnar/c_data_format.h"
#include "recflow/columnar/c_stream.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::c_data {
namespace {

using testing::BufferOf;
using testing::SampleArrays;

TEST(CDataTest, EveryTypeRoundTripsThroughItsFormat) {
  auto metadata = std::make_shared<const KeyValueMetadata>(
      std::vector<std::pair<std::string, std::string>>{{"k", "v"}, {"empty", ""}});
  for (const auto& [name, array] : SampleArrays()) {
    SCOPED_TRACE(name);
    const FieldPtr field = Field::Make(name, array->type, name != "fixed_size_list", metadata);
    ArrowSchema c;
    ASSERT_TRUE(ExportField(*field, &c).ok());
    auto back = ImportField(&c);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(c.release, nullptr);  // imported and released
    EXPECT_TRUE((*back)->Equals(*field)) << (*back)->ToString() << " vs " << field->ToString();
    EXPECT_EQ((*back)->metadata()->Get("k"), "v");
    EXPECT_TRUE((*back)->type()->Equals(*array->type));
  }
  EXPECT_EQ(FormatOf(*timestamp(TimeUnit::kNano, "America/New_York")), "tsn:America/New_York");
  EXPECT_EQ(FormatOf(*decimal(38, 10)), "d:38,10");
  EXPECT_EQ(FormatOf(*union_(UnionMode::kSparse, {Field::Make("a", int8())}, {5})), "+us:5");
  EXPECT_EQ(FormatOf(*dictionary(int32(), utf8())), "i");
}

TEST(CDataTest, SchemasKeepMetadataAndFieldOrder) {
  auto schema = Schema::Make({Field::Make("a", int64(), false), Field::Make("b", list(utf8()))},
                             std::make_shared<const KeyValueMetadata>(
                                 std::vector<std::pair<std::string, std::string>>{{"origin", "test"}}));
  ArrowSchema c;
  ASSERT_TRUE(ExportSchema(*schema, &c).ok());
  EXPECT_STREQ(c.format, "+s");
  auto back = ImportSchema(&c);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*schema));
  EXPECT_EQ((*back)->metadata()->Get("origin"), "test");
}

TEST(CDataTest, EveryArrayRoundTripsWithoutCopies) {
  for (const auto& [name, array] : SampleArrays()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(ValidateFull(*array).ok()) << ValidateFull(*array).ToString();
    ArrowArray c;
    ASSERT_TRUE(ExportArray(array, &c).ok());
    // The last buffer with data (views end with their data buffers' sizes, made for the export).
    const bool views = array->type->id() == TypeId::kBinaryView || array->type->id() == TypeId::kUtf8View;
    const int64_t last = c.n_buffers - (views ? 2 : 1);
    const void* first_buffer = last >= 0 ? c.buffers[last] : nullptr;
    if (views) {
      ASSERT_EQ(c.n_buffers, static_cast<int64_t>(array->buffers.size()) + 1);
      EXPECT_EQ(static_cast<const int64_t*>(c.buffers[c.n_buffers - 1])[0], array->buffers[2]->size());
    }
    auto back = ImportArray(&c, array->type);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(c.release, nullptr);
    EXPECT_TRUE(ArrayEquals(**back, *array));
    if (first_buffer != nullptr) {
      EXPECT_EQ(static_cast<const void*>((*back)->buffers.back()->data()), first_buffer);  // zero-copy
    }
  }
}

TEST(CDataTest, ImportedBuffersOutliveTheProducer) {
  auto batch = *RecordBatch::Make(
      Schema::Make({Field::Make("x", int32())}), 4,
      {ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0)});
  ArrowArray c;
  ASSERT_TRUE(ExportRecordBatch(*batch, &c).ok());
  const SchemaPtr schema = batch->schema();
  batch.reset();  // the exported struct keeps the data alive
  auto back = ImportRecordBatch(&c, schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->num_rows(), 4);
  EXPECT_EQ((*back)->column_data(0)->GetValues<int32_t>(1)[3], 4);
}

/// A minimal producer-owned ArrowArray whose release only records that it ran.
struct FakeArray {
  std::vector<const void*> buffers;
  ArrowArray c{};
  bool released = false;
  FakeArray(int64_t length, std::vector<const void*> b) : buffers(std::move(b)) {
    c.length = length;
    c.n_buffers = static_cast<int64_t>(buffers.size());
    c.buffers = buffers.data();
    c.private_data = this;
    c.release = [](ArrowArray* a) {
      static_cast<FakeArray*>(a->private_data)->released = true;
      a->release = nullptr;
    };
  }
};

TEST(CDataTest, HostileArraysAreErrorsAndStillReleased) {
  const std::vector<int32_t> offsets = {0, 5, 2};  // decreasing
  const std::string bytes = "hello";
  FakeArray decreasing(2, {nullptr, offsets.data(), bytes.data()});
  auto st = ImportArray(&decreasing.c, utf8());
  EXPECT_EQ(st.status().code(), StatusCode::kDataError);
  EXPECT_TRUE(decreasing.released);

  FakeArray wrong_count(1, {nullptr});
  EXPECT_EQ(ImportArray(&wrong_count.c, int32()).status().code(), StatusCode::kDataError);
  EXPECT_TRUE(wrong_count.released);

  FakeArray negative(-1, {nullptr, nullptr});
  EXPECT_EQ(ImportArray(&negative.c, int32()).status().code(), StatusCode::kDataError);

  const std::vector<int8_t> codes = {7};
  FakeArray bad_code(1, {codes.data()});
  EXPECT_EQ(ImportArray(&bad_code.c, union_(UnionMode::kSparse, {})).status().code(), StatusCode::kDataError);
}

TEST(CDataTest, MalformedFormatsAndMetadataAreErrors) {
  for (const char* format : {"", "x", "d:", "d:1", "d:1,2,3", "w:-1", "tsx:", "tt?", "+w:", "+ud:1,", "+us:300", "+l",
                             "+m"}) {
    auto type = TypeFromFormat(format, {}, 0);
    EXPECT_EQ(type.status().code(), StatusCode::kDataError) << format;
  }
  auto list_of_two = TypeFromFormat("+l", {Field::Make("a", int8()), Field::Make("b", int8())}, 0);
  EXPECT_FALSE(list_of_two.ok());
  auto scalar_with_child = TypeFromFormat("i", {Field::Make("a", int8())}, 0);
  EXPECT_FALSE(scalar_with_child.ok());

  // A metadata blob that claims a negative length.
  std::string metadata(12, '\0');
  const int32_t pairs = 1, length = -5;
  std::memcpy(metadata.data(), &pairs, 4);
  std::memcpy(metadata.data() + 4, &length, 4);
  ArrowSchema c{};
  c.format = "i";
  c.name = "x";
  c.metadata = metadata.data();
  static bool released = false;
  c.release = [](ArrowSchema* s) {
    released = true;
    s->release = nullptr;
  };
  EXPECT_EQ(ImportField(&c).status().code(), StatusCode::kDataError);
  EXPECT_TRUE(released);
}

TEST(CStreamTest, BatchesFlowThroughAStreamAndErrorsCarryTheirText) {
  const SchemaPtr schema = Schema::Make({Field::Make("x", int32())});
  int produced = 0;
  BatchSource next = [&]() -> Result<std::shared_ptr<RecordBatch>> {
    if (produced == 3) return std::shared_ptr<RecordBatch>();
    ++produced;
    return RecordBatch::Make(schema, 1, {ArrayData::Make(int32(), 1, {nullptr, BufferOf<int32_t>({produced})}, 0)});
  };
  ArrowArrayStream c;
  ASSERT_TRUE(ExportBatchStream(schema, next, &c).ok());
  auto reader = StreamReader::Open(&c);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(c.release, nullptr);
  EXPECT_TRUE((*reader)->schema()->Equals(*schema));
  std::vector<int32_t> seen;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    seen.push_back((*batch)->column_data(0)->GetValues<int32_t>(1)[0]);
  }
  EXPECT_EQ(seen, (std::vector<int32_t>{1, 2, 3}));

  ArrowArrayStream failing;
  ASSERT_TRUE(ExportBatchStream(
                  schema, []() -> Result<std::shared_ptr<RecordBatch>> { return Status::DataError("disk on fire"); },
                  &failing)
                  .ok());
  auto failing_reader = StreamReader::Open(&failing);
  ASSERT_TRUE(failing_reader.ok());
  auto error = (*failing_reader)->Next();
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kIOError);
  // The producer's own words, as it would print them, with nothing put in front.
  EXPECT_EQ(error.status().message(), Status::DataError("disk on fire").ToString());
  EXPECT_FALSE((*failing_reader)->Next().ok());  // stays failed
}

}  // namespace
}  // namespace recflow::c_data
