// RunCommandLine: parses `recflow`'s command line and runs the command it names.
#pragma once

namespace recflow::cli {

/// Parses the arguments (a misspelt command is named with the one it most likely meant; --help
/// shows defaults), runs the command and returns the exit code: 0 ok, 1 data or runtime error,
/// 2 usage error; convert and run exit 143 on SIGTERM and 130 on SIGINT after removing their
/// unfinished outputs.
int RunCommandLine(int argc, char** argv);

}  // namespace recflow::cli
