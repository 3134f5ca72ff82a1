#!/usr/bin/python3
"""Accuracy of an int8 CNN on real data: float, PyTorch int8 and flowhls C simulation.

The digits set of scikit-learn (1,797 8x8 images of handwritten digits, 16 grey levels) is
split 75/25 (stratified, fixed seed). A small CNN is trained on the training split in
PyTorch, quantized with post-training static quantization (torch.ao.quantization, engine
qnnpack, calibrated on the training split) and exported at opset 13 as a QDQ model whose
input is the whole test split as one batch and whose outputs are the logits and the top-1
class. flowhls compiles it and the C simulation of the generated project runs on the test
split; the testbench counts the top-1 classes that differ from the labels (flowhls's errors)
and from PyTorch int8's classes, and compares the logits bit for bit with flowhls's float64
evaluation of the QDQ graph (tests/frontend/onnx/qdq_reference.py). Every step is seeded: the figures are the same on every run.

    /usr/bin/python3 bench/digits_accuracy.py [--flowhls build/flowhls] [--work DIR] [--target vitis|bambu]

Exits 1 if flowhls's accuracy is more than --bound (0.5) points from PyTorch int8's, if a logit
is more than 2.5 output steps from PyTorch's, or if the design is not bit-exact against the
float64 reference.
"""
import argparse
import os
import re
import subprocess
import sys
import time
import warnings

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
from export import WithTop1  # noqa: E402  (the zoo exporter's logits + top-1 wrapper)


class DigitsCnn(nn.Module):
    """Two 3x3 convolutions with ReLU and 2x2 max pooling, then a linear classifier."""

    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.fc = nn.Linear(16 * 2 * 2, 10)
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = F.max_pool2d(self.relu1(self.conv1(x)), 2)
        x = F.max_pool2d(self.relu2(self.conv2(x)), 2)
        return self.dequant(self.fc(torch.flatten(x, 1)))


