// Interop: recflow reads the TFRecord files TensorFlow (TFX, tf.Transform) wrote, checked
// against their documented content, the penguins CSV and libprotobuf's parse of every record.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "example.pb.h"
#include "feature_values.h"
#include "interop_util.h"
#include "recflow/columnar/array.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/testing/testdata.h"
#include "row_matcher.h"

namespace recflow::interop {
namespace {

using example::RecordType;

std::string TfxPath(const std::string& name) { return (testing::TestdataDir() / "tfrecord" / "tfx" / name).string(); }

struct TfxFile {
  const char* name;
  int64_t records;
  RecordType type;
};

constexpr TfxFile kTfxFiles[] = {
    {"penguin-train.tfrecord.gz", 234, RecordType::kExample},
    {"penguin-eval.tfrecord.gz", 100, RecordType::kExample},
    {"taxi-train-00000-of-00012.tfrecord.gz", 826, RecordType::kExample},
    {"mnist.tfrecord", 1000, RecordType::kExample},
    {"transform-sequence-example.tfrecord.gz", 3, RecordType::kSequenceExample},
};

// The field named `name` (of the given SequenceExample kind when `kind` is set); fails if absent.
FieldPtr FindField(const Schema& schema, const std::string& name, std::string_view kind = {}) {
  for (const FieldPtr& field : schema.fields()) {
    if (field->name() != name) continue;
    if (kind.empty()) return field;
    if (field->metadata() && field->metadata()->Get(example::kKindMetadataKey) == std::string(kind)) return field;
  }
  ADD_FAILURE() << "no field " << name << " " << kind << " in\n" << schema.ToString();
  return Field::Make(name, null());
}

int ColumnIndex(const Schema& schema, const FieldPtr& field) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i) == field) return i;
  }
  return -1;
}

void ExpectField(const Schema& schema, const std::string& name, const DataTypePtr& type, bool nullable) {
  FieldPtr field = FindField(schema, name);
  EXPECT_TRUE(field->type()->Equals(*type)) << name << ": " << field->type()->ToString() << " != " << type->ToString();
  EXPECT_EQ(field->nullable(), nullable) << name;
}

TEST(TfxFilesTest, RecordCounts) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const TfxFile& file : kTfxFiles) {
    INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records, ReadRecords(TfxPath(file.name)));
    EXPECT_EQ(static_cast<int64_t>(records.size()), file.records) << file.name;
  }
}

TEST(TfxFilesTest, PenguinSchema) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const char* name : {"penguin-train.tfrecord.gz", "penguin-eval.tfrecord.gz"}) {
    INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records, ReadRecords(TfxPath(name)));
    INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, RecordType::kExample));
    SCOPED_TRACE(name);
    EXPECT_EQ(schema->num_fields(), 5) << schema->ToString();
    ExpectField(*schema, "species", int64(), false);
    for (const char* feature : {"culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g"}) {
      ExpectField(*schema, feature, float32(), false);
    }
  }
}

// One penguin: species and the four measurements, as float32.
struct Penguin {
  int64_t species = 0;
  float measurements[4] = {};
  bool operator==(const Penguin& other) const {
    return species == other.species &&
           std::equal(std::begin(measurements), std::end(measurements), std::begin(other.measurements));
  }
};
constexpr const char* kMeasurements[] = {"culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g"};

std::ostream& operator<<(std::ostream& out, const Penguin& p) {
  out << "{species " << p.species;
  for (int i = 0; i < 4; ++i) out << ", " << kMeasurements[i] << " " << p.measurements[i];
  return out << "}";
}

// The CSV rows (header checked), floats parsed as double then rounded to float32 as TF does.
std::vector<Penguin> ReadPenguinsCsv() {
  std::ifstream in(testing::TestdataDir() / "csv" / "penguins_processed.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "species,culmen_length_mm,culmen_depth_mm,flipper_length_mm,body_mass_g");
  std::vector<Penguin> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream cells(line);
    std::string cell;
    Penguin p;
    std::getline(cells, cell, ',');
    p.species = std::stoll(cell);
    for (float& m : p.measurements) {
      std::getline(cells, cell, ',');
      m = static_cast<float>(std::strtod(cell.c_str(), nullptr));
    }
    rows.push_back(p);
  }
  return rows;
}

