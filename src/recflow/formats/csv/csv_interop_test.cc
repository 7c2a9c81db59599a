// Interop test: the shared penguins_processed.csv (TFX's penguin example data) reads with the right types.
#include <gtest/gtest.h>

#include "recflow/columnar/array.h"
#include "recflow/formats/csv/csv_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow::csv {
namespace {

TEST(CsvInteropTest, PenguinsProcessed) {
  RECFLOW_REQUIRE_TESTDATA();
  const auto path = (recflow::testing::TestdataDir() / "csv" / "penguins_processed.csv").string();
  auto options = ReadOptions::Defaults();
  options.batch_rows = 100;
  auto reader = CsvReader::FromStream(FileInputStream::Open(path).ValueOrDie(), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const SchemaPtr& schema = (*reader)->schema();
  ASSERT_EQ(schema->num_fields(), 5);
  EXPECT_EQ(schema->ToString(),
            "species: int64 not null\nculmen_length_mm: float64 not null\nculmen_depth_mm: float64 not null\n"
            "flipper_length_mm: float64 not null\nbody_mass_g: float64 not null");
  int64_t rows = 0;
  int64_t species_sum = 0;
  double first_length = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    ASSERT_TRUE((*batch)->ValidateFull().ok());
    Int64Array species((*batch)->column_data(0));
    for (int64_t i = 0; i < species.length(); ++i) species_sum += species.Value(i);
    if (rows == 0) first_length = Float64Array((*batch)->column_data(1)).Value(0);
    rows += (*batch)->num_rows();
  }
  EXPECT_EQ(rows, 334);
  EXPECT_EQ(species_sum, 68 + 2 * 120);  // 146 Adelie (0), 68 Chinstrap (1), 120 Gentoo (2)
  EXPECT_DOUBLE_EQ(first_length, 0.2545454545454545);
}

}  // namespace
}  // namespace recflow::csv
