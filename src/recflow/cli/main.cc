// The `recflow` command: allocator tuning, the command line, and what escapes it.
#include <exception>
#include <new>

#include <fmt/core.h>

#include "recflow/core/allocator_tuning.h"
#include "recflow/cli/command_line.h"

int main(int argc, char** argv) {
  recflow::TuneAllocator();
  try {
    return recflow::cli::RunCommandLine(argc, argv);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "recflow: out of memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "recflow: internal error: {}\n", e.what());
  } catch (...) {
    fmt::print(stderr, "recflow: internal error\n");
  }
  return 1;
}
