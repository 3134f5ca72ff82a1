#!/usr/bin/env bash
# Configures, builds and runs the whole flowhls test suite (ctest) on all cores.
# On a failure, the end of every failed test's output is printed again last (failed-tails.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=build
JOBS=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"
status=0
ctest --test-dir "$BUILD_DIR" -j "$JOBS" --output-on-failure || status=$?
if [ "$status" -ne 0 ]; then
  /usr/bin/python3 scripts/failed-tails.py "$BUILD_DIR/Testing/Temporary/LastTest.log" 25
fi
exit "$status"
