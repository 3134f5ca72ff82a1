#!/usr/bin/env bash
# Builds flowhls's libFuzzer targets (clang, AddressSanitizer + UndefinedBehaviorSanitizer) in a
# build directory of their own, runs every case of the regression corpus through them, then
# fuzzes each for a bounded time from a seed corpus (the bundled model, ONNX backend test
# cases, the regression corpus). Exits non-zero if any input crashes a target.
#
#   fuzz/run.sh [--time SECONDS] [--seed N] [--build-dir DIR] [--jobs N] [--only NAME]
#
# --time: seconds per fuzzer (default 60); --seed: libFuzzer's random seed (default 1, so a CI
# run mutates the same way each time; 0 draws a fresh one); --build-dir: default build-fuzz; --only: one of
# OnnxImport, TestData, Directives. New interesting inputs are kept in BUILD/corpus/NAME, crash
# reproducers in BUILD/artifacts/ (run `BUILD/NAMEFuzzer FILE` to replay one).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
TIME=60
SEED=1
BUILD=$SRC/build-fuzz
JOBS=$(nproc 2>/dev/null || echo 2)
ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --time) TIME=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --build-dir) BUILD=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    *) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
CC=${FLOWHLS_FUZZ_CC:-clang-14}
CXX=${FLOWHLS_FUZZ_CXX:-clang++-14}

start=$(date +%s)
mkdir -p "$BUILD"
cmake -S "$SRC" -B "$BUILD" -DFLOWHLS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" > "$BUILD/configure.log" 2>&1 ||
  { cat "$BUILD/configure.log"; exit 1; }
cmake --build "$BUILD" -j "$JOBS" 2>&1 | grep -E "error|warning|Linking" || true
built=$(date +%s)
echo "fuzz: targets built in $((built - start)) s"

# Seed corpora: small inputs of each kind.
SEEDS=$BUILD/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS/OnnxImport" "$SEEDS/TestData" "$SEEDS/Directives" "$BUILD/artifacts"
REG=$SRC/fuzz/regression
cp "$SRC/models/lenet5/model.onnx" "$SEEDS/OnnxImport/lenet5.onnx"
cp "$SRC"/models/lenet5/test_data_set_0/*.pb "$SEEDS/TestData/"
TESTDATA=/usr/share/libonnx-testdata/data/node
if [ -d "$TESTDATA" ]; then
  # ONNX backend node cases whose model is small (several hundred), and their small test data.
  find "$TESTDATA" -name model.onnx -size -2k | sed 's|.*/node/\([^/]*\)/model.onnx$|&\t\1|' |
    while IFS=$'\t' read -r file name; do ln -s "$file" "$SEEDS/OnnxImport/$name.onnx"; done
  find "$TESTDATA" -path '*/test_data_set_0/*.pb' -size -2k | sed 's|.*/node/\([^/]*\)/test_data_set_0/\(.*\)$|&\t\1-\2|' |
    while IFS=$'\t' read -r file name; do ln -s "$file" "$SEEDS/TestData/$name"; done
fi
find "$REG/invalid" "$REG/valid" -name '*.onnx' -exec cp {} "$SEEDS/OnnxImport/" \;
cp "$REG"/data/* "$SEEDS/TestData/"
cp "$REG"/directives/*.json "$SEEDS/Directives/"
cat > "$SEEDS/Directives/blur.json" <<'JSON'
{
  "blur_y": {"pipeline": [{"loop": "y", "ii": 1}], "unroll": [{"loop": "x", "factor": 4}],
             "interface": {"mode": "m_axi", "bundle": "out"}},
  "blur_x": {"partition": [{"dim": 0, "type": "cyclic", "factor": 4}]},
  "gaussian": {"dataflow": false}
}
JSON
cat > "$SEEDS/Directives/model.json" <<'JSON'
{
  "/conv1/Conv": {"pipeline": [{"loop": "d2"}]},
  "/conv1/Conv_output_0": {"stream": {"depth": 4}},
  "/Relu": {"ping_pong": true, "partition": [{"dim": 0, "type": "cyclic", "factor": 4}]},
  "fc1_Gemm": {"inline": true}
}
JSON
echo "fuzz: seeds: $(ls "$SEEDS/OnnxImport" | wc -l) models, $(ls "$SEEDS/TestData" | wc -l) data files, $(ls "$SEEDS/Directives" | wc -l) directives files"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for name in OnnxImport TestData Directives; do
  [ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && continue
  bin=$BUILD/${name}Fuzzer
  case $name in
    OnnxImport) regression=$(find "$REG/invalid" "$REG/valid" -name '*.onnx' | sort) ;;
    TestData) regression=$(find "$REG/data" -type f | sort) ;;
    Directives) regression=$(find "$REG/directives" -type f | sort) ;;
  esac
  # Every regression case once (libFuzzer runs the files it is given).
  # shellcheck disable=SC2086
  if ! "$bin" -rss_limit_mb=4096 -timeout=120 $regression > "$BUILD/$name.regression.log" 2>&1; then
    echo "fuzz: $name: a regression case crashed:"; tail -40 "$BUILD/$name.regression.log"; status=1
  else
    echo "fuzz: $name: $(echo "$regression" | wc -w) regression cases, no crash"
  fi
  mkdir -p "$BUILD/corpus/$name"
  fuzz_start=$(date +%s)
  if ! "$bin" -max_total_time="$TIME" -seed="$SEED" -rss_limit_mb=4096 -timeout=120 -print_final_stats=1 \
      -artifact_prefix="$BUILD/artifacts/$name-" "$BUILD/corpus/$name" "$SEEDS/$name" > "$BUILD/$name.log" 2>&1; then
    echo "fuzz: $name: CRASH (reproducer in $BUILD/artifacts/):"; tail -60 "$BUILD/$name.log"; status=1
  else
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/$name.log" | grep -o '[0-9]*$' || echo "?")
    # libFuzzer runs the whole seed corpus first, even when that takes longer than --time.
    echo "fuzz: $name: $runs inputs in $(( $(date +%s) - fuzz_start )) s (seed corpus and ${TIME} s of fuzzing), no crash"
  fi
done
echo "fuzz: total $(( $(date +%s) - start )) s"
exit $status
