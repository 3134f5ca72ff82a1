#!/bin/sh
# Builds the C simulation of a generated Vitis project with flowhls's ap_fixed / ap_int
# stand-in (include/csim) and, when AMD's headers are given and present, against AMD's own
# (ap_fixed.h, ap_int.h, hls_stream.h), runs both on the project's data and saves every output
# each computes (a hook around the testbench's flowhls_compare; the project is not changed) to
# build/outputs-standin/ and build/outputs-amd/; exit status 0 when both ran and their outputs
# are identical bit for bit, 1 when they differ, 77 (ctest's skip) after the stand-in run when
# the headers are missing (2 in CI, FLOWHLS_CI set), 2 on a build failure. With `-` for the
# headers: the stand-in alone, exit 0.
# A PandA-Bambu project (kernel.c): built with gcc -std=c99 as its Makefile does, and again
# under AddressSanitizer and UndefinedBehaviorSanitizer; outputs to build/outputs-c99/ and
# build/outputs-c99-sanitize/; exit 0 when both ran, with identical outputs and no sanitizer
# report, 1 otherwise, 2 on a build failure.
# Usage: fixed-csim.sh PROJECT_DIR XILINX_HLS_INCLUDE_DIR|-
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PROJECT_DIR XILINX_HLS_INCLUDE_DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd); inc=$2
cd "$dir"
mkdir -p build/save-hook
cat > build/save-hook/flowhls_tb.h <<HOOK
/* flowhls_tb.h wrapped so that each output the testbench compares is also saved raw. */
#include "$dir/include/flowhls_tb.h"
#ifndef FLOWHLS_SAVE_HOOK
#define FLOWHLS_SAVE_HOOK
static inline flowhls_comparison flowhls_save_compare(const char *name, const void *got, const void *want,
                                                      size_t elem_size, int kind, size_t n, double atol, double rtol) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", getenv("FLOWHLS_SAVE_DIR"), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(got, elem_size, n, f) != n) { fprintf(stderr, "cannot write %s\n", path); exit(2); }
    fclose(f);
    return flowhls_compare(got, want, elem_size, kind, n, atol, rtol);
}
#define flowhls_compare(got, ...) flowhls_save_compare(#got, got, __VA_ARGS__)
#endif
HOOK
run() {  # run NAME: the binary build/csim-NAME on data, outputs to build/outputs-NAME
    rm -rf "build/outputs-$1"; mkdir -p "build/outputs-$1"
    FLOWHLS_SAVE_DIR="build/outputs-$1" "./build/csim-$1" data > "build/csim-$1.log" 2>&1 || true
    tail -n 1 "build/csim-$1.log"
}
if [ -f kernel.c ]; then
  srcs="kernel.c tb.c"
  for rom in rom/*.c; do [ -f "$rom" ] && srcs="$srcs $rom"; done
  cflags="-std=c99 -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-label -ffp-contract=off -I. -Ibuild/save-hook -Iinclude"
  gcc $cflags -O2 $srcs -o build/csim-c99 -lm || exit 2
  run c99
  gcc $cflags -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all $srcs \
      -o build/csim-c99-sanitize -lm || exit 2
  run c99-sanitize
  if grep -E "runtime error|AddressSanitizer" build/csim-c99-sanitize.log; then exit 1; fi
  diff -r build/outputs-c99 build/outputs-c99-sanitize >/dev/null || { echo "c99: the sanitized build's outputs differ"; exit 1; }
  [ -n "$(ls build/outputs-c99)" ] || { echo "c99: no outputs saved"; exit 1; }
  echo "c99: the plain and the sanitized builds give the same outputs, no sanitizer report"
  exit 0
fi
srcs="kernel.cpp tb.cpp"
for rom in rom/*.cpp; do [ -f "$rom" ] && srcs="$srcs $rom"; done
flags="-std=c++14 -O1 -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-label -ffp-contract=off"
g++ $flags -I. -Ibuild/save-hook -Iinclude -Iinclude/csim $srcs -o build/csim-standin -lm -pthread || exit 2
run standin
[ "$inc" = "-" ] && exit 0
if [ ! -f "$inc/ap_fixed.h" ]; then
  echo "fixed-csim: AMD's HLS headers not found (no ap_fixed.h in '$inc'): stand-in only" >&2
  [ -n "${FLOWHLS_CI:-}" ] && exit 2
  exit 77
fi
g++ $flags -Wno-uninitialized -Wno-maybe-uninitialized -I. -Ibuild/save-hook -Iinclude -isystem "$inc" $srcs \
    -o build/csim-amd -lm -pthread || exit 2
run amd
status=0
for f in build/outputs-standin/*.bin; do
  if cmp -s "$f" "build/outputs-amd/$(basename "$f")"; then
    echo "identical: $(basename "$f" .bin) ($(wc -c < "$f") bytes)"
  else
    echo "DIFFERENT: $(basename "$f" .bin)"; status=1
  fi
done
exit $status
