// Window and pane output columns; event times from integer, timestamp or ISO-8601 text columns.
#include "recflow/pipeline/window_columns.h"

#include <string>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/value_parsing.h"

namespace recflow::pipeline {

namespace {

// a / b rounded toward negative infinity (event times before 1970 floor to their millisecond).
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// Milliseconds per unit, or the divisor for sub-millisecond units (negative).
int64_t Scale(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1000;
    case TimeUnit::kMilli: return 1;
    case TimeUnit::kMicro: return -1000;
    case TimeUnit::kNano: return -1'000'000;
  }
  return 1;
}

bool IsText(const DataType& type) { return type.id() == TypeId::kUtf8 || type.id() == TypeId::kLargeUtf8; }

}  // namespace

std::vector<FieldPtr> WindowColumnFields() {
  return {Field::Make("window_start", int64(), false),
          Field::Make("window_end", int64(), false),
          Field::Make("timestamp", int64(), false),
          Field::Make("pane_index", int64(), false),
          Field::Make("pane_nonspeculative_index", int64(), false),
          Field::Make("pane_timing", utf8(), false),
          Field::Make("pane_is_first", boolean(), false),
          Field::Make("pane_is_last", boolean(), false)};
}

Result<std::vector<std::shared_ptr<ArrayData>>> WindowColumns(std::span<const PaneRow> panes) {
  NumericBuilder<int64_t> start, end, timestamp, index, nonspeculative;
  BinaryBuilder timing(utf8());
  BooleanBuilder first, last;
  for (const PaneRow& p : panes) {
    RETURN_NOT_OK(start.Append(p.window.start));
    RETURN_NOT_OK(end.Append(p.window.end));
    RETURN_NOT_OK(timestamp.Append(p.timestamp));
    RETURN_NOT_OK(index.Append(p.info.index));
    RETURN_NOT_OK(nonspeculative.Append(p.info.nonspeculative_index));
    RETURN_NOT_OK(timing.Append(window::PaneTimingName(p.info.timing)));
    RETURN_NOT_OK(first.Append(p.info.is_first));
    RETURN_NOT_OK(last.Append(p.info.is_last));
  }
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&start, &end, &timestamp, &index, &nonspeculative,
                                                               &timing, &first, &last}) {
    ASSIGN_OR_RETURN(auto column, b->Finish());
    columns.push_back(std::move(column));
  }
  return columns;
}

int MarkedEventTimeColumn(const Schema& schema) {
  for (int c = 0; c < schema.num_fields(); ++c) {
    const auto& metadata = schema.field(c)->metadata();
    if (metadata != nullptr && metadata->Get(kEventTimeMetadataKey).has_value()) return c;
  }
  return -1;
}

Status CheckEventTimeField(const Field& field) {
  const DataType& type = *field.type();
  if (type.is_integer() || type.id() == TypeId::kTimestamp || IsText(type)) return Status::OK();
  return Status::TypeError("event time column '" + field.name() + "' is " + type.ToString() +
                           "; it must be an integer (epoch milliseconds or microseconds), a timestamp or ISO-8601 text");
}

Status EventTimes(const ArrayData& column, const Field& field, bool micros, std::vector<window::Millis>* out) {
  const DataType& type = *field.type();
  out->resize(static_cast<size_t>(column.length));
  auto bad = [&](int64_t row, const std::string& why) {
    return Status::DataError("event time column '" + field.name() + "': " + why).WithRecord(row).WithField(field.name());
  };
  const int64_t scale = type.id() == TypeId::kTimestamp ? Scale(type.params().unit) : (micros ? -1000 : 1);
  for (int64_t i = 0; i < column.length; ++i) {
    if (!IsValidAt(column, i)) return bad(i, "null (every row needs an event time)");
    int64_t value = 0;
    if (IsText(type)) {
      const std::string_view text = BinaryValue(column, i);
      int64_t us = 0;
      if (!ParseTimestampMicros(text, &us)) return bad(i, "'" + std::string(text) + "' is not an ISO-8601 time");
      value = FloorDiv(us, 1000);
    } else {
      value = IntegerValue(column, i);
      if (scale < 0) {
        value = FloorDiv(value, -scale);
      } else if (__builtin_mul_overflow(value, scale, &value)) {
        return bad(i, "out of range");
      }
    }
    if (value < window::kMinTime || value >= window::kGlobalWindowEnd) return bad(i, "out of range");
    (*out)[static_cast<size_t>(i)] = value;
  }
  return Status::OK();
}

}  // namespace recflow::pipeline
