// The `recflow` command: parses the command line and dispatches to a subcommand.
// Exit codes: 0 ok, 1 data or runtime error, 2 usage error; convert and run exit 143 on SIGTERM
// and 130 on SIGINT after removing their unfinished outputs.
#include <exception>
#include <new>
#include <string>
#include <vector>

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
#include "recflow/core/spelling.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

/// Makes --help show the default of every single-valued option of `app` and its commands
/// (`--mode TEXT=error`); flags and lists, whose defaults say nothing, are left out.
void ShowDefaults(CLI::App* app) {
  for (CLI::Option* option : app->get_options()) {
    if (option->get_type_size() > 0 && option->get_items_expected_max() == 1) option->capture_default_str();
  }
  for (CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) ShowDefaults(sub);
}

/// When the first argument is meant as a command but names none, the message (with the command
/// it most likely meant); "" otherwise. CLI11 alone would say "A subcommand is required".
std::string UnknownCommandMessage(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string word = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return "";
    names.push_back(sub->get_name());
  }
  const std::string closest = recflow::ClosestName(word, names);
  std::string message = "unknown command '" + word + "'";
  if (!closest.empty()) message += "; did you mean '" + closest + "'?";
  std::string all;
  for (const std::string& name : names) all += (all.empty() ? "" : ", ") + name;
  return message + " (commands: " + all + "; recflow --help)";
}

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
  ShowDefaults(&app);
  if (const std::string unknown = UnknownCommandMessage(app, argc, argv); !unknown.empty()) {
    fmt::print(stderr, "recflow: {}\n", unknown);
    return kExitUsage;
  }
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
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "recflow: out of memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "recflow: internal error: {}\n", e.what());
  } catch (...) {
    fmt::print(stderr, "recflow: internal error\n");
  }
  return kExitError;
}
