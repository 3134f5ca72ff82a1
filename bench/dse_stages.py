#!/usr/bin/python3
"""Where an exploration's CPU time goes, by stage (issue 14): Halide's lowering, the passes,
balance-streams, the QoR estimate.

Runs `flowhls dse MODEL --device xcvu9p --clock 200 --max-points N --threads 1` under
`perf record` (cpu-clock samples, one per ms of CPU) with uprobes on the entry and return of
each stage's function (flowhls's symbols, Halide's `Pipeline::compile_to_module` in its shared
library), gives each sample to the innermost stage running, and prints CPU seconds, share and
calls per stage. One thread (`--threads 1`) so that entries and returns nest. Needs perf with
uprobe support and the rights to add probes (root); the probes it adds are removed at the end.
The figures are measured on this machine (a shared machine inflates them); they time
flowhls, they are not QoR estimates.

    /usr/bin/python3 bench/dse_stages.py [--flowhls build/flowhls] [--max-points 40] [MODEL.onnx]
Default model: build/zoo/resnet18_64/model.onnx.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GROUP = "flowhls_stages"

# (stage, symbol pattern in `nm` output of the binary); innermost wins.
FLOWHLS_STAGES = [
    ("estimate_program", r"^_ZN7flowhls16estimate_program"),
    ("lower_for_hls", r"^_ZN7flowhls13lower_for_hls"),
    ("extract_filters", r"^_ZN7flowhls15extract_filtersERKNS_14LoweredProgram"),
    ("isolated_copy", r"^_ZN7flowhls13isolated_copyERKNS_13HalideProgram"),
    ("apply_loop_schedule", r"^_ZN7flowhls19apply_loop_scheduleERNS_13HalideProgram"),
    ("passes", r"^_ZN7flowhls17compile_extracted"),
    ("balance_streams", r"^_ZN7flowhls15balance_streamsERNS_11FilterGraph"),
    ("estimate_design", r"^_ZN7flowhls15estimate_designERKNS_11FilterGraph"),
]
HALIDE_STAGES = [("compile_to_module", r"^_ZN6Halide8Pipeline17compile_to_module")]


def symbol_offsets(path, stages, dynamic):
    """File offsets of each stage's function (perf probe takes offsets in the file)."""
    nm = subprocess.run(["nm", "-D" if dynamic else "--defined-only", path], capture_output=True, text=True,
                        check=True).stdout
    loads = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True, check=True).stdout
    segments = []
    for m in re.finditer(r"LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)", loads):
        segments.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)))
    out = []
    for stage, pattern in stages:
        for line in nm.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "Tt" and re.match(pattern, parts[2]):
                vaddr = int(parts[0], 16)
                for off, va, size in segments:
                    if va <= vaddr < va + size:
                        out.append((stage, vaddr - va + off))
                break
        else:
            sys.exit("no symbol for stage %s in %s" % (stage, path))
    return out


def halide_library(flowhls):
    ldd = subprocess.run(["ldd", flowhls], capture_output=True, text=True, check=True).stdout
    m = re.search(r"(/\S*libHalide\S*\.so\S*)", ldd)
    return os.path.realpath(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flowhls", default=os.path.join(ROOT, "build", "flowhls"))
    ap.add_argument("--max-points", type=int, default=40)
    ap.add_argument("model", nargs="?", default=os.path.join(ROOT, "build", "zoo", "resnet18_64", "model.onnx"))
    a = ap.parse_args()
    flowhls = os.path.realpath(a.flowhls)
    probes = [(flowhls, s, o) for s, o in symbol_offsets(flowhls, FLOWHLS_STAGES, False)]
    lib = halide_library(flowhls)
    if lib:
        probes += [(lib, s, o) for s, o in symbol_offsets(lib, HALIDE_STAGES, True)]
    added = []
    try:
        for path, stage, offset in probes:
            for suffix, where in (("in", "0x%x" % offset), ("out", "0x%x%%return" % offset)):
                event = "%s:%s_%s" % (GROUP, stage, suffix)
                subprocess.run(["perf", "probe", "-q", "-x", path, "--add", "%s=%s" % (event, where)], check=True)
                added.append(event + ("__return" if suffix == "out" else ""))
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "perf.data")
            cmd = [flowhls, "dse", a.model, "--device", "xcvu9p", "--clock", "200", "--max-points",
                   str(a.max_points), "--threads", "1", "-o", os.path.join(tmp, "dse")]
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-c", "1000000", "-e", GROUP + ":*", "-o", data]
                           + cmd, check=True, stdout=subprocess.DEVNULL)
            script = subprocess.run(["perf", "script", "-i", data, "-F", "event"], capture_output=True, text=True,
                                    check=True).stdout
    finally:
        for event in added:
            subprocess.run(["perf", "probe", "-q", "-d", event], stderr=subprocess.DEVNULL)
    stack, samples, calls = [], collections.Counter(), collections.Counter()
    for line in script.splitlines():
        event = line.strip().rstrip(":")
        if event.startswith("cpu-clock"):
            samples[stack[-1] if stack else "other (import, space, search)"] += 1
        elif event.startswith(GROUP + ":"):
            name = event.split(":", 1)[1]
            if name.endswith("_out__return"):
                stage = name[: -len("_out__return")]
                if stage in stack:
                    while stack[-1] != stage:
                        stack.pop()
                    stack.pop()
            elif name.endswith("_in"):
                stage = name[: -len("_in")]
                stack.append(stage)
                calls[stage] += 1
    total = sum(samples.values())
    print("CPU time by stage, %s, %d points, one thread (measured here; samples of 1 ms)" % (a.model, a.max_points))
    print("%-32s %8s %7s %6s" % ("stage (innermost)", "CPU s", "share", "calls"))
    for stage, n in samples.most_common():
        print("%-32s %8.2f %6.1f%% %6s" % (stage, n / 1000.0, 100.0 * n / total, calls.get(stage, "")))
    print("%-32s %8.2f" % ("total", total / 1000.0))


if __name__ == "__main__":
    main()
