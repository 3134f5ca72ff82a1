#!/usr/bin/python3
"""Writes a schedule.json that takes every Conv's and Gemm's reduction out of its pipelined loop.

By default flowhls accumulates each output element in the innermost loop, so the pipeline adds
into one accumulator every iteration and its II is the adder's latency (the fadd recurrence).
This schedule (docs/directives.md, "The reorder that removes a reduction's recurrence") computes
the accumulation of a tile of outputs at a time with the reduction loops outside the output
loops, so consecutive iterations add into different elements:

* Conv (2-D, the importer's loops n, co, oy, ox; reduction ci, ky, kx): the node's filter runs
  co innermost; the accumulation `NODE#acc` is computed per tile of T pixels of a row
  (`compute_at` the tile loop) in the order [ox, co, kx, ky, ci, oy, n] (innermost first), so
  T x M iterations separate two additions into one element (M output channels). T is the
  smallest divisor of the output width with T x M >= --distance and T >= --min-tile, so that
  one weight read (through m_axi for the large layers) serves T iterations; a conv that reads
  the model's input (off chip) instead takes T = 1 when T x M >= --distance allows, so one
  input read serves the M output channels.
* Gemm (loops i, j; reduction k): `NODE#acc` computed per row i in the order [j, k, i].

Each output's terms are still added in the same order, so results are bit for bit those of the
default schedule. Other nodes keep flowhls's default. The keys are the ONNX node names.

With --hwc every other node with a 4-D output [N, C, H, W] (Relu, Add, pools, ...) also runs
its channel loop innermost, then the columns, then the rows: every map is written pixel by
pixel with the channels inside (HWC order), rows outermost, which the convolutions' schedule
above already does. Then the elementwise nodes stream, and the convolutions and pools read
their input from a FIFO through a ring of rows (flowhls's window-buffers pass, docs/dataflow.md).

    /usr/bin/python3 models/reduction_schedule.py MODEL.onnx [-o schedule.json] [--distance N] [--hwc]

then `flowhls compile MODEL.onnx --directives schedule.json`.
"""
import argparse
import json
import sys

import onnx


def output_shapes(model):
    """Tensor name -> static shape, from ONNX shape inference."""
    inferred = onnx.shape_inference.infer_shapes(model)
    shapes = {}
    for v in list(inferred.graph.value_info) + list(inferred.graph.output) + list(inferred.graph.input):
        dims = v.type.tensor_type.shape.dim
        if all(d.HasField("dim_value") for d in dims):
            shapes[v.name] = [d.dim_value for d in dims]
    return shapes


def conv_tile(width, maps, distance, min_tile):
    """The smallest divisor T of the output width with T >= min_tile and T * maps >= distance
    (the width if none)."""
    for t in range(1, width + 1):
        if width % t == 0 and t >= min_tile and t * maps >= distance:
            return t
    return width


def conv_entries(node, shape, distance, min_tile):
    """Schedule entries of a 2-D Conv with output shape [N, M, H, W]."""
    _, maps, _, width = shape
    tile = conv_tile(width, maps, distance, min_tile)
    acc = {"schedule": [{"stage": 1, "reorder": ["ox", "co", "kx", "ky", "ci", "oy", "n"]}]}
    if tile == 1 or tile == width:
        # One pixel (compute at ox) or the whole row (compute at oy): no split needed.
        filter_steps = [{"reorder": ["co", "ox", "oy", "n"]}]
        acc["compute_at"] = {"func": node.name, "loop": "ox" if tile == 1 else "oy"}
    else:
        filter_steps = [{"split": {"loop": "ox", "outer": "oxo", "inner": "oxi", "factor": tile}},
                        {"reorder": ["co", "oxi", "oxo", "oy", "n"]}]
        acc["compute_at"] = {"func": node.name, "loop": "oxo"}
    return {node.name: {"schedule": filter_steps}, node.name + "#acc": acc}


WINDOW_OPS = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool", "GlobalMaxPool",
              "GlobalAveragePool", "QLinearAveragePool", "QLinearGlobalAveragePool", "LpPool"}


