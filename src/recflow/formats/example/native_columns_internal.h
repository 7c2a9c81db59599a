// Arrow columns of any type as the types the tf.Example encoder writes (ints, floats, bytes, lists, structs).
#pragma once

#include <memory>
#include <string>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/feature_columns.h"

namespace recflow::example {

/// The type a column of `type` is written as: null, bool, the integers, float32/64, binary and
/// utf8 as they are; float16 as float32; dates, times, timestamps, durations and year-month
/// intervals as int64 in their own unit (days, milliseconds, the type's unit, months);
/// decimals as utf8 text or float64; large, fixed-size and view binaries as binary (utf8 for the
/// strings); dictionaries and run-end encoded columns as their values; every list kind (map
/// included, a list of its entries) as list of its item's type; struct as struct of its
/// members'. The rest (unions, day-time and month-day-nano intervals) is a TypeError whose
/// message says why (without naming a column).
Result<DataTypePtr> NativeType(const DataTypePtr& type, DecimalFeatures decimals);

/// `data` as an array of NativeType(data.type): the same length, element i holding element i's
/// value (and null where it is null: a dictionary index, a run's value, a struct). Columns of a
/// native type are shared, not copied. A DataError when one converted binary or list holds more
/// than int32 offsets reach.
Result<std::shared_ptr<ArrayData>> ToNative(const ArrayData& data, DecimalFeatures decimals);

/// `values` (offset 0, as long as `data`) with the nulls of `data` added to its own.
Result<std::shared_ptr<ArrayData>> WithNullsOf(const ArrayData& data, std::shared_ptr<ArrayData> values);

}  // namespace recflow::example
