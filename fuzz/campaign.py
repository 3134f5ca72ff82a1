#!/usr/bin/python3
"""A campaign of hostile inputs against the flowhls command line, with the figures
docs/reliability.md reports: structure-aware invalid models (fuzz/generate.py), mutated
models, extreme values of every integer attribute of the ONNX node cases, test data and
directives files, abused options, and interrupted compiles.

    /usr/bin/python3 fuzz/campaign.py --flowhls build/flowhls --work /tmp/campaign \\
        [--structured 600] [--mutated 600] [--data 150] [--directives 100] [--interrupts 30] \\
        [--seed 1] [--jobs 2] [--markdown table.md]

Every run is checked for: a signal (the process died of one), exit code 3 (internal error),
running out of memory (each run may map 12 GB), a message that is not exactly one `flowhls: error:` line (exit code 2), and anything left
behind in the output's parent directory besides a finished project. The table counts them;
fuzz/campaign-failures.txt (in --work) lists each failing run with its command and output.
"""
import argparse
import concurrent.futures
import glob
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGRESSION = os.path.join(SOURCE, "fuzz", "regression")
NODE_CASES = "/usr/share/libonnx-testdata/data/node"

INTERESTING = [0, 1, -1, 2, 3, 7, 255, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 62, 2 ** 63 - 1, -(2 ** 63)]


# ---- mutations ---------------------------------------------------------------------------

def mutate_bytes(data, r):
    data = bytearray(data)
    for _ in range(r.randint(1, 8)):
        if not data:
            data = bytearray(r.getrandbits(8) for _ in range(16))
        choice = r.random()
        i = r.randrange(len(data))
        if choice < 0.4:
            data[i] ^= 1 << r.randrange(8)
        elif choice < 0.6:
            data[i] = r.choice([0, 0xff, 0x7f, 0x80, r.getrandbits(8)])
        elif choice < 0.75:
            del data[i:i + r.randint(1, 64)]
        elif choice < 0.9:
            data[i:i] = bytes(r.getrandbits(8) for _ in range(r.randint(1, 16)))
        else:
            j = r.randrange(len(data))
            data[i:i] = data[j:j + r.randint(1, 128)]
    return bytes(data)


def all_nodes(graph):
    for n in graph.node:
        yield n
        for a in n.attribute:
            if a.HasField("g"):
                yield from all_nodes(a.g)


