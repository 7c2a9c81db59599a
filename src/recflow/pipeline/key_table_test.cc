// Tests of KeyTable: key rows of groups added batch by batch between reads (a streaming grouping) come back right.
#include <gtest/gtest.h>

#include <random>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/pipeline/grouping_internal.h"

namespace recflow::pipeline {
namespace {

// A batch of key rows (id int64, name utf8) for ids `ids`, named "k<id>".
std::shared_ptr<RecordBatch> KeyRows(const SchemaPtr& schema, const std::vector<int64_t>& ids) {
  NumericBuilder<int64_t> id;
  BinaryBuilder name(utf8());
  for (int64_t i : ids) {
    EXPECT_TRUE(id.Append(i).ok());
    EXPECT_TRUE(name.Append("k" + std::to_string(i)).ok());
  }
  return std::make_shared<RecordBatch>(schema, static_cast<int64_t>(ids.size()),
                                       std::vector<std::shared_ptr<ArrayData>>{*id.Finish(), *name.Finish()});
}

TEST(KeyTableTest, GroupsAddedBetweenReadsGiveTheirKeysInAnyOrder) {
  const SchemaPtr schema = Schema::Make({Field::Make("id", int64()), Field::Make("name", utf8())});
  std::mt19937_64 rng(5);
  KeyTable table;
  int64_t groups = 0;
  for (int round = 0; round < 200; ++round) {
    // A batch of key rows, some of whose keys are new (they become groups groups, groups + 1, ...).
    std::vector<int64_t> ids;
    for (int i = 0; i < 20; ++i) ids.push_back(static_cast<int64_t>(rng() % 3000));
    const auto rows = KeyRows(schema, ids);
    for (size_t row = 0; row < ids.size(); ++row) {
      bool created = false;
      const int64_t group = table.Find(std::to_string(ids[row]), &created);
      if (created) {
        ASSERT_EQ(group, groups++);
        table.AddKeyRow(rows, static_cast<int64_t>(row));
      }
    }
    ASSERT_EQ(table.size(), groups);
    if (round % 3 != 0) continue;  // not read after every batch
    // Groups in random order, with repeats: each must come back with the key it was made with.
    std::vector<int64_t> asked;
    for (int i = 0; i < 50; ++i) asked.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(groups)));
    auto columns = table.KeyColumnsOf(schema, asked);
    ASSERT_TRUE(columns.ok()) << columns.status().ToString();
    for (size_t i = 0; i < asked.size(); ++i) {
      const int64_t id = IntegerValue(*(*columns)[0], static_cast<int64_t>(i));
      EXPECT_EQ(BinaryValue(*(*columns)[1], static_cast<int64_t>(i)), "k" + std::to_string(id));
      bool created = true;
      EXPECT_EQ(table.Find(std::to_string(id), &created), asked[i]);
      EXPECT_FALSE(created);
    }
  }
  auto all = table.KeyColumns(schema, 0, groups);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)[0]->length, groups);
}

}  // namespace
}  // namespace recflow::pipeline
