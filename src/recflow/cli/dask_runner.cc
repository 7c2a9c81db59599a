// ExecDaskRun: the build's Python package found beside the executable (or where the build put it), then execv.
#include "recflow/cli/dask_runner.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace recflow::cli {

namespace fs = std::filesystem;

std::vector<std::string> DaskRunArguments(const std::string& python, const RunFlags& flags) {
  std::vector<std::string> args = {python, "-m", "recflow.dask", "run", flags.pipeline, "--scheduler", flags.scheduler};
  for (const std::string& item : flags.set) {
    args.push_back("--set");
    args.push_back(item);
  }
  if (flags.split_bytes > 0) args.insert(args.end(), {"--split-bytes", std::to_string(flags.split_bytes)});
  if (flags.partitions > 0) args.insert(args.end(), {"--partitions", std::to_string(flags.partitions)});
  if (flags.threads > 0) args.insert(args.end(), {"--threads", std::to_string(flags.threads)});
  if (!flags.metrics_file.empty()) args.insert(args.end(), {"--metrics", flags.metrics_file});
  if (flags.quiet) args.push_back("--quiet");
  return args;
}

Result<std::string> RecflowPythonDir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  std::vector<fs::path> candidates;
  if (!error) candidates.push_back(exe.parent_path().parent_path() / "python");
  candidates.emplace_back(RECFLOW_PYTHON_DIR);
  for (const fs::path& dir : candidates) {
    if (fs::is_regular_file(dir / "recflow" / "__init__.py", error)) return dir.string();
  }
  std::string tried;
  for (const fs::path& dir : candidates) tried += (tried.empty() ? "" : " nor ") + dir.string();
  return Status::NotFound("--runner dask runs the recflow Python module, found neither in " + tried +
                          " (build the _recflow target)");
}

Status ExecDaskRun(const RunFlags& flags) {
  if (flags.scheduler.empty()) {
    return Status::InvalidArgument("--runner dask needs --scheduler tcp://HOST:PORT (a dask-scheduler's address)");
  }
  ASSIGN_OR_RETURN(const std::string package, RecflowPythonDir());
  const char* path = std::getenv("PYTHONPATH");
  const std::string python_path = path != nullptr && *path != '\0' ? package + ":" + path : package;
  if (setenv("PYTHONPATH", python_path.c_str(), 1) != 0) return Status::IOError("setenv: " + std::string(strerror(errno)));
  const std::vector<std::string> args = DaskRunArguments(RECFLOW_PYTHON, flags);
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(RECFLOW_PYTHON, argv.data());
  return Status::IOError(std::string("cannot run ") + RECFLOW_PYTHON + ": " + strerror(errno));
}

}  // namespace recflow::cli
