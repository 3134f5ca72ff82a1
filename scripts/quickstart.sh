#!/usr/bin/env bash
# One-command set-up: installs dependencies, builds flowhls and compiles the default example
# into an HLS project, then runs its C simulation against the Halide JIT reference.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
BUILD_DIR=build
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$(nproc 2>/dev/null || echo 2)" --target flowhls
"$BUILD_DIR/flowhls" compile --example brighten_blur --schedule root -o flowhls-out/brighten_blur --csim
