// `recflow run PIPELINE.yaml --runner dask`: the run handed to `python3 -m recflow.dask run`, the recflow module of
// this build importable.
#pragma once

#include <string>
#include <vector>

#include "recflow/cli/run_command.h"
#include "recflow/core/result.h"

namespace recflow::cli {

/// The command line of `python3 -m recflow.dask run` for `flags` (--scheduler, --set, --split-bytes, --partitions,
/// --threads as engine threads per task, --metrics, --quiet), after the interpreter `python`.
std::vector<std::string> DaskRunArguments(const std::string& python, const RunFlags& flags);

/// The directory holding this build's `recflow` Python package: `python/` beside the directory of
/// the running executable (build/<preset>/bin → build/<preset>/python), else the one the build made
/// (RECFLOW_PYTHON_DIR); NotFound naming both when neither holds recflow/__init__.py (a build
/// without the Python module).
Result<std::string> RecflowPythonDir();

/// Replaces this process with `python3 -m recflow.dask run ...` (the interpreter the Python module
/// was built for), RecflowPythonDir() first on its PYTHONPATH: its exit status and its table are
/// the command's. Returns only on failure: InvalidArgument without --scheduler, NotFound without
/// the module, IOError when the interpreter cannot be started.
Status ExecDaskRun(const RunFlags& flags);

}  // namespace recflow::cli
