// The `recflow` command: parses the command line and dispatches to a subcommand.
// Exit codes: 0 ok, 1 data or runtime error, 2 usage error; convert and run exit 143 on SIGTERM
// and 130 on SIGINT after removing their unfinished outputs.
#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "recflow/cli/allocator_tuning.h"
#include "recflow/cli/cat_command.h"
#include "recflow/cli/convert_command.h"
#include "recflow/cli/inspect_command.h"
#include "recflow/cli/run_command.h"
#include "recflow/cli/serve_command.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/cli/termination.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int Run(int argc, char** argv) {
  CLI::App app{"recflow: builds and feeds ML training data (TFRecord, tf.Example, Arrow)", "recflow"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "recflow 0.1.0");
  recflow::cli::InspectFlags inspect_flags;
  recflow::cli::CatFlags cat_flags;
  recflow::cli::ConvertFlags convert_flags;
  recflow::cli::ServeFlags serve_flags;
  recflow::cli::RunFlags run_flags;
  CLI::App* inspect = recflow::cli::AddInspectCommand(&app, &inspect_flags);
  CLI::App* cat = recflow::cli::AddCatCommand(&app, &cat_flags);
  CLI::App* convert = recflow::cli::AddConvertCommand(&app, &convert_flags);
  CLI::App* serve = recflow::cli::AddServeCommand(&app, &serve_flags);
  CLI::App* run = recflow::cli::AddRunCommand(&app, &run_flags);
  CLI::App* plan = recflow::cli::AddPlanCommand(&app, &run_flags);
  CLI::App* steps = recflow::cli::AddStepsCommand(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; CLI11 prints them itself.
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  recflow::cli::IgnoreSigpipe();
  recflow::cli::StdoutWriter out;
  recflow::Status st;
  if (inspect->parsed()) {
    st = recflow::cli::RunInspect(inspect_flags, &out);
  } else if (cat->parsed()) {
    st = recflow::cli::RunCat(cat_flags, &out);
  } else if (convert->parsed()) {
    recflow::cli::HandleTerminationSignals();
    st = recflow::cli::RunConvert(convert_flags, &out);
  } else if (serve->parsed()) {
    st = recflow::cli::RunServe(serve_flags);
  } else if (run->parsed()) {
    recflow::cli::HandleTerminationSignals();
    st = recflow::cli::RunPipelineCommand(run_flags);
  } else if (plan->parsed()) {
    st = recflow::cli::RunPlanCommand(run_flags, &out);
  } else if (steps->parsed()) {
    st = recflow::cli::RunStepsCommand(&out);
  }
  if (st.ok()) st = out.Flush();
  if (!st.ok()) {
    fmt::print(stderr, "recflow: {}\n", st.ToString());
    return st.code() == recflow::StatusCode::kInvalidArgument ? kExitUsage : kExitError;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  recflow::cli::TuneAllocator();
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "recflow: internal error: {}\n", e.what());
  } catch (...) {
    fmt::print(stderr, "recflow: internal error\n");
  }
  return kExitError;
}