// The penguins recflow decodes from a file (with the schema inferred from it).
std::vector<Penguin> DecodePenguins(const std::string& name) {
  std::vector<Penguin> out;
  auto records = ReadRecords(TfxPath(name));
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  if (!records.ok()) return out;
  auto schema = InferSchema(*records, RecordType::kExample);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  if (!schema.ok()) return out;
  auto batch = DecodeAll(*records, *schema, RecordType::kExample);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  if (!batch.ok()) return out;
  const RecordBatch& b = **batch;
  Int64Array species(b.column_data(b.schema()->GetFieldIndex("species")));
  std::vector<Float32Array> measurements;
  for (const char* m : kMeasurements) measurements.emplace_back(b.column_data(b.schema()->GetFieldIndex(m)));
  for (int64_t row = 0; row < b.num_rows(); ++row) {
    Penguin p;
    p.species = species.Value(row);
    EXPECT_FALSE(species.IsNull(row));
    for (int i = 0; i < 4; ++i) {
      EXPECT_FALSE(measurements[static_cast<size_t>(i)].IsNull(row));
      p.measurements[i] = measurements[static_cast<size_t>(i)].Value(row);
    }
    out.push_back(p);
  }
  return out;
}

// TFX's ExampleGen split the CSV by hash into train (2/3) and eval (1/3), each keeping the CSV
// order: every CSV row must be the next unread row of exactly one of the two files.
TEST(TfxFilesTest, PenguinValuesEqualCsv) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::vector<Penguin> csv = ReadPenguinsCsv();
  const std::vector<Penguin> train = DecodePenguins("penguin-train.tfrecord.gz");
  const std::vector<Penguin> eval = DecodePenguins("penguin-eval.tfrecord.gz");
  ASSERT_EQ(csv.size(), 334u);
  ASSERT_EQ(train.size(), 234u);
  ASSERT_EQ(eval.size(), 100u);
  size_t next_train = 0;
  size_t next_eval = 0;
  for (size_t i = 0; i < csv.size(); ++i) {
    if (next_train < train.size() && train[next_train] == csv[i]) {
      ++next_train;
    } else if (next_eval < eval.size() && eval[next_eval] == csv[i]) {
      ++next_eval;
    } else {
      FAIL() << "CSV row " << i + 1 << " " << csv[i] << " is neither train row " << next_train << " "
             << (next_train < train.size() ? train[next_train] : Penguin()) << " nor eval row " << next_eval << " "
             << (next_eval < eval.size() ? eval[next_eval] : Penguin());
    }
  }
  EXPECT_EQ(next_train, train.size());
  EXPECT_EQ(next_eval, eval.size());
}

