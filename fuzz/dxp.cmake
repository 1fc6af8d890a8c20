# libFuzzer target for the DXP message parser and framing (issue 5). Self-contained: it
# compiles the few sources it needs with the fuzzer's instrumentation, so it does not depend on
# how damas_core is built. Include from fuzz/CMakeLists.txt (clang, DAMAS_FUZZ=ON):
#   include(${CMAKE_CURRENT_LIST_DIR}/dxp.cmake)
# Run: build/fuzz/fuzz/dxp_message_fuzz fuzz/corpus/dxp_message -max_total_time=60
set(DAMAS_DXP_FUZZ_SOURCES
  ${PROJECT_SOURCE_DIR}/fuzz/dxp_message_fuzz.cpp
  ${PROJECT_SOURCE_DIR}/src/dxp/dxp_message.cpp
  ${PROJECT_SOURCE_DIR}/src/dxp/dxp_framing.cpp
  ${PROJECT_SOURCE_DIR}/src/core/notation.cpp
  ${PROJECT_SOURCE_DIR}/src/core/movegen.cpp
  ${PROJECT_SOURCE_DIR}/src/core/position.cpp)
add_executable(dxp_message_fuzz ${DAMAS_DXP_FUZZ_SOURCES})
target_include_directories(dxp_message_fuzz PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(dxp_message_fuzz PRIVATE -fsanitize=fuzzer,address,undefined -g)
target_link_options(dxp_message_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
