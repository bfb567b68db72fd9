# The bench's node signature equals the one recorded in tests/bench_signature,
# which a change to what the search does updates (with `Bench: N` in its
# commit body, CONTRIBUTING.md).
#   cmake -DBENCH=<gobblet-bench> -DRECORDED=<tests/bench_signature> -P bench_signature.cmake
execute_process(COMMAND ${BENCH} --quiet OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BENCH} --quiet exited ${status}: ${err}")
endif()
if(NOT out MATCHES "Nodes searched *: *([0-9]+)")
  message(FATAL_ERROR "no 'Nodes searched' line in the bench's output:\n${out}")
endif()
set(measured ${CMAKE_MATCH_1})
file(STRINGS ${RECORDED} recorded REGEX "^[0-9]+$")
if(NOT measured STREQUAL recorded)
  message(FATAL_ERROR "bench signature ${measured}, but tests/bench_signature records ${recorded}: "
                      "a search change updates the file and says 'Bench: ${measured}' in its commit body")
endif()
message(STATUS "bench signature ${measured}, as recorded")
