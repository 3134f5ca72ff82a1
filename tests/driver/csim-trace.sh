#!/bin/sh
# flowhls csim --trace (per-layer bisection) end to end: a correct model's every filter output
# matches the float64 reference; a model with one planted error (one Conv's weights changed in
# the compiled copy only) is traced to exactly that Conv; bad reference directories are refused.
# Usage: csim-trace.sh FLOWHLS SOURCE_DIR WORK_DIR MODEL.onnx INPUT [PLANTED_NODE [PRECISION ATOL]]
#   MODEL.onnx, INPUT: a float or QDQ model and its test input (.pb or .npy)
#   PLANTED_NODE: the Conv node whose weight is changed (default, or "": the second Conv)
#   PRECISION ATOL: compile with --precision PRECISION (fixed<W,I>) and compare every filter
#   (and the outputs) within --atol ATOL --rtol 0; the one-step and bad-reference checks, which
#   do not depend on the data type, are left to the float run.
set -eu
[ $# -ge 5 ] || { echo "usage: $0 FLOWHLS SOURCE_DIR WORK_DIR MODEL.onnx INPUT [PLANTED_NODE [PRECISION ATOL]]" >&2; exit 2; }
flowhls=$1; src=$2; work=$3; model=$4; input=$5
precision=${7:-}
tolerance=""
# Fixed point: the stand-in ap_fixed testbenches build at -O0 (13 s, not 80 s at -O2; they run in 0.1 s).
[ -z "$precision" ] || { tolerance="--atol $8 --rtol 0"; OPT=-O0; export OPT; }
py=/usr/bin/python3
rm -rf "$work"; mkdir -p "$work"
fail() { echo "csim-trace: FAIL: $*"; exit 1; }
# traced NAME MODEL: compiles MODEL to $work/NAME, traces it against $work/ref into $work/NAME.txt
# and prints it; $status is the trace's exit status.
traced() {
  "$flowhls" compile "$2" -o "$work/$1" --inputs "$input" $expected ${precision:+--precision "$precision"} $tolerance >/dev/null
  status=0; "$flowhls" csim "$work/$1" --trace "$work/ref" $tolerance >"$work/$1.txt" 2>&1 || status=$?
  cat "$work/$1.txt"
}

# The reference of the original model, on the given input; its outputs are the expected ones
# (paths without spaces).
$py "$src/models/trace_reference.py" "$model" "$work/ref" "$input"
expected=$("$py" "$src/tests/driver/expected_outputs.py" "$model" "$work/ref")

# (a) the design as compiled: every traced output matches (exit 0), outputs too.
traced good "$model"
[ "$status" -eq 0 ] || fail "the correct design's trace exited with $status"
grep -q "trace: every compared filter output matches the reference" "$work/good.txt" || fail "no match verdict"
grep -q "no reference\|size differs" "$work/good.txt" && fail "a filter output was not compared"
[ "$(grep -c ' match$' "$work/good.txt")" -ge 5 ] || fail "fewer than 5 filter outputs compared"
[ -s "$work/good/build/trace/trace.json" ] || fail "no trace.json"
"$py" -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['first_divergence'] is None" \
  "$work/good/build/trace/trace.json" || fail "trace.json names a divergence"
if [ -n "$precision" ]; then
  # Every traced buffer is fixed point, saved as float64, its error also given in LSB.
  [ "$(grep -c "	$precision	" "$work/good/trace.txt")" -ge 5 ] || fail "trace.txt does not list $precision buffers"
  [ "$(grep -c " LSB)" "$work/good.txt")" -ge 5 ] || fail "the table gives no error in LSB"
  "$py" -c "import json,sys; j=json.load(open(sys.argv[1])); assert all(r['lsb'] > 0 for r in j['rows'] if r['dtype'].startswith('fixed<'))" \
    "$work/good/build/trace/trace.json" || fail "trace.json has no LSB for a fixed-point row"
fi