TEST(TfxFilesTest, TaxiSchemaAndKindlessFeatures) {
  RECFLOW_REQUIRE_TESTDATA();
  INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records,
                         ReadRecords(TfxPath("taxi-train-00000-of-00012.tfrecord.gz")));
  INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, RecordType::kExample));
  EXPECT_EQ(schema->num_fields(), 18) << schema->ToString();
  // Present with no kind in 281 records.
  ExpectField(*schema, "company", utf8(), true);
  // Never has a kind: nothing to type it by.
  ExpectField(*schema, "pickup_census_tract", null(), true);
  // Missing in some records (absent or kind-less).
  ExpectField(*schema, "dropoff_census_tract", int64(), true);
  ExpectField(*schema, "dropoff_community_area", int64(), true);
  ExpectField(*schema, "dropoff_latitude", float32(), true);
  ExpectField(*schema, "dropoff_longitude", float32(), true);
  // Always present with one value.
  ExpectField(*schema, "payment_type", utf8(), false);
  for (const char* name : {"fare", "pickup_latitude", "pickup_longitude", "tips", "trip_miles"}) {
    ExpectField(*schema, name, float32(), false);
  }
  for (const char* name : {"pickup_community_area", "trip_seconds", "trip_start_day", "trip_start_hour",
                           "trip_start_month", "trip_start_timestamp"}) {
    ExpectField(*schema, name, int64(), false);
  }

  INTEROP_ASSIGN_OR_FAIL(auto batch, DecodeAll(records, schema, RecordType::kExample));
  INTEROP_ASSERT_OK(batch->ValidateFull());
  const auto& company = batch->column_data(schema->GetFieldIndex("company"));
  const auto& tract = batch->column_data(schema->GetFieldIndex("pickup_census_tract"));
  EXPECT_EQ(company->null_count, 281);
  EXPECT_EQ(tract->null_count, 826);
  BinaryArray company_values(company);
  for (size_t row = 0; row < records.size(); ++row) {
    oracle::Example message;
    ASSERT_TRUE(message.ParseFromString(records[row]));
    const oracle::Feature& feature = message.features().feature().at("company");
    EXPECT_EQ(company_values.IsNull(static_cast<int64_t>(row)), !feature.has_bytes_list()) << "row " << row;
  }
  EXPECT_EQ(BinaryArray(company).GetView(0), "Dispatch Taxi Affiliation");
}

TEST(TfxFilesTest, MnistImages) {
  RECFLOW_REQUIRE_TESTDATA();
  INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records, ReadRecords(TfxPath("mnist.tfrecord")));
  INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, RecordType::kExample));
  EXPECT_EQ(schema->num_fields(), 2) << schema->ToString();
  ExpectField(*schema, "image_floats", list(float32()), false);
  ExpectField(*schema, "image_class", int64(), false);
  INTEROP_ASSIGN_OR_FAIL(auto batch, DecodeAll(records, schema, RecordType::kExample));
  INTEROP_ASSERT_OK(batch->ValidateFull());
  ASSERT_EQ(batch->num_rows(), 1000);
  ListArray images(batch->column_data(schema->GetFieldIndex("image_floats")));
  Int64Array classes(batch->column_data(schema->GetFieldIndex("image_class")));
  for (int64_t row = 0; row < batch->num_rows(); ++row) {
    ASSERT_EQ(images.value_length(row), 784) << "row " << row;
    EXPECT_GE(classes.Value(row), 0);
    EXPECT_LE(classes.Value(row), 9);
  }
}

