#!/bin/sh
# flowhls compile --precision auto end to end: formats chosen from the ranges the float64
# reference measures on calibration inputs, recorded in the report and at the typedefs; the
# C simulation within ATOL of the float64 reference; output byte-identical across runs and
# calibration spellings; bad calibration inputs and a failing reference refused with one error
# line, exit 2, nothing written.
# Usage: precision-auto.sh FLOWHLS SOURCE_DIR WORK_DIR MODEL.onnx INPUT ATOL [basic]
#   MODEL.onnx: a float model with a Conv and a Gemm; with "basic" only the C simulation and
#   the report are checked (any float model).
set -eu
[ $# -ge 6 ] || { echo "usage: $0 FLOWHLS SOURCE_DIR WORK_DIR MODEL.onnx INPUT ATOL [basic]" >&2; exit 2; }
flowhls=$1; src=$2; work=$3; model=$4; input=$5; atol=$6
py=/usr/bin/python3
# The stand-in ap_fixed testbench builds at -O0 (13 s, not 80 s at -O2; it runs in 0.1 s).
OPT=-O0; export OPT
rm -rf "$work"; mkdir -p "$work"
fail() { echo "precision-auto: FAIL: $*"; exit 1; }

# The float64 reference's outputs are the expected ones.
$py "$src/models/trace_reference.py" "$model" "$work/ref" "$input" >/dev/null
expected=$("$py" "$src/tests/driver/expected_outputs.py" "$model" "$work/ref")

# (a) default calibration (the test input) and C simulation within ATOL.
"$flowhls" compile "$model" --inputs "$input" $expected --precision auto --atol "$atol" --rtol 0 \
  -o "$work/a" --csim >"$work/a.txt" 2>&1 || { cat "$work/a.txt"; fail "compile --precision auto --csim failed"; }
cat "$work/a.txt"
grep -q "csim: PASS" "$work/a.txt" || fail "no C-sim PASS"
grep -q "(--precision auto<16>: max |value| " "$work/a/kernel.h" || fail "no auto comment at the typedefs"
grep -q "^Fixed-point formats" "$work/a/report.txt" || fail "no formats in report.txt"
"$py" - "$work/a/report.json" "$work/ref" <<'PYEOF' || fail "report.json's precision does not match the measured ranges"
import json, math, sys
import numpy as np
rows = json.load(open(sys.argv[1]))["precision"]
ref = {}
for line in open(sys.argv[2] + "/index.txt"):
    f = line.rstrip("\n").split("\t")
    if not line.startswith("#"):
        ref[f[1]] = float(np.max(np.abs(np.load(sys.argv[2] + "/" + f[4]).astype(np.float64))))
nodes = [r for r in rows if r["node"]]
assert len(nodes) >= 5, rows
for r in rows:
    assert r["auto"] and r["width"] == 16 and r["format"] == "fixed<16,%d>" % r["integer"], r
    # the measured range covers the node's output; I holds it with one bit of headroom
    if r["node"]:
        assert r["max_abs"] >= ref[r["node"]] * (1 - 1e-6), (r, ref[r["node"]])
    need = 1 if r["max_abs"] == 0 else max(1, math.frexp(r["max_abs"])[1] + 1)
    assert r["integer"] == min(16, need + 1), r
print("precision-auto: formats:", ", ".join("%s %s (max %.4g)" % (r["node"] or r["filter"], r["format"], r["max_abs"]) for r in rows))
PYEOF

if [ "${7:-}" = basic ]; then
  echo "precision-auto: PASS: $(basename "$(dirname "$model")") at --precision auto within $atol"
  exit 0
fi

# (b) deterministic: the same project again, and with the input named as --calibration.
"$flowhls" compile "$model" --inputs "$input" $expected --precision auto --atol "$atol" --rtol 0 -o "$work/b" >/dev/null
"$flowhls" compile "$model" --inputs "$input" $expected --precision auto --calibration "$input" --atol "$atol" \
  --rtol 0 -o "$work/c" >/dev/null
for d in b c; do
  diff -r -x build "$work/a" "$work/$d" >/dev/null || fail "project $d differs from a"
done

# (c) several calibration samples in one .npy (the input and its copy times 3): ranges grow,
# so no format has fewer integer bits; a per-node auto over a fixed model.
"$py" - "$input" "$work/cal.npy" <<'PYEOF'
import sys
import numpy as np
import onnx
from onnx import numpy_helper
p = sys.argv[1]
if p.endswith(".npy"):
    x = np.load(p)
else:
    t = onnx.TensorProto(); t.ParseFromString(open(p, "rb").read()); x = numpy_helper.to_array(t)
np.save(sys.argv[2], np.stack([x, 3 * x]).astype(np.float32))
PYEOF
"$flowhls" compile "$model" --inputs "$input" $expected --precision auto --calibration "$work/cal.npy" -o "$work/d" >/dev/null
"$py" - "$work/a/report.json" "$work/d/report.json" <<'PYEOF' || fail "more calibration data gave fewer integer bits"
import json, sys
a = {r["filter"]: r for r in json.load(open(sys.argv[1]))["precision"]}
d = {r["filter"]: r for r in json.load(open(sys.argv[2]))["precision"]}
assert all(d[k]["samples"] == 2 and d[k]["integer"] >= a[k]["integer"] for k in a), (a, d)
assert any(d[k]["integer"] > a[k]["integer"] for k in a)
PYEOF
"$flowhls" compile "$model" --inputs "$input" $expected --precision 'fixed<16,6>' --precision 'Conv=auto<12>' -o "$work/e" >/dev/null
grep -q "(Conv): fixed<12,.> (--precision auto<12>" "$work/e/kernel.h" || fail "Conv=auto<12> not applied"
grep -q "(Gemm): fixed<16,6>$" "$work/e/kernel.h" || fail "the model format not kept for Gemm"

# (d) refused: one error line, exit 2, nothing written.
printf 'not a tensor' >"$work/bad.npy"
"$py" -c "import numpy as np, sys; np.save(sys.argv[1], np.zeros(7, np.float32))" "$work/short.npy"
refused() {  # refused MESSAGE ARGS...: compile with ARGS is refused with MESSAGE
  message=$1; shift
  status=0; "$@" -o "$work/refused" >"$work/err.txt" 2>&1 || status=$?
  [ "$status" -eq 2 ] || { cat "$work/err.txt"; fail "$* exited with $status, not 2"; }
  [ "$(grep -c '^flowhls: error:' "$work/err.txt")" -eq 1 ] || fail "$*: not one error line"
  grep -q "$message" "$work/err.txt" || { cat "$work/err.txt"; fail "$*: no '$message'"; }
  [ ! -e "$work/refused" ] || fail "$*: wrote $work/refused"
}
refused "cannot read calibration file" "$flowhls" compile "$model" --precision auto --calibration "$work/bad.npy"
refused "holds 7 values, not a multiple of input" "$flowhls" compile "$model" --precision auto --calibration "$work/short.npy"
refused "^flowhls: error: --precision auto: measuring value ranges.*(/bin/false" \
  env FLOWHLS_PYTHON=/bin/false "$flowhls" compile "$model" --precision auto
echo "precision-auto: PASS: $(basename "$(dirname "$model")") at --precision auto within $atol"