def dim_names(node, shape, names_of, shapes):
    """The importer's loop names of a node's output (src/frontend/onnx/OpSupport.cpp dim_names)
    for a 4-D output."""
    if node.op_type in WINDOW_OPS:
        return ["n", "co", "oy", "ox"]
    for i in node.input:
        if shapes.get(i) == shape and i in names_of:
            return names_of[i]
    return ["n", "c", "y", "x"]


def hwc_entries(model, shapes):
    """A reorder of every non-Conv node with a 4-D output: channels innermost, rows outermost."""
    names_of = {}
    for v in model.graph.input:
        if len(shapes.get(v.name, [])) == 4:
            names_of[v.name] = ["n", "c", "y", "x"]
    out = {}
    for node in model.graph.node:
        shape = shapes.get(node.output[0]) if node.output else None
        if shape is None or len(shape) != 4:
            continue
        names = dim_names(node, shape, names_of, shapes)
        names_of[node.output[0]] = names
        if node.op_type != "Conv" and node.name:
            n, c, y, x = names
            out[node.name] = {"schedule": [{"reorder": [c, x, y, n]}]}
    return out


def schedule(model, distance, min_tile, hwc=False):
    shapes = output_shapes(model)
    initializers = {t.name for t in model.graph.initializer}
    model_inputs = {v.name for v in model.graph.input} - initializers
    out = {}
    for node in model.graph.node:
        if not node.name:
            print(f"reduction_schedule: skipping an unnamed {node.op_type} node (keys are node names)", file=sys.stderr)
            continue
        shape = shapes.get(node.output[0])
        if node.op_type == "Conv":
            if shape is None or len(shape) != 4:
                print(f"reduction_schedule: skipping {node.name}: not a 2-D Conv with a static shape",
                      file=sys.stderr)
                continue
            # A conv reading the model's input (off chip) runs its output channels innermost
            # (one pixel per tile) so one input read serves M iterations; its weights are few.
            first = node.input[0] in model_inputs
            out.update(conv_entries(node, shape, distance, 1 if first else min_tile))
        elif node.op_type == "Gemm":
            out[node.name + "#acc"] = {"compute_at": {"func": node.name, "loop": "i"},
                                       "schedule": [{"stage": 1, "reorder": ["j", "k", "i"]}]}
    if hwc:
        out.update(hwc_entries(model, shapes))
    return out


def schedule_text(entries):
    """The schedule in write_schedule_json's canonical form (include/flowhls/Directives.h):
    targets and keys sorted, one step per line."""
    def dump(value):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    targets = []
    for target in sorted(entries):
        keys = []
        for key in sorted(entries[target]):
            value = entries[target][key]
            if key == "schedule":
                text = "[" + ",".join("\n      " + dump(step) for step in value) + "\n    ]"
            else:
                text = dump(value)
            keys.append(f"    {dump(key)}: {text}")
        targets.append(f"  {dump(target)}: {{\n" + ",\n".join(keys) + "\n  }")
    return "{\n" + ",\n".join(targets) + "\n}\n" if targets else "{}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="ONNX model")
    parser.add_argument("-o", "--output", help="schedule file to write (default: standard output)")
    parser.add_argument("--distance", type=int, default=16,
                        help="iterations between two additions into one accumulator at least (default "
                             "16: above the fadd latency of every part in devices/ at any clock, 14 at most)")
    parser.add_argument("--min-tile", type=int, default=2,
                        help="pixels per tile at least (default 2: each weight read serves two "
                             "iterations, which an m_axi port without bursts needs for II 1)")
    parser.add_argument("--hwc", action="store_true",
                        help="every 4-D map written channels innermost, rows outermost (streams through ring buffers)")
    args = parser.parse_args()
    if args.distance < 1 or args.min_tile < 1:
        sys.exit("reduction_schedule: --distance and --min-tile must be positive")
    text = schedule_text(schedule(onnx.load(args.model), args.distance, args.min_tile, args.hwc))
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
