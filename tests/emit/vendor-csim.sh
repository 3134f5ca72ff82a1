#!/bin/sh
# Builds the C simulation of a generated Vitis project against AMD's own HLS headers (ap_int,
# hls_stream; not flowhls's hls::stream stand-in in include/csim) with -std=STD and runs it:
# exit status 0 only when the testbench prints PASS. Without the headers: exit 77 (ctest's skip)
# with a message, or 2 in CI (FLOWHLS_CI set), where they must be present.
# Usage: vendor-csim.sh PROJECT_DIR STD XILINX_HLS_INCLUDE_DIR
set -eu
[ $# -eq 3 ] || { echo "usage: $0 PROJECT_DIR STD XILINX_HLS_INCLUDE_DIR" >&2; exit 2; }
dir=$1; std=$2; inc=$3
if [ ! -f "$inc/hls_stream.h" ]; then
  echo "vendor-csim: AMD's HLS headers not found (no hls_stream.h in '$inc'; CMake FLOWHLS_XILINX_HLS_INCLUDE)" >&2
  [ -n "${FLOWHLS_CI:-}" ] && exit 2
  exit 77
fi
cd "$dir"
srcs="kernel.cpp tb.cpp"
for rom in rom/*.cpp; do [ -f "$rom" ] && srcs="$srcs $rom"; done
mkdir -p build
# Same warnings as the project's Makefile; AMD's headers are system headers (their own warnings
# are not ours). GCC's flow analysis reports AMD's ap_int operators (their internal
# temporaries, inlined into the kernel) as reading uninitialized words: not ours either; the
# project's own build with flowhls's ap_int stand-in keeps -Wuninitialized (and the sanitizers).
g++ -std="$std" -O1 -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-label -ffp-contract=off \
    -Wno-uninitialized -Wno-maybe-uninitialized \
    -I. -Iinclude -isystem "$inc" $srcs -o "build/csim-amd-$std" -lm -pthread
"./build/csim-amd-$std" data