def mutate_model(m, r):
    """A change at the protobuf level: dims, attributes, names, types, ops, opsets, nodes."""
    g = m.graph
    nodes = list(g.node)
    values = [v for n in nodes for v in list(n.input) + list(n.output)] + [v.name for v in g.input] + ["", "ghost"]
    kind = r.randrange(12)
    if kind == 0 and g.input:
        v = r.choice(list(g.input) + list(g.output))
        dims = v.type.tensor_type.shape.dim
        if dims:
            r.choice(dims).dim_value = r.choice(INTERESTING)
    elif kind == 1 and nodes:
        n = r.choice(nodes)
        if n.attribute:
            a = r.choice(n.attribute)
            if a.ints:
                a.ints[r.randrange(len(a.ints))] = r.choice(INTERESTING)
            elif a.type == onnx.AttributeProto.INT:
                a.i = r.choice(INTERESTING)
            elif a.type == onnx.AttributeProto.FLOAT:
                a.f = r.choice([0.0, -1.0, float("inf"), float("nan"), 1e38])
            elif a.type == onnx.AttributeProto.STRING:
                a.s = r.choice([b"", b"\xff\x00", b"NOTSET", b"SAME_UPPER", b"x" * 300])
    elif kind == 2 and nodes:
        n = r.choice(nodes)
        field = n.input if (n.input and r.random() < 0.6) else n.output
        if field:
            field[r.randrange(len(field))] = r.choice(values)
    elif kind == 3 and nodes:
        del g.node[r.randrange(len(nodes))]
    elif kind == 4 and nodes:
        g.node.append(r.choice(nodes))
    elif kind == 5 and len(nodes) > 1:
        i, j = r.randrange(len(nodes)), r.randrange(len(nodes))
        a, b = onnx.NodeProto(), onnx.NodeProto()
        a.CopyFrom(g.node[i])
        b.CopyFrom(g.node[j])
        g.node[i].CopyFrom(b)
        g.node[j].CopyFrom(a)
    elif kind == 6 and (g.input or g.output):
        v = r.choice(list(g.input) + list(g.output))
        v.type.tensor_type.elem_type = r.choice([0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 16, 99])
    elif kind == 7 and nodes:
        r.choice(nodes).op_type = r.choice(["Add", "Conv", "MaxPool", "Reshape", "Gather", "Div", "Mod", "Einsum",
                                            "Slice", "Concat", "Resize", "If", "Loop", "NoSuchOp", ""])
    elif kind == 8 and m.opset_import:
        m.opset_import[0].version = r.choice([1, 6, 7, 9, 11, 13, 16, 17, 18, 0, -1, 2 ** 40])
    elif kind == 9 and g.initializer:
        t = r.choice(g.initializer)
        if t.dims:
            t.dims[r.randrange(len(t.dims))] = r.choice(INTERESTING)
        else:
            t.dims.append(r.choice(INTERESTING))
    elif kind == 10 and nodes:
        n = r.choice(nodes)
        a = n.attribute.add()
        a.name = r.choice(["axis", "strides", "kernel_shape", "pads", "group", "ceil_mode", "perm", "to", "mode"])
        if r.random() < 0.5:
            a.type = onnx.AttributeProto.INT
            a.i = r.choice(INTERESTING)
        else:
            a.type = onnx.AttributeProto.INTS
            a.ints.extend(r.choice(INTERESTING) for _ in range(r.randint(0, 5)))
    elif kind == 11 and g.initializer:
        t = r.choice(g.initializer)
        if t.raw_data:
            t.raw_data = t.raw_data[:r.randrange(len(t.raw_data) + 1)]
        t.data_type = r.choice([t.data_type, 1, 7, 8, 10, 0])
    return m


def mutated_model(seed_bytes, r):
    if r.random() < 0.3:
        return mutate_bytes(seed_bytes, r)
    m = onnx.ModelProto()
    try:
        m.ParseFromString(seed_bytes)
    except Exception:
        return mutate_bytes(seed_bytes, r)
    for _ in range(r.randint(1, 3)):
        m = mutate_model(m, r)
    return m.SerializeToString()


def model_seeds():
    seeds = [os.path.join(SOURCE, "models", "lenet5", "model.onnx")]
    seeds += sorted(glob.glob(os.path.join(NODE_CASES, "*", "model.onnx")))
    seeds += sorted(glob.glob(os.path.join(REGRESSION, "invalid", "*.onnx")))
    seeds += sorted(glob.glob(os.path.join(REGRESSION, "valid", "**", "*.onnx"), recursive=True))
    small = [s for s in seeds if os.path.getsize(s) < 4096 or "lenet5" in s]
    return small


EXTREMES = [2 ** 31, 2 ** 32 - 1, -(2 ** 31) - 1, 2 ** 62, -(2 ** 62), 2 ** 63 - 1, -(2 ** 63)]


def extreme_attribute_models():
    """Every integer attribute of every op in the ONNX node cases (the first case that has it)
    set to each of EXTREMES in turn: (name, serialized model) pairs."""
    first = {}
    for path in sorted(glob.glob(os.path.join(NODE_CASES, "*", "model.onnx"))):
        try:
            m = onnx.load(path)
        except Exception:
            continue
        for i, n in enumerate(m.graph.node):
            for j, a in enumerate(n.attribute):
                if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS):
                    first.setdefault((n.op_type, a.name), (m, i, j))
    models = []
    for (op, name), (m, i, j) in sorted(first.items(), key=lambda kv: kv[0]):
        for k, v in enumerate(EXTREMES):
            copy = onnx.ModelProto()
            copy.CopyFrom(m)
            a = copy.graph.node[i].attribute[j]
            if a.type == onnx.AttributeProto.INT:
                a.i = v
            elif a.ints:
                a.ints[0] = v
            else:
                a.ints.append(v)
            models.append(("%s-%s-%d" % (op, name, k), copy.SerializeToString()))
    return models