# (b) one Conv's first output channel's weights changed in the compiled copy: the trace names
# exactly that node.
planted=$("$py" - "$model" "$work/planted.onnx" "${6:-}" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
convs = [n for n in m.graph.node if n.op_type == "Conv"]
node = next(n for n in convs if n.name == sys.argv[3]) if sys.argv[3] else convs[1]
# The weight's tensor: an initializer or a Constant node's value; in a QDQ model the weight is
# DequantizeLinear(int8 tensor).
tensors = {t.name: t for t in m.graph.initializer}
for n in m.graph.node:
    if n.op_type == "Constant":
        tensors[n.output[0]] = next(a.t for a in n.attribute if a.name == "value")
producers = {o: n for n in m.graph.node for o in n.output}
name = node.input[1]
if producers.get(name) is not None and producers[name].op_type == "DequantizeLinear":
    name = producers[name].input[0]
w = numpy_helper.to_array(tensors[name]).copy()
if w.dtype.kind in "iu":  # the first output channel's weights mirrored within the type's range
    info = np.iinfo(w.dtype)
    w[0] = (info.max + info.min - w[0].astype(np.int64)).astype(w.dtype)
else:
    w[0] = w[0] + 0.5
tensors[name].CopyFrom(numpy_helper.from_array(w, tensors[name].name))
onnx.save(m, sys.argv[2])
# The node whose value the Conv's filter holds: the Conv, or in a QDQ model the QuantizeLinear
# that ends the fused DequantizeLinear -> Conv -> [Relu] -> QuantizeLinear pattern.
consumers = {i: n for n in m.graph.node for i in n.input}
value, named = node.output[0], node.name
while value in consumers and consumers[value].op_type in ("Relu", "QuantizeLinear"):
    named = consumers[value].name
    if consumers[value].op_type == "QuantizeLinear":
        break
    value = consumers[value].output[0]
print(named if consumers.get(value) is not None and consumers[value].op_type == "QuantizeLinear" else node.name)
EOF
)
traced bad "$work/planted.onnx"
[ "$status" -eq 1 ] || fail "the planted design's trace exited with $status, not 1"
grep -q "trace: first divergence at node '$planted' " "$work/bad.txt" || fail "the trace does not name '$planted'"
"$py" -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['first_divergence'] == sys.argv[2], j['first_divergence']" \
  "$work/bad/build/trace/trace.json" "$planted" || fail "trace.json does not name '$planted'"

if [ -n "$precision" ]; then
  echo "csim-trace: PASS: every output of $(basename "$model") at $precision within $8; the planted error is traced to '$planted'"
  exit 0
fi

# (c) one step, --trace MODEL.onnx: flowhls runs its embedded float64 reference on the
# simulation's inputs itself; the same verdicts as with the reference directory.
status=0; "$flowhls" csim "$work/good" --trace "$model" >"$work/good1.txt" 2>&1 || status=$?
[ "$status" -eq 0 ] || fail "one-step trace of the correct design exited with $status"
grep -q "trace: every compared filter output matches the reference" "$work/good1.txt" || fail "one step: no match verdict"
[ -s "$work/good/build/trace-reference/values/index.txt" ] || fail "one step: no reference written"
status=0; "$flowhls" csim "$work/bad" --trace "$model" >"$work/bad1.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "one-step trace of the planted design exited with $status, not 1"
grep -q "trace: first divergence at node '$planted' " "$work/bad1.txt" || fail "one step: the trace does not name '$planted'"

# Bad input: one 'flowhls: error:' line, exit 2 (no such directory, a directory without
# index.txt, a file that is not an ONNX model, an interpreter that fails).
for ref in "$work/none" "$work/good" "$work/good/report.txt"; do
  status=0; "$flowhls" csim "$work/good" --trace "$ref" >"$work/err.txt" 2>&1 || status=$?
  [ "$status" -eq 2 ] || fail "--trace $ref exited with $status, not 2"
  [ "$(grep -c '^flowhls: error:' "$work/err.txt")" -eq 1 ] || fail "--trace $ref: not one error line"
done
status=0; FLOWHLS_PYTHON=/bin/false "$flowhls" csim "$work/good" --trace "$model" >"$work/err.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "--trace with a failing interpreter exited with $status, not 2"
grep -q "^flowhls: error: the trace reference (/bin/false" "$work/err.txt" || fail "no error naming the interpreter"
echo "csim-trace: PASS: every output of $(basename "$model") matches; the planted error is traced to '$planted'"
