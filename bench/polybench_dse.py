#!/usr/bin/python3
"""flowhls dse on PolyBench MEDIUM beside HIDA's published Vitis figures (issue 14).

For gemm, 2mm, 3mm, atax, bicg, gesummv and mvt: runs
    build/flowhls dse --example pb_K --size medium --device xcu280 --clock 300 --budget dsp=D
with D the DSP count of HIDA's design, and prints the naive and chosen points' ESTIMATED
interval (cycles) and DSP beside HIDA's PUBLISHED figures: the Vitis HLS 2023.2 csynth latency
and DSP of the HIDA-generated designs (Stream-HLS FPGA'25 artifacts, xcu280 at 3.33 ns), read
from bench/reference/vitis_hls_2023_2/designs.csv in this repository.

With --budgets 220,2560,9024 it runs the same command at those DSP budgets instead and prints
each chosen point's ESTIMATED interval beside the kernel's DSP bound: the fewest cycles in which
BUDGET DSPs could do the kernel's float operations (PolyBench's count, alpha * A[i][k] once per
(i, k); an fmul 3 DSP, an fadd 2 DSP for a cycle each, the xcu280's figures in devices/), i.e.
ceil(DSP-cycles / BUDGET). The ratio estimate / bound is how far the design is from using every
DSP of the budget every cycle.

Usage: bench/polybench_dse.py [--flowhls build/flowhls] [--max-points 40] [--kernels gemm,2mm]
                              [--budgets 220,2560,9024]
Our figures are estimates of flowhls's QoR model, not synthesis results.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS = ["gemm", "2mm", "3mm", "atax", "bicg", "gesummv", "mvt"]
FMUL_DSP, FADD_DSP = 3, 2
MAC = FMUL_DSP + FADD_DSP


def dsp_cycles(kernel):
    """DSP-cycles of the MEDIUM kernel's float operations (PolyBench's statements)."""
    if kernel == "gemm":  # NI, NJ, NK = 200, 220, 240: C *= beta; C += (alpha A[i][k]) B[k][j]
        ni, nj, nk = 200, 220, 240
        return ni * nj * FMUL_DSP + ni * nk * FMUL_DSP + ni * nj * nk * MAC
    if kernel == "2mm":  # 180, 190, 210, 220: tmp = (alpha A) B; D = beta D + tmp C
        ni, nj, nk, nl = 180, 190, 210, 220
        return ni * nk * FMUL_DSP + ni * nj * nk * MAC + ni * nl * FMUL_DSP + ni * nl * nj * MAC
    if kernel == "3mm":  # 180, 190, 200, 210, 220: E = A B; F = C D; G = E F
        ni, nj, nk, nl, nm = 180, 190, 200, 210, 220
        return (ni * nj * nk + nj * nl * nm + ni * nl * nj) * MAC
    if kernel in ("atax", "bicg"):  # 390 x 410, two matrix-vector products
        return 2 * 390 * 410 * MAC
    if kernel == "gesummv":  # N = 250: two products, then alpha tmp + beta y
        n = 250
        return 2 * n * n * MAC + n * (2 * FMUL_DSP + FADD_DSP)
    if kernel == "mvt":  # N = 400: two products
        return 2 * 400 * 400 * MAC
    raise ValueError(kernel)


def dsp_bound_table(args):
    """Estimates at each budget of --budgets beside the DSP bound (returns the exit code)."""
    budgets = [int(b) for b in args.budgets.split(",")]
    print("PolyBench MEDIUM, xcu280 at 300 MHz, --max-points %d; flowhls figures: ESTIMATES (QoR model)" %
          args.max_points)
    print("%-8s %7s %14s %7s %12s %9s  %s" % ("kernel", "budget", "chosen est cyc", "DSP", "DSP bound",
                                              "est/bound", "chosen knobs"))
    failed = False
    for k in args.kernels.split(","):
        for budget in budgets:
            r = run_dse(args.flowhls, k, budget, args.max_points)
            if r is None or r[2] is None:
                failed = True
                continue
            bound = -(-dsp_cycles(k) // budget)
            print("%-8s %7d %14s %7d %12s %8.2fx  %s" % (k, budget, "{:,}".format(r[2]), r[3], "{:,}".format(bound),
                                                        r[2] / bound, r[4]))
            sys.stdout.flush()
    return 1 if failed else 0


def hida_figures():
    """kernel -> (cycles, dsp) of HIDA's published design."""
    path = os.path.join(ROOT, "bench", "reference", "vitis_hls_2023_2", "designs.csv")
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            m = re.fullmatch(r"polybench/hida/default/(\w+)", row["design"])
            if m:
                out[m.group(1)] = (int(row["latency"]), int(row["dsp"]))
    return out


def run_dse(flowhls, kernel, dsp, max_points):
    """(naive interval, naive DSP, chosen interval, chosen DSP, chosen knobs, points) or None."""
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = os.path.join(tmp, "dse")
        cmd = [flowhls, "dse", "--example", "pb_" + kernel, "--size", "medium", "--device", "xcu280",
               "--clock", "300", "--budget", "dsp=%d" % dsp, "--max-points", str(max_points), "-o", out_dir]
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            print("%s: flowhls dse failed:\n%s" % (kernel, run.stdout), file=sys.stderr)
            return None
        m = re.search(r"best point that fits: (\d+)", run.stdout)
        with open(os.path.join(out_dir, "pareto.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        chosen = rows[int(m.group(1))] if m else None
        naive = rows[0]
        return (int(naive["interval"]), int(naive["dsp"]),
                int(chosen["interval"]) if chosen else None, int(chosen["dsp"]) if chosen else None,
                chosen["knobs"] if chosen else "(none fits)", len(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flowhls", default=os.path.join(ROOT, "build", "flowhls"))
    ap.add_argument("--max-points", type=int, default=40)
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--budgets", help="DSP budgets (comma-separated): estimates beside the DSP bound")
    args = ap.parse_args()
    if args.budgets:
        return dsp_bound_table(args)
    hida = hida_figures()
    print("PolyBench MEDIUM, xcu280 at 300 MHz, budget = HIDA's DSP count, --max-points %d" % args.max_points)
    print("flowhls figures: ESTIMATES (QoR model); HIDA figures: PUBLISHED Vitis HLS 2023.2 csynth")
    head = "%-8s %14s %8s %16s %11s %15s %10s %8s  %s" % (
        "kernel", "naive est cyc", "naive DSP", "chosen est cyc", "chosen DSP", "HIDA publ. cyc", "HIDA DSP",
        "est/HIDA", "chosen knobs")
    print(head)
    failed = False
    for k in args.kernels.split(","):
        if k not in hida:
            print("%s: no published HIDA figure" % k, file=sys.stderr)
            failed = True
            continue
        cycles, dsp = hida[k]
        r = run_dse(args.flowhls, k, dsp, args.max_points)
        if r is None:
            failed = True
            continue
        naive, naive_dsp, chosen, chosen_dsp, knobs, _ = r
        ratio = "%.2fx" % (chosen / cycles) if chosen else "-"
        print("%-8s %14s %8d %16s %11s %15s %10d %8s  %s" % (
            k, "{:,}".format(naive), naive_dsp, "{:,}".format(chosen) if chosen else "-",
            chosen_dsp if chosen_dsp is not None else "-", "{:,}".format(cycles), dsp, ratio, knobs))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
