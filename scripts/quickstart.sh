#!/usr/bin/env bash
# One-command set-up: installs dependencies, builds flowhls and compiles the default demo
# (the LeNet-5 ONNX model in models/lenet5) into an HLS project, then runs its C simulation
# against PyTorch's output.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
BUILD_DIR=build
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$(nproc 2>/dev/null || echo 2)" --target flowhls
"$BUILD_DIR/flowhls" compile models/lenet5/model.onnx -o flowhls-out/lenet5 --csim
