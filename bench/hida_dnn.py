#!/usr/bin/python3
"""flowhls's estimates for HIDA's DNN model variants beside HIDA's published figures.

Exports each model of models/hida.py with PyTorch (once, into --work), compiles it with
flowhls for xcvu9p at 200 MHz (HIDA's setting; extra compile options after --), and prints
flowhls's QoR *estimate* (samples/s, DSP, BRAM18K, LUT, whether it fits, DSP efficiency) beside
HIDA's published figures (seed 001, bench/reference/hida_dnn.csv). flowhls's designs are fp32
(5 DSP per MAC) unless the options say otherwise; HIDA's are int8. Nothing here is measured on
hardware: the flowhls columns are estimates, the HIDA columns are published.

    /usr/bin/python3 bench/hida_dnn.py [--flowhls build/flowhls] [--work build/zoo] [MODEL ...] [-- OPTIONS]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "models"))
import export  # noqa: E402
import hida  # noqa: E402

# HIDA's row name in hida_dnn.csv for each variant.
PUBLISHED_ROW = {"hida_resnet18": "ResNet-18", "hida_mobilenet": "MobileNet", "hida_vgg16": "VGG-16",
                 "hida_mlp": "MLP"}


def published():
    with open(os.path.join(HERE, "reference", "hida_dnn.csv")) as f:
        return {row["model"]: row for row in csv.DictReader(f)}


def estimate(flowhls, work, name, options):
    """Compiles `name` and returns (design section of report.json, compile seconds)."""
    model = os.path.join(work, name, "model.onnx")
    if not os.path.exists(model):
        export.export(name, work)
    out = os.path.join(work, f"out-{name}-hida")
    t0 = time.time()
    p = subprocess.run([flowhls, "compile", model, "-o", out, "--device", "xcvu9p", "--clock", "200"] + options,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.time() - t0
    if p.returncode != 0:
        sys.exit(f"{name}: compile failed: {p.stdout.strip().splitlines()[-1]}")
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)["design"], seconds


def main():
    argv = sys.argv[1:]
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flowhls", default=os.path.join(ROOT, "build", "flowhls"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "zoo"))
    parser.add_argument("names", nargs="*", help="models (default: all): " + ", ".join(hida.MODELS))
    args = parser.parse_args(argv)
    names = args.names or list(hida.MODELS)
    for n in names:
        if n not in hida.MODELS:
            sys.exit(f"unknown model '{n}' (models: {', '.join(hida.MODELS)})")
    rows = published()
    print("HIDA's DNN variants, xcvu9p at 200 MHz. flowhls: QoR estimates of its fp32 design"
          + (f" (options: {' '.join(options)})" if options else " (default compile)")
          + "; HIDA: published (seed 001), int8.")
    print(f"{'model':15} {'GMAC':>6} | {'flowhls est. samples/s':>22} {'DSP':>6} {'BRAM18K':>8} {'LUT':>8} "
          f"{'fits':>4} {'DSP eff.':>8} {'compile s':>9} | {'HIDA samples/s':>14} {'DSP':>5} {'LUT':>7} "
          f"{'DSP eff.':>8}")
    for n in names:
        design, seconds = estimate(args.flowhls, args.work, n, options)
        res = design["resources"]
        ref = rows[PUBLISHED_ROW[n]]
        ctor, shape = hida.MODELS[n]
        macs = hida.count_macs(ctor().eval(), shape)
        print(f"{n:15} {macs / 1e9:6.3f} | {design['throughput_per_s']:22.4g} {res['DSP']['used']:6d} "
              f"{res['BRAM18K']['used']:8d} {res['LUT']['used']:8d} {'yes' if design['fits'] else 'no':>4} "
              f"{design['dsp_efficiency'] * 100:7.1f}% {seconds:9.1f} | {float(ref['hida_samples_per_s']):14.1f} "
              f"{int(ref['hida_dsp']):5d} {int(ref['hida_lut']):7d} {float(ref['hida_dsp_efficiency_pct']):7.1f}%")


if __name__ == "__main__":
    main()
