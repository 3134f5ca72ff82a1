#!/usr/bin/env bash
# Configures, builds and runs the whole flowhls test suite (ctest) on all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=build
JOBS=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"
ctest --test-dir "$BUILD_DIR" -j "$JOBS" --output-on-failure
