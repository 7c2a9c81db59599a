// The native halves of recflow.dask.convert: the driver's commit job and one task attempt's conversion of its splits.
#pragma once

#include <memory>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/formats/source.h"
#include "recflow/pipeline/pipeline.h"

namespace recflow::python {

/// The pipeline read → write of a convert: the rows of the opened `source` written by a
/// DatasetSink with `options`, through `file_system`. Its steps are not the user's, so its errors
/// do not name them. What recflow.write and a recflow.dask task run.
Result<std::unique_ptr<pipeline::Pipeline>> ReadWritePipeline(std::unique_ptr<Source> source,
                                                              dataset::SinkOptions options,
                                                              std::shared_ptr<FileSystem> file_system);

/// Begins the commit job of a distributed job's output written as `options` says, of rows of
/// `schema` (the layout checked as DatasetSink::Open checks it, then the save mode by
/// dataset::BeginDatasetJob), on the local file system. Its tasks write under AttemptsDir().
Result<std::unique_ptr<dataset::DatasetCommitter>> BeginTaskJob(const dataset::SinkOptions& options,
                                                                 const SchemaPtr& schema);

/// Begins the commit job of a distributed conversion of rows of `schema` into `spec`'s output
/// (checked as a convert checks it: the sink options and the layout, then the save mode by
/// dataset::BeginDatasetJob) on the local file system. Its tasks write under AttemptsDir().
Result<std::unique_ptr<dataset::DatasetCommitter>> BeginConvertJob(const dataset::OutputSpec& spec,
                                                                    const SchemaPtr& schema);

/// Converts the rows of `source` (one task's splits) as `spec` says into the attempt directory of
/// `task`, on `threads` engine threads (0: every core): the pipeline read → write of a convert,
/// its DatasetSink writing the task's files staged, uncommitted (dataset::TaskAttempt). On
/// failure the attempt directory is removed.
Result<dataset::SinkStats> RunConvertTask(std::unique_ptr<Source> source, const dataset::OutputSpec& spec,
                                          dataset::TaskAttempt task, int threads);

}  // namespace recflow::python