# ---- running -------------------------------------------------------------------------------

class Run:
    """One command: its category in the table, arguments and scratch directory (the parent of
    its output, checked for leftovers), and what came of it."""

    def __init__(self, category, args, scratch):
        self.category, self.args, self.scratch = category, args, scratch
        self.returncode, self.output, self.problems = None, "", []


def leftovers(scratch, allowed):
    try:
        return [e for e in os.listdir(scratch) if e not in allowed]
    except FileNotFoundError:
        return []


MEMORY_LIMIT = 12 << 30  # address space of each run: an input that makes flowhls allocate without
# bounds fails with "out of memory" (counted) instead of calling the OOM killer on the machine


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def execute(run, timeout):
    try:
        p = subprocess.run(run.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                           preexec_fn=limit_memory)
        run.returncode, run.output = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        run.returncode, run.output = "timeout", (e.stdout or b"").decode("utf-8", "replace")
    rc = run.returncode
    if rc == "timeout":
        run.problems.append("timeout")
    elif rc < 0:
        run.problems.append("signal %d" % -rc)
    elif rc == 3 or "internal error" in run.output:
        run.problems.append("exit 3")
    elif rc == 2 and ("out of memory" in run.output or "bad_alloc" in run.output):
        run.problems.append("out of memory")
    elif rc == 2:
        lines = run.output.splitlines()
        errors = [line for line in lines if line.startswith("flowhls: error: ")]
        # Besides the error line, only the list of unsupported nodes ("  node ...").
        stray = [line for line in lines if not line.startswith("flowhls: error: ") and not line.startswith("  node ")]
        if len(errors) != 1 or stray:
            run.problems.append("%d error lines" % len(errors) + (", stray output" if stray else ""))
        elif getattr(run, "expected", "") not in errors[0]:
            run.problems.append("error lines without '%s'" % run.expected)
    allowed = ["input"] + getattr(run, "allowed", []) + (["p"] if rc == 0 else [])
    extra = leftovers(run.scratch, allowed)
    if extra:
        run.problems.append("left behind: " + " ".join(extra))
    shutil.rmtree(run.scratch, ignore_errors=True)
    return run


def prepare(work, name, payload, filename):
    scratch = os.path.join(work, "runs", name)
    os.makedirs(scratch, exist_ok=True)
    path = os.path.join(scratch, "input")
    os.makedirs(path, exist_ok=True)
    target = os.path.join(path, filename)
    if isinstance(payload, str) and os.path.isdir(payload):
        shutil.copytree(payload, path, dirs_exist_ok=True)
    else:
        with open(target, "wb") as f:
            f.write(payload)
    return scratch, target


