#!/usr/bin/env bash
# Every bundled example (root schedule), the thesis's parallel/vectorized schedules and LeNet-5
# (weights in ROM and via m_axi) through PandA-Bambu and Verilator with `flowhls synth`; writes
# the measured figures as CSV (default: bench/reference/bambu_measured.csv) with their origin.
# Slow (about half an hour on 2 cores); the test suite runs a subset (tests/synth).
#
# Usage: bench/bambu-sweep.sh [--bambu PATH] [--flowhls PATH] [--out FILE] [--work DIR] [NAME...]
#   NAME  only these rows (e.g. gemm_root lenet5_rom); default: all
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
flowhls="$root/build/flowhls"
bambu=""
out="$root/bench/reference/bambu_measured.csv"
work="$root/build/bambu-sweep"
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bambu) bambu=$2; shift 2 ;;
    --flowhls) flowhls=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bambu-sweep: unknown option '$1'" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
[ -x "$flowhls" ] || { echo "bambu-sweep: no flowhls at $flowhls (build it first)" >&2; exit 2; }

# name | flowhls compile arguments | what it exercises
ROWS=(
  "2mm_root|-e 2mm -s root|PolyBench 2mm 24x24, float"
  "brighten_blur_root|-e brighten_blur -s root|uint16 stencil"
  "conv_relu_root|-e conv_relu -s root|3x3 conv 4->8 + ReLU, float"
  "conv_relu_parallel|-e conv_relu -s parallel|#pragma omp for on the channel loop"
  "gaussian_root|-e gaussian -s root|separable 3x3 blur, float"
  "gaussian_vectorized|-e gaussian -s vectorized|vector helper arrays (8 lanes)"
  "gemm_root|-e gemm -s root|PolyBench gemm 32x32, float"
  "gemm_vectorized|-e gemm -s vectorized|vector helper arrays (8 lanes)"
  "gemm_hls_unroll|-e gemm -s hls_unroll|#pragma GCC unroll of the k loop"
  "harris_root|-e harris -s root|Harris corners, float"
  "unsharp_root|-e unsharp -s root|unsharp mask, float"
  "unsharp_interfaces|-e unsharp -s root --directives bench/bambu-interfaces.json|m_axi input, axis output (--generate-interface=INFER)"
  "upsample_root|-e upsample -s root|2x nearest upsampling, uint16"
  "lenet5_rom|models/lenet5/model.onnx --weights rom|LeNet-5, weights in on-chip ROMs"
  "lenet5_axi|models/lenet5/model.onnx --weights axi|LeNet-5, weights through m_axi arguments"
)

synth_args=()
[ -n "$bambu" ] && synth_args=(--bambu "$bambu")
mkdir -p "$work"
results="$work/results.csv"
: > "$results"
for row in "${ROWS[@]}"; do
  IFS='|' read -r name args what <<< "$row"
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  echo "== $name: flowhls compile $args --target bambu; flowhls synth" >&2
  # shellcheck disable=SC2086
  "$flowhls" compile $args --target bambu -o "$work/$name" > "$work/$name.compile.log" 2>&1 ||
    { echo "bambu-sweep: $name did not compile (see $work/$name.compile.log)" >&2; continue; }
  "$flowhls" synth "$work/$name" "${synth_args[@]}" > "$work/$name.synth.log" 2>&1 || true
  tail -n 1 "$work/$name.synth.log" >&2
  /usr/bin/python3 - "$work/$name/report.json" "$name" "$what" "$args" >> "$results" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])).get("measured")
if m:
    r = m["resources"]
    print(",".join(str(v) for v in [sys.argv[2], m["passed"] and "PASS" or "FAIL", m["cycles"],
          (">=" if m.get("lut_lower_bound") else "") + str(r["LUT"]), r["FF"], r["DSP"], r["BRAM18K"], round(m["fmax_mhz"], 1),
          round(m["seconds"]), '"' + sys.argv[3] + '"', '"' + sys.argv[4] + '"', '"' + m["tool"] + '"', m["device"]]))
EOF
done

tool=$(tail -n 1 "$results" | awk -F'"' '{print $6}')
{
  echo "# Measured by flowhls synth (PandA-Bambu synthesis, Verilator RTL co-simulation): $tool"
  echo "# Date: $(date -u +%Y-%m-%d). Command: bench/bambu-sweep.sh (flowhls compile ARGS --target bambu; flowhls synth)."
  echo "# Clock 100 MHz. args: of flowhls compile (from the source tree). cycles: RTL simulation of one kernel call (flowhls bench --bambu prints its estimates beside them);"
  echo "# LUT, FF, DSP: Bambu's estimates after binding (\">=\": its multiplexer area was \"inf\"); BRAM18K: block-RAM arrays of the Verilog; fmax: Bambu's estimate."
  echo "# seconds: wall time of the run."
  echo "name,rtl_vs_reference,cycles,lut,ff,dsp,bram18k,fmax_mhz,seconds,what,args,tool,device"
  cat "$results"
} > "$out"
echo "bambu-sweep: wrote $out" >&2
