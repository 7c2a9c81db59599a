# Precompiled headers: the standard library headers nearly every file includes, and the heavy third-party headers
# of the layers that use them, parsed once per target instead of once per file (a cold build of `recflow`, what a
# new user's `make demo` waits for, takes about half the CPU time).
include_guard(GLOBAL)

# The debug (ASan+UBSan) preset turns it off, so that `make asan` catches a file that relies on a header it
# does not include.
option(RECFLOW_PCH "Precompile the common headers of each library" ON)

set(RECFLOW_PCH_STD
  <algorithm> <cstdint> <cstring> <functional> <map> <memory> <optional> <span> <string> <string_view> <utility>
  <vector>)

# recflow_precompile(TARGET [HEADER...]): the common standard headers plus HEADERs, precompiled for TARGET.
function(recflow_precompile target)
  if(RECFLOW_PCH AND NOT RECFLOW_FUZZ)
    target_precompile_headers(${target} PRIVATE ${RECFLOW_PCH_STD} ${ARGN})
  endif()
endfunction()
