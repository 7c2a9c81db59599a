# Helpers that add a test, a benchmark or a fuzz target in one line each.
include_guard(GLOBAL)

# recflow_add_test(NAME SOURCES... LIBS libs... LABELS labels...)
# A GoogleTest binary registered with ctest under the given labels (default: unit).
function(recflow_add_test name)
  if(NOT RECFLOW_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES} ${T_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${T_LIBS} recflow_testing GTest::gtest GTest::gtest_main)
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
endfunction()

# recflow_add_benchmark(NAME SOURCES... LIBS libs...)
# A Google Benchmark binary under bench/; never run by ctest (timings do not belong in tests). Its main is
# bench/benchmark_main.cc (the allocator tuned as the recflow command tunes it): sources define no main.
function(recflow_add_benchmark name)
  if(NOT RECFLOW_BUILD_BENCHMARKS)
    return()
  endif()
  if(NOT TARGET recflow_benchmark_main)
    add_library(recflow_benchmark_main STATIC ${PROJECT_SOURCE_DIR}/bench/benchmark_main.cc)
    target_link_libraries(recflow_benchmark_main PUBLIC recflow_core benchmark::benchmark)
  endif()
  cmake_parse_arguments(B "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${B_SOURCES} ${B_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${B_LIBS} recflow_benchmark_main)
endfunction()

# recflow_add_fuzz(NAME SOURCE LIBS libs... CORPUS dir)
# A libFuzzer target (LLVMFuzzerTestOneInput). With RECFLOW_FUZZ it links libFuzzer; otherwise
# it links the smoke driver, which ctest runs (label fuzz-smoke) over the seed corpus and a
# fixed number of deterministic mutations of it.
function(recflow_add_fuzz name source)
  cmake_parse_arguments(F "" "CORPUS" "LIBS" ${ARGN})
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  # scripts/run-fuzzers seeds each target's corpus from the directory recorded here.
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz-seeds/${name} "${F_CORPUS}")
  if(RECFLOW_FUZZ)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_link_libraries(${name} PRIVATE recflow_fuzz_smoke_main)
    if(RECFLOW_BUILD_TESTS)
      add_test(NAME ${name} COMMAND ${name} ${F_CORPUS})
      set_tests_properties(${name} PROPERTIES LABELS fuzz-smoke)
    endif()
  endif()
endfunction()