def interrupt_runs(flowhls, work, r, count):
    """Compiles interrupted by SIGINT/SIGTERM/SIGHUP at a random moment, and SIGKILLed ones
    followed by a compile into the same parent: nothing may be left behind."""
    results = []
    for i in range(count):
        scratch = os.path.join(work, "runs", "interrupt-%d" % i)
        os.makedirs(scratch, exist_ok=True)
        sig = r.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
        example = r.choice(["harris", "unsharp", "conv_relu", "gaussian"])
        run = Run("interrupted compiles", [flowhls, "compile", "-e", example, "-o", os.path.join(scratch, "a", "p")],
                  scratch)
        p = subprocess.Popen(run.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(r.uniform(0.05, 2.0))
        p.send_signal(sig)
        p.wait()
        run.returncode = p.returncode
        if sig == signal.SIGKILL:
            # The next compile into the same parent removes what the killed one left.
            subprocess.run([flowhls, "compile", "-e", "gemm", "-o", os.path.join(scratch, "a", "q")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            extra = leftovers(os.path.join(scratch, "a"), ["p", "q"])
        elif p.returncode == 0:
            extra = leftovers(os.path.join(scratch, "a"), ["p"])  # finished before the signal
        else:
            extra = leftovers(scratch, [])
            if p.returncode != -sig:
                run.problems.append("exit %s after signal %d" % (p.returncode, sig))
        if sig == signal.SIGKILL and p.returncode not in (0, -sig):
            run.problems.append("exit %s after signal %d" % (p.returncode, sig))
        if extra:
            run.problems.append("left behind: " + " ".join(extra))
        shutil.rmtree(scratch, ignore_errors=True)
        results.append(run)
    return results


def option_runs(flowhls, work):
    runs = []
    with open(os.path.join(REGRESSION, "options.txt")) as f:
        lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    for i, line in enumerate(lines):
        scratch = os.path.join(work, "runs", "option-%d" % i)
        os.makedirs(scratch, exist_ok=True)
        with open(os.path.join(scratch, "file"), "w") as f:
            f.write("not a directory\n")
        line, _, expected = line.partition("  ==> ")
        args = []
        for token in line.split(" "):
            token = token.replace("{out}", os.path.join(scratch, "out")).replace("{tmp}", scratch)
            token = token.replace("{file}", os.path.join(scratch, "file"))
            token = token.replace("{relu}", os.path.join(REGRESSION, "relu4.onnx"))
            args.append("" if token == "''" else token)
        run = Run("abused options and paths", [flowhls] + args, scratch)
        run.allowed = ["file"]
        run.expected = expected
        runs.append(run)
    return runs


def build_runs(a, r):
    flowhls, work = a.flowhls, a.work
    runs = []
    relu = os.path.join(REGRESSION, "relu4.onnx")
    base = ["--max-memory", "1G"]
    # Structure-aware invalid models and edge cases.
    gen = os.path.join(work, "generated")
    shutil.rmtree(gen, ignore_errors=True)
    kinds = [("invalid", generate.INVALID), ("valid", generate.VALID)]
    every = [(kind, fn) for kind, fns in kinds for fn in fns]
    for i in range(a.structured):
        kind, fn = every[i % len(every)]
        generate.write_case(gen, kind, fn, r, "-%d" % i)
    for path in sorted(glob.glob(os.path.join(gen, "*", "*"))):
        name = os.path.basename(path)
        if os.path.isdir(path):
            scratch, _ = prepare(work, "s-" + name, path, "")
            model = os.path.join(scratch, "input", "model.onnx")
        else:
            with open(path, "rb") as f:
                scratch, model = prepare(work, "s-" + name, f.read(), "model.onnx")
        runs.append(Run("structure-aware models", [flowhls, "compile", model, "-o", os.path.join(scratch, "p")] + base,
                        scratch))
    # Mutated models.
    seeds = model_seeds()
    for i in range(a.mutated):
        with open(r.choice(seeds), "rb") as f:
            data = mutated_model(f.read(), r)
        scratch, model = prepare(work, "m-%d" % i, data, "model.onnx")
        runs.append(Run("mutated models", [flowhls, "compile", model, "-o", os.path.join(scratch, "p")] + base, scratch))
    # Test data: structure-aware and mutated, given to a valid model.
    data_seeds = sorted(glob.glob(os.path.join(REGRESSION, "data", "*")))
    ok = np.zeros((1, 4), np.float32)
    ok_pb = numpy_helper.from_array(ok, "x").SerializeToString()
    ok_npy = generate.npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }", ok.tobytes())
    for i in range(a.data):
        if i % 2 == 0:
            payload, ext = generate.DATA[(i // 2) % len(generate.DATA)](r)
        else:
            ext = r.choice(["npy", "pb"])
            seed = ok_npy if ext == "npy" else ok_pb
            if r.random() < 0.3:
                with open(r.choice(data_seeds), "rb") as f:
                    seed = f.read()
            payload = mutate_bytes(seed, r)
        scratch, path = prepare(work, "d-%d" % i, payload, "x." + ext)
        runs.append(Run("test data files", [flowhls, "compile", relu, "--inputs", path, "-o",
                                             os.path.join(scratch, "p")], scratch))
    # Directives files.
    json_seeds = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(REGRESSION, "directives", "*.json")))]
    json_seeds.append(b'{"prod": {"pipeline": [{"loop": "x", "ii": 1}], "unroll": [{"loop": "k", "factor": 4}]}}')
    for i in range(a.directives):
        if i % 2 == 0:
            payload = generate.DIRECTIVES[(i // 2) % len(generate.DIRECTIVES)](r).encode("latin1")
        else:
            payload = mutate_bytes(r.choice(json_seeds), r)
        scratch, path = prepare(work, "j-%d" % i, payload, "d.json")
        runs.append(Run("directives files", [flowhls, "compile", "-e", "gemm", "--directives", path, "-o",
                                              os.path.join(scratch, "p")], scratch))
    # Extreme integer attribute values, systematically.
    if a.attributes:
        for name, data in extreme_attribute_models():
            scratch, model = prepare(work, "a-" + name, data, "model.onnx")
            runs.append(Run("extreme attribute values", [flowhls, "compile", model, "-o", os.path.join(scratch, "p")] +
                            base, scratch))
    runs += option_runs(flowhls, work)
    return runs


def table(results):
    categories = []
    for run in results:
        if run.category not in categories:
            categories.append(run.category)
    lines = ["| inputs | runs | exit 0 | exit 1 | exit 2 | exit 3 | ended by the signal sent | other signals | "
             "timeouts | out of memory | wrong messages | left behind |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in categories + ["total"]:
        rs = results if c == "total" else [r for r in results if r.category == c]
        sent = [r for r in rs if r.category == "interrupted compiles" and isinstance(r.returncode, int) and
                r.returncode < 0 and not r.problems]
        row = [len(rs),
               sum(r.returncode == 0 for r in rs), sum(r.returncode == 1 for r in rs),
               sum(r.returncode == 2 for r in rs), sum(r.returncode == 3 for r in rs),
               len(sent),
               sum(isinstance(r.returncode, int) and r.returncode < 0 for r in rs) - len(sent),
               sum(r.returncode == "timeout" for r in rs),
               sum("out of memory" in r.problems for r in rs),
               sum(any("error lines" in p or p.startswith("exit ") and p != "exit 3" for p in r.problems)
                   for r in rs),
               sum(any(p.startswith("left behind") for p in r.problems) for r in rs)]
        lines.append("| %s | %s |" % (c, " | ".join(str(v) for v in row)))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flowhls", default=os.path.join(SOURCE, "build", "flowhls"))
    p.add_argument("--work", default="/tmp/flowhls-campaign")
    p.add_argument("--structured", type=int, default=600)
    p.add_argument("--mutated", type=int, default=600)
    p.add_argument("--data", type=int, default=150)
    p.add_argument("--directives", type=int, default=100)
    p.add_argument("--interrupts", type=int, default=30)
    p.add_argument("--no-attributes", dest="attributes", action="store_false",
                   help="skip the extreme values of every integer attribute of the ONNX node cases")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--markdown")
    a = p.parse_args()
    a.flowhls = os.path.abspath(a.flowhls)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    r = random.Random(a.seed)
    start = time.time()
    runs = build_runs(a, r)
    print("campaign: %d runs prepared" % len(runs), flush=True)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(execute, run, a.timeout) for run in runs]
        for k, f in enumerate(concurrent.futures.as_completed(futures)):
            results.append(f.result())
            if (k + 1) % 100 == 0:
                print("campaign: %d/%d" % (k + 1, len(runs)), flush=True)
    results += interrupt_runs(a.flowhls, a.work, r, a.interrupts)
    text = table(results)
    elapsed = time.time() - start
    text += "\n\n%d runs in %.0f s (seed %d, %d jobs)." % (len(results), elapsed, a.seed, a.jobs)
    print(text)
    failures = [run for run in results if run.problems]
    with open(os.path.join(a.work, "campaign-failures.txt"), "w") as f:
        for run in failures:
            f.write("%s: %s\n  %s\n  %s\n\n" % (run.category, ", ".join(run.problems), " ".join(run.args),
                                               run.output.strip().replace("\n", "\n  ")[:2000]))
    print("campaign: %d run(s) with problems (%s)" % (len(failures), os.path.join(a.work, "campaign-failures.txt")))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
