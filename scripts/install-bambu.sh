#!/usr/bin/env bash
# Builds PandA-Bambu (the HLS tool `flowhls synth` runs) from source with Debian 12 packages and
# installs it relocatably under a prefix. Optional: flowhls needs Bambu only for `synth`. Slow:
# the build takes about an hour on 4 cores and about 10 GB of disk.
#
# Usage: scripts/install-bambu.sh [SRC_DIR] [--prefix DIR] [--revision REV] [--jobs N] [--dry-run]
#   SRC_DIR        a PandA-bambu source tree (git checkout or unpacked archive); default: clone
#                  https://github.com/ferrandi/PandA-bambu.git at REV into PREFIX/src
#   --prefix DIR   where Bambu is installed (default: $HOME/.local/panda-bambu); the command is
#                  DIR/bin/bambu
#   --revision REV upstream revision to clone (default: 683d87153, PandA 2024.10 as flowhls tests it)
#   --jobs N       parallel build jobs (default: nproc)
#   --dry-run      print the packages and commands, change nothing
# The recipe is the one that built the copy flowhls is tested with: Debian's clang-16 as Bambu's
# front end, glpk, release build without asserts, `make install-strip` into a staging root.
set -euo pipefail

REPO=https://github.com/ferrandi/PandA-bambu.git
revision=683d87153
prefix="${HOME:-/root}/.local/panda-bambu"
jobs=$(nproc 2>/dev/null || echo 2)
src=""
dry=0

usage() { sed -n '6,13p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install-bambu: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift 2 ;;
    --revision) [ $# -ge 2 ] || die "--revision needs a git revision"; revision=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -z "$src" ] || die "more than one source directory given ('$src', '$1')"; src=$1; shift ;;
  esac
done
case "$jobs" in ''|*[!0-9]*|0) die "--jobs '$jobs' is not a positive number" ;; esac
if [ -n "$src" ]; then
  [ -d "$src" ] || die "source directory '$src' does not exist"
  [ -f "$src/Makefile.init" ] && [ -f "$src/configure.ac" ] ||
    die "'$src' is not a PandA-bambu source tree (no Makefile.init / configure.ac)"
  src=$(cd "$src" && pwd)
fi
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac

# Build dependencies (Debian 12), then what Bambu needs at run time: clang-16 as its front end,
# llvm-link-16 (several sources), 32-bit C headers (it compiles for -m32), libbdd (its clang plugins),
# Verilator for co-simulation.
BUILD_PACKAGES=(autoconf autoconf-archive automake bison flex libfl-dev libtool libbdd-dev libboost-all-dev
  libglpk-dev libicu-dev liblzma-dev libmpc-dev libmpfi-dev libmpfr-dev libsuitesparse-dev libxml2-dev
  zlib1g-dev clang-16 libclang-16-dev llvm-16-dev git make g++)
RUN_PACKAGES=(clang-16 llvm-16 gcc-multilib g++-multilib libc6-dev-i386 libbdd0c2 verilator)

run() {
  echo "+ $*"
  [ "$dry" = 1 ] || "$@"
}

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; elif [ "$dry" = 0 ]; then
    die "not root and sudo is not available: the Debian packages cannot be installed"
  fi
fi

echo "install-bambu: PandA-Bambu into $prefix (source: ${src:-$REPO @ $revision}), $jobs job(s)"
export DEBIAN_FRONTEND=noninteractive
run $SUDO apt-get update -qq
run $SUDO apt-get install -y -qq --no-install-recommends "${BUILD_PACKAGES[@]}" "${RUN_PACKAGES[@]}"

if [ -z "$src" ]; then
  src="$prefix/src/PandA-bambu"
  if [ ! -d "$src/.git" ]; then
    run mkdir -p "$prefix/src"
    run git clone --recurse-submodules "$REPO" "$src"
  fi
  run git -C "$src" checkout "$revision"
  run git -C "$src" submodule update --init --recursive
fi

obj="$prefix/build"
stage="$prefix/stage"
if [ "$dry" = 0 ]; then
  cd "$src"
  # An archive without git metadata: the revision the build embeds in `bambu --version`.
  [ -d .git ] || [ -f dist_revision_info ] || printf '"%s"\n"main"\n' "$revision" > dist_revision_info
  # ASIC cell libraries are large files upstream; FPGA flows do not need them.
  for f in etc/devices/Generic_devices/asap7/lib/asap7sc7p5t_{AO,OA}_RVT_{FF,SS,TT}_nldm_201020.lib \
           etc/devices/Generic_devices/nangate45/lib/NangateOpenCellLibrary_typical.lib; do
    [ -s "$f" ] || { mkdir -p "$(dirname "$f")"; echo "/* placeholder */" > "$f"; }
  done
fi
run make -C "$src" -f Makefile.init
run mkdir -p "$obj"
[ "$dry" = 1 ] || cd "$obj"
run "$src/configure" --prefix=/opt/panda --enable-glpk --enable-opt --with-opt-level=2 \
  --enable-release --disable-asserts --with-clang16=/usr/bin/clang-16
run make -C "$obj" -j"$jobs"
run make -C "$obj" install-strip DESTDIR="$stage"

# Relocatable layout: PREFIX/opt/panda, PREFIX/usr/bin/*-16 -> Debian's clang-16 tools, and a
# PREFIX/bin/bambu wrapper setting APPDIR (Bambu looks for its files and clang under it).
run mkdir -p "$prefix/bin" "$prefix/usr/bin" "$prefix/opt"
run rm -rf "$prefix/opt/panda"
run mv "$stage/opt/panda" "$prefix/opt/panda"
for tool in /usr/bin/*-16; do
  run ln -sf "$tool" "$prefix/usr/bin/$(basename "$tool")"
done
wrapper='#!/bin/sh
# PandA-Bambu relocated (installed by flowhls scripts/install-bambu.sh).
root=$(cd "$(dirname "$0")/.." && pwd)
APPDIR="$root" PATH="$root/opt/panda/bin:$PATH" exec "$root/opt/panda/bin/bambu" "$@"'
if [ "$dry" = 1 ]; then
  echo "+ write $prefix/bin/bambu (wrapper setting APPDIR=$prefix)"
else
  printf '%s\n' "$wrapper" > "$prefix/bin/bambu"
  chmod +x "$prefix/bin/bambu"
  "$prefix/bin/bambu" --version | tail -n 2
fi
echo "install-bambu: done. Use it with: flowhls synth OUT --bambu $prefix/bin/bambu"
echo "  (or: export PATH=$prefix/bin:\$PATH)"
