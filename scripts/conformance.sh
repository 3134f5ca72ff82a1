#!/usr/bin/env bash
# Runs the ONNX conformance suite (Debian's libonnx-testdata) and regenerates docs/conformance.md.
#   scripts/conformance.sh [extra 'flowhls conformance' options, e.g. --filter conv]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/flowhls ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build --target flowhls; }
exec build/flowhls conformance --jobs "$(nproc)" --markdown docs/conformance.md "$@"
