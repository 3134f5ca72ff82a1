#!/usr/bin/python3
"""window-buffers end to end (ctest): a model compiled with the HWC schedule
(models/reduction_schedule.py --hwc) streams its maps through rings of rows and C-sim passes.

    run_hwc.py --flowhls FLOWHLS --out DIR (--conv-chain | --model MODEL.onnx) --min-rings N

--conv-chain writes a small residual chain (conv -> relu -> conv -> add -> relu -> max-pool ->
conv on 4 x 8 x 8, weights generated) to DIR/conv_chain.onnx. Checks: C-sim passes with the
--hwc schedule, at least N buffers are window-buffered streams, no feature map is left a
ping-pong buffer (--no-ping-pong), the estimate needs fewer BRAM18K than without --hwc, and
without --hwc no buffer is window-buffered. Prints the
estimates (block RAM, latency, interval) of both schedules.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEDULE = os.path.join(HERE, "..", "..", "models", "reduction_schedule.py")


def conv_chain(path):
    rng = np.random.default_rng(7)
    inits, nodes = [], []

    def conv(name, x, cin, cout, out):
        w = (rng.standard_normal((cout, cin, 3, 3)) * 0.2).astype(np.float32)
        inits.append(numpy_helper.from_array(w, name + "_w"))
        nodes.append(helper.make_node("Conv", [x, name + "_w"], [out], name=name, pads=[1, 1, 1, 1]))

    conv("conv1", "x", 4, 8, "c1")
    nodes.append(helper.make_node("Relu", ["c1"], ["r1"], name="relu1"))
    conv("conv2", "r1", 8, 8, "c2")
    nodes.append(helper.make_node("Add", ["r1", "c2"], ["a"], name="add"))
    nodes.append(helper.make_node("Relu", ["a"], ["r2"], name="relu2"))
    nodes.append(helper.make_node("MaxPool", ["r2"], ["p"], name="pool", kernel_shape=[3, 3], strides=[2, 2],
                                  pads=[1, 1, 1, 1]))
    conv("conv3", "p", 8, 4, "y")
    graph = helper.make_graph(nodes, "conv_chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 4, 4])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit(f"run_hwc: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}")
    return p.stdout


def compile_model(args, model, name, flags):
    schedule = os.path.join(args.out, name + ".json")
    run(["/usr/bin/python3", SCHEDULE, model, "-o", schedule] + flags)
    out = os.path.join(args.out, name)
    text = run([args.flowhls, "compile", model, "--directives", schedule, "-o", out, "--verify-each"] +
               (["--csim"] if name == "hwc" else []))
    graph = open(os.path.join(out, "graph.txt")).read()
    design = json.load(open(os.path.join(out, "report.json")))["design"]
    return text, graph, design


def feature_maps_with(graph, channel):
    """The buffers of graph.txt on `channel` other than buffer-inputs' on-chip copy of a kernel
    input (written by its load filter NAME_load, not a feature map: a ping-pong array in the
    input's own order, or rows outermost through a ring when its reader walks rows, as a
    convolution reducing outside does in either order)."""
    found, name, producer = [], None, None
    for line in graph.splitlines():
        if line.startswith("  buffer "):
            name = line[len("  buffer "):].split(":")[0]
            producer = line.split("producers: ")[1].split()[0] if "producers: " in line else None
        elif line.strip() == "channel: " + channel or line.strip().startswith("channel: " + channel + " "):
            if not (producer or "").endswith("_load"):
                found.append(name)
    return found


def ping_pong_maps(graph):
    return feature_maps_with(graph, "ping-pong")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flowhls", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--model")
    parser.add_argument("--conv-chain", action="store_true")
    parser.add_argument("--min-rings", type=int, default=1)
    parser.add_argument("--no-ping-pong", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    model = args.model
    if args.conv_chain:
        model = os.path.join(args.out, "conv_chain.onnx")
        conv_chain(model)
    text, graph, design = compile_model(args, model, "hwc", ["--hwc"])
    _, plain_graph, plain_design = compile_model(args, model, "plain", [])
    failures = []
    if "csim: PASS" not in text:
        failures.append("C-sim did not pass:\n" + text)
    rings = graph.count("channel: window-buffered stream")
    if rings < args.min_rings:
        failures.append(f"{rings} window-buffered stream(s), expected at least {args.min_rings}")
    if args.no_ping_pong and ping_pong_maps(graph):
        failures.append("ping-pong buffer(s) left with --hwc: " + ", ".join(ping_pong_maps(graph)))
    if feature_maps_with(plain_graph, "window-buffered stream"):
        failures.append("a window-buffered feature map without --hwc: " +
                        ", ".join(feature_maps_with(plain_graph, "window-buffered stream")))
    bram = lambda d: d["resources"]["BRAM18K"]["used"]
    if bram(design) >= bram(plain_design):
        failures.append(f"the rings do not save block RAM: {bram(plain_design)} -> {bram(design)} BRAM18K")
    for name, d in (("default order", plain_design), ("hwc", design)):
        print(f"{name}: {rings if name == 'hwc' else 0} ring(s); estimates: BRAM18K {d['resources']['BRAM18K']['used']}, "
              f"latency {d.get('latency_cycles')} cycles, interval {d.get('interval_cycles')} cycles")
    if failures:
        sys.exit("run_hwc: FAIL\n" + "\n".join(failures))
    print("run_hwc: PASS")


if __name__ == "__main__":
    main()
