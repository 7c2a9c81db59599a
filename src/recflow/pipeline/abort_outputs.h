// AbortOutputs: the failure path of every job — abort its unfinished outputs; a cancelled job's status says what went.
#pragma once

#include <vector>

#include "recflow/dataset/dataset_sink.h"

namespace recflow::pipeline {

/// Aborts every sink (its staged files removed, its output left as it was) after `failure`, and
/// returns `failure`. When it is Cancelled (the user stopped the job), its message then names
/// what was removed: "interrupted by SIGINT; removed the unfinished output of 'out'; what was
/// there is unchanged", or why removing failed. Other errors are returned unchanged: the output
/// left as it was is what a failed job promises.
Status AbortOutputs(Status failure, const std::vector<dataset::DatasetSink*>& sinks);

}  // namespace recflow::pipeline
