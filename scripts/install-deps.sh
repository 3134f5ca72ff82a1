#!/usr/bin/env bash
# Installs every dependency of flowhls from Debian 12 packages (the only install step).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config make g++ gcc
  libhalide14-0-dev
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  graphviz
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  python3-onnx python3-numpy python3-torch python3-torchvision
  # PandA-Bambu at run time (flowhls synth, tests/synth): clang-16 is its front end, it compiles
  # for -m32 and links several sources with llvm-link-16, its clang plugins need libbdd; Verilator
  # runs the RTL co-simulation.
  clang-16 llvm-16 gcc-multilib g++-multilib libc6-dev-i386 libbdd0c2 verilator
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: not root and sudo is not available" >&2; exit 1
  fi
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