TEST(TfxFilesTest, SequenceExample) {
  RECFLOW_REQUIRE_TESTDATA();
  INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records,
                         ReadRecords(TfxPath("transform-sequence-example.tfrecord.gz")));
  INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, RecordType::kSequenceExample));
  ASSERT_EQ(schema->num_fields(), 4) << schema->ToString();
  FieldPtr floats = FindField(*schema, "float_feature", example::kKindContext);
  FieldPtr context_int = FindField(*schema, "int_feature", example::kKindContext);
  FieldPtr strings = FindField(*schema, "string_feature", example::kKindFeatureList);
  FieldPtr list_int = FindField(*schema, "int_feature", example::kKindFeatureList);
  EXPECT_TRUE(floats->type()->Equals(*list(float32()))) << floats->ToString();
  EXPECT_TRUE(context_int->type()->Equals(*int64())) << context_int->ToString();
  EXPECT_TRUE(strings->type()->Equals(*list(list(utf8()))) || strings->type()->Equals(*list(list(binary()))))
      << strings->ToString();
  EXPECT_TRUE(list_int->type()->Equals(*list(list(int64())))) << list_int->ToString();
  for (const FieldPtr& field : schema->fields()) EXPECT_FALSE(field->nullable()) << field->ToString();

  INTEROP_ASSIGN_OR_FAIL(auto batch, DecodeAll(records, schema, RecordType::kSequenceExample));
  INTEROP_ASSERT_OK(batch->ValidateFull());
  ASSERT_EQ(batch->num_rows(), 3);
  const auto float_cell = CellValues(*batch->column_data(ColumnIndex(*schema, floats)), 0);
  ASSERT_TRUE(float_cell.has_value());
  EXPECT_EQ(float_cell->ToString(), "float[4]{1(0x3f800000), 2(0x40000000), 3(0x40400000), 4(0x40800000)}");
  const auto context_int_cell = CellValues(*batch->column_data(ColumnIndex(*schema, context_int)), 2);
  ASSERT_TRUE(context_int_cell.has_value());
  EXPECT_EQ(context_int_cell->ints, std::vector<int64_t>{2});
  const auto string_steps = StepValues(*batch->column_data(ColumnIndex(*schema, strings)), 1);
  ASSERT_TRUE(string_steps.has_value());
  ASSERT_EQ(string_steps->size(), 2u);
  EXPECT_EQ((*string_steps)[0]->bytes, (std::vector<std::string>{"foo", "bar"}));
  ASSERT_TRUE((*string_steps)[1].has_value()) << "an empty bytes_list step is an empty list, not null";
  EXPECT_EQ((*string_steps)[1]->size(), 0u);
  const auto int_steps = StepValues(*batch->column_data(ColumnIndex(*schema, list_int)), 2);
  ASSERT_TRUE(int_steps.has_value());
  ASSERT_EQ(int_steps->size(), 2u);
  EXPECT_EQ((*int_steps)[0]->ints, (std::vector<int64_t>{9, 10}));
  EXPECT_EQ((*int_steps)[1]->ints, (std::vector<int64_t>{11, 12}));
}

// Every record of every file: recflow's decode (inferred schema) equals libprotobuf's parse,
// and recflow's re-encoding parses back in libprotobuf to the decoded row.
TEST(TfxFilesTest, EveryRecordMatchesLibprotobuf) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const TfxFile& file : kTfxFiles) {
    SCOPED_TRACE(file.name);
    INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> records, ReadRecords(TfxPath(file.name)));
    INTEROP_ASSIGN_OR_FAIL(SchemaPtr schema, InferSchema(records, file.type));
    INTEROP_ASSIGN_OR_FAIL(auto batch, DecodeAll(records, schema, file.type));
    INTEROP_ASSERT_OK(batch->ValidateFull());
    INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> encoded, EncodeAll(*batch, file.type));
    ASSERT_EQ(batch->num_rows(), static_cast<int64_t>(records.size()));
    for (size_t row = 0; row < records.size(); ++row) {
      const auto r = static_cast<int64_t>(row);
      if (file.type == RecordType::kSequenceExample) {
        oracle::SequenceExample original, reencoded;
        ASSERT_TRUE(original.ParseFromString(records[row]));
        ASSERT_TRUE(reencoded.ParseFromString(encoded[row]));
        EXPECT_EQ(encoded[row].size(), reencoded.ByteSizeLong()) << "row " << row << " is not encoded canonically";
        EXPECT_TRUE(RowMatchesSequenceExample(*batch, r, original, Direction::kDecoded));
        EXPECT_TRUE(RowMatchesSequenceExample(*batch, r, reencoded, Direction::kEncoded));
      } else {
        oracle::Example original, reencoded;
        ASSERT_TRUE(original.ParseFromString(records[row]));
        ASSERT_TRUE(reencoded.ParseFromString(encoded[row]));
        EXPECT_EQ(encoded[row].size(), reencoded.ByteSizeLong()) << "row " << row << " is not encoded canonically";
        EXPECT_TRUE(RowMatchesExample(*batch, r, original, Direction::kDecoded));
        EXPECT_TRUE(RowMatchesExample(*batch, r, reencoded, Direction::kEncoded));
      }
    }
  }
}

}  // namespace
}  // namespace recflow::interop
