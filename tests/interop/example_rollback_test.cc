// Interop: a TensorFlow-written record cut at every byte fails (exactly when libprotobuf rejects the cut) without a trace in the batch.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "example.pb.h"
#include "interop_util.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/testing/testdata.h"

namespace recflow::interop {
namespace {

using example::RecordType;

struct TfxFile {
  const char* name;
  RecordType type;
};

constexpr TfxFile kTfxFiles[] = {
    {"penguin-train.tfrecord.gz", RecordType::kExample},
    {"taxi-train-00000-of-00012.tfrecord.gz", RecordType::kExample},
    {"mnist.tfrecord", RecordType::kExample},
    {"transform-sequence-example.tfrecord.gz", RecordType::kSequenceExample},
};

bool LibprotobufParses(RecordType type, const std::string& bytes) {
  if (type == RecordType::kSequenceExample) return oracle::SequenceExample().ParseFromString(bytes);
  return oracle::Example().ParseFromString(bytes);
}

// Record 1 of each file, cut after every byte (cut at every 16th byte for mnist's 3 KB
// records), goes between records 0 and 2: when the decoder refuses the cut, the batch equals
// the batch of records 0 and 2 alone; it refuses with a DataError exactly when libprotobuf does.
TEST(ExampleRollbackTest, EveryCutOfARealRecordLeavesNoTrace) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const TfxFile& file : kTfxFiles) {
    SCOPED_TRACE(file.name);
    INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records,
                           ReadRecords((testing::TestdataDir() / "tfrecord" / "tfx" / file.name).string()));
    ASSERT_GE(records.size(), 3u);
    INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, file.type));
    INTEROP_ASSIGN_OR_FAIL(auto want, DecodeAll({records[0], records[2]}, schema, file.type));
    INTEROP_ASSIGN_OR_FAIL(auto decoder, example::Decoder::Make(schema, file.type));
    const size_t step = records[1].size() > 1000 ? 16 : 1;
    int refused = 0;
    for (size_t n = 0; n < records[1].size(); n += step) {
      const std::string cut = records[1].substr(0, n);
      INTEROP_ASSERT_OK(decoder->Append(records[0]));
      const Status st = decoder->Append(cut);
      INTEROP_ASSERT_OK(decoder->Append(records[2]));
      INTEROP_ASSIGN_OR_FAIL(auto got, decoder->Finish());
      INTEROP_ASSERT_OK(got->ValidateFull());
      EXPECT_EQ(st.code() == StatusCode::kDataError, !LibprotobufParses(file.type, cut)) << n << ": " << st.ToString();
      if (st.ok()) continue;
      ++refused;
      EXPECT_TRUE(got->Equals(*want)) << "cut at " << n << ": " << st.ToString();
    }
    EXPECT_GT(refused, 0);
  }
}

}  // namespace
}  // namespace recflow::interop