def digits():
    """The digits set scaled to [0, 1], split 75/25 (stratified, seed 0)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    d = load_digits()
    x = (d.images / 16.0).astype(np.float32)[:, None, :, :]
    y = d.target.astype(np.int64)
    return train_test_split(x, y, test_size=0.25, random_state=0, stratify=y)


def train(x, y, epochs, seed):
    torch.manual_seed(seed)
    model = DigitsCnn()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    gen = torch.Generator().manual_seed(seed)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    model.train()
    for _ in range(epochs):
        order = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), 64):
            idx = order[i:i + 64]
            opt.zero_grad()
            F.cross_entropy(model(xt[idx]), yt[idx]).backward()
            opt.step()
    return model.eval()


def quantize(model, x):
    """Post-training static quantization (qnnpack: uint8 activations, int8 per-tensor weights)
    with Conv+ReLU fused, calibrated on `x`."""
    import copy
    import torch.ao.quantization as tq
    torch.backends.quantized.engine = "qnnpack"
    q = copy.deepcopy(model).eval()
    q = tq.fuse_modules(q, [["conv1", "relu1"], ["conv2", "relu2"]])
    q.qconfig = tq.get_default_qconfig("qnnpack")
    prepared = tq.prepare(q)
    with torch.no_grad():
        prepared(torch.from_numpy(x))
    return tq.convert(prepared)


def save(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"digits_accuracy: {' '.join(cmd)} failed:\n{p.stdout}")
    return p.stdout


def mismatches(log, output):
    """The testbench's count of mismatching values of `output`."""
    m = re.search(r"output (?:out_)?" + output + r": (\d+) values, (\d+) mismatches, max abs error ([0-9.e+-]+)", log)
    if not m:
        sys.exit(f"digits_accuracy: no result for output {output} in the simulation log:\n{log}")
    return int(m.group(2)), float(m.group(3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flowhls", default=os.path.join(HERE, "..", "build", "flowhls"))
    parser.add_argument("--work", default=os.path.join(HERE, "..", "build", "digits"))
    parser.add_argument("--target", default="vitis")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--bound", type=float, default=0.5, help="largest accepted gap to PyTorch int8, in points")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    t0 = time.time()

    x_train, x_test, y_train, y_test = digits()
    model = train(x_train, y_train, args.epochs, seed=0)
    quantized = quantize(model, x_train)
    xt = torch.from_numpy(x_test)
    with torch.no_grad():
        float_top1 = model(xt).argmax(1).numpy()
        logits, int8_top1 = WithTop1(quantized)(xt)
    logits, int8_top1 = logits.numpy(), int8_top1.numpy()
    t1 = time.time()

    # The QDQ model on the whole test split; its test data is PyTorch's int8 output.
    os.makedirs(os.path.join(args.work, "test_data_set_0"), exist_ok=True)
    path = os.path.join(args.work, "model.onnx")
    top = WithTop1(quantized).eval()
    warnings.filterwarnings("ignore", category=UserWarning)  # the exporter's notes on TupleConstruct
    torch.onnx.export(top, xt, path, opset_version=13, input_names=["input"], output_names=["logits", "top1"])
    onnx.checker.check_model(onnx.load(path))
    data = os.path.join(args.work, "test_data_set_0")
    save(os.path.join(data, "input_0.pb"), x_test, "input")
    save(os.path.join(data, "output_0.pb"), logits, "logits")
    save(os.path.join(data, "output_1.pb"), int8_top1, "top1")
    labels = os.path.join(args.work, "labels.pb")
    save(labels, y_test, "top1")
    lsb = float(quantized.fc.scale)

    # Compile; simulate against PyTorch int8 (logits within two output steps, as int8 runtimes
    # disagree in the last bit), then bit for bit against PyTorch and against the labels.
    out = os.path.join(args.work, f"out-{args.target}")
    run([args.flowhls, "compile", path, "-o", out, "-t", args.target, "--name", "digits",
         "--atol", repr(2.5 * lsb), "--rtol", "0"])
    t2 = time.time()
    within = run([args.flowhls, "csim", out, "-v"])
    exact = run([args.flowhls, "csim", out, "-v", "--atol", "0", "--rtol", "0"])
    vs_labels = run([args.flowhls, "csim", out, "-v", "--atol", "0", "--rtol", "0",
                     "--expected", os.path.join(data, "output_0.pb"), "--expected", labels])
    # And bit for bit against flowhls's float64 evaluation of the QDQ graph.
    reference = os.path.join(args.work, "float64")
    run([sys.executable, os.path.join(HERE, "..", "tests", "frontend", "onnx", "qdq_reference.py"), path,
         os.path.join(data, "input_0.pb"), reference])
    ref = os.path.join(reference, "test_data_set_0")
    vs_float64 = run([args.flowhls, "csim", out, "-v", "--atol", "0", "--rtol", "0",
                      "--expected", os.path.join(ref, "output_0.pb"), "--expected", os.path.join(ref, "output_1.pb")])
    t3 = time.time()
    passed = "PASS:" in within
    bit_exact = "PASS:" in vs_float64
    logit_diffs, logit_err = mismatches(exact, "logits")
    class_diffs, _ = mismatches(exact, "top1")
    errors, _ = mismatches(vs_labels, "top1")

    n = len(y_test)
    acc_float = 100.0 * np.mean(float_top1 == y_test)
    acc_int8 = 100.0 * np.mean(int8_top1 == y_test)
    acc_flowhls = 100.0 * (n - errors) / n
    gap = abs(acc_flowhls - acc_int8)
    print(f"digits (scikit-learn): {len(y_train)} training, {n} test images; "
          f"{args.epochs} epochs; qnnpack PTQ; flowhls target {args.target}")
    print(f"{'model':28} {'test accuracy':>14}")
    print(f"{'PyTorch float32':28} {acc_float:13.2f}%")
    print(f"{'PyTorch int8 (qnnpack)':28} {acc_int8:13.2f}%")
    print(f"{'flowhls int8 (C simulation)':28} {acc_flowhls:13.2f}%")
    print(f"flowhls vs PyTorch int8: {gap:.2f} points (bound {args.bound}); top-1 differs on {class_diffs} of {n} "
          f"images; {logit_diffs} of {logits.size} logits differ, max {logit_err / lsb:.2f} output steps "
          f"(step {lsb:.4g}); testbench within 2.5 steps: {'PASS' if passed else 'FAIL'}")
    print(f"flowhls vs the float64 QDQ reference (qdq_reference.py): "
          f"{'bit-exact' if bit_exact else 'DIFFERS'} ({mismatches(vs_float64, 'logits')[0]} logits differ)")
    print(f"time: train+quantize {t1 - t0:.1f}s, export+compile {t2 - t1:.1f}s, C simulation {t3 - t2:.1f}s")
    ok = passed and bit_exact and gap <= args.bound
    print("digits_accuracy: " + ("PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
