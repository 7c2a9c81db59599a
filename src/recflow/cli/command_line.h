// RunCommandLine: parses `recflow`'s command line and runs the command it names.
#pragma once

namespace recflow::cli {

/// Parses the arguments (a misspelt command is named with the one it most likely meant; --help
/// shows defaults), runs the command and returns the exit code: 0 ok, 1 data or runtime error,
/// 2 usage error; convert and run stop on SIGTERM and SIGINT, remove their unfinished outputs
/// and exit 143 and 130 (see HandleTerminationSignals) — a run of an unbounded pipeline drains
/// and exits 0 on the first, stops on the second; serve stops and exits 0.
int RunCommandLine(int argc, char** argv);

}  // namespace recflow::cli
