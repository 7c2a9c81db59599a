// The DoFns of the select/drop/rename and standard_scale/min_max_scale steps, for pipelines built in C++ (serve's
// short form) as well as from YAML.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/ops/columns/scale.h"
#include "recflow/ops/columns/select.h"
#include "recflow/pipeline/do_fn.h"

namespace recflow::pipeline {

/// The DoFn of select, drop and rename (and convert's --select): `projection`, resolved against
/// the step's input when it was built; OutputSchema fails on any other input schema.
std::shared_ptr<const DoFn> MakeProjectionDoFn(ops::Projection projection);

/// Scales `columns` with `scaler` by the moments in the one-row side input "fit": one
/// MomentsCombiner column per scaled column, in order (what the step's fit, a CombineGlobally,
/// makes — or a Create holding a fit made before).
std::shared_ptr<const DoFn> MakeScaleDoFn(ops::ColumnScaler scaler, std::vector<std::string> columns);

}  // namespace recflow::pipeline
