#!/usr/bin/python3
"""Exports the flowhls model zoo to ONNX with PyTorch (Debian's python3-torch/torchvision).

Each model is built with a fixed seed (random weights, no downloads), exported at opset 13
with static shapes, and saved with a fixed input and PyTorch's output as an ONNX test data
set: models/<name>/model.onnx and models/<name>/test_data_set_0/{input_0,output_0}.pb.

    /usr/bin/python3 models/export.py [--out DIR] [NAME ...]    (default: every model)
    /usr/bin/python3 models/export.py --check-macs [NAME ...]  (HIDA variants: MACs vs HIDA's)
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hida  # noqa: E402  (HIDA's model variants, next to this file)


class LeNet5(nn.Module):
    """LeNet-5 (LeCun et al. 1998) on 1x32x32 inputs, ReLU and max pooling."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class Mlp(nn.Module):
    """A three-layer perceptron on flattened 28x28 images."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return F.softmax(self.fc3(x), dim=1)


class UNetSmall(nn.Module):
    """A two-level U-Net: encoder, bottleneck, upsampling decoder with skip connections."""

    def __init__(self, c=8):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())
        self.enc1 = block(3, c)
        self.enc2 = block(c, 2 * c)
        self.mid = block(2 * c, 4 * c)
        self.up2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
        self.dec2 = block(4 * c, 2 * c)
        self.up1 = nn.Upsample(scale_factor=2, mode="nearest")
        self.dec1 = block(2 * c + c, c)
        self.head = nn.Conv2d(c, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.head(d1)


def torchvision_model(name):
    import torchvision.models as tvm
    return {
        "resnet18": lambda: tvm.resnet18(num_classes=1000),
        "mobilenet_v2": lambda: tvm.mobilenet_v2(num_classes=1000),
        "squeezenet": lambda: tvm.squeezenet1_1(num_classes=1000),
        "vgg11": lambda: tvm.vgg11(num_classes=1000),
        "shufflenet_v2": lambda: tvm.shufflenet_v2_x0_5(num_classes=1000),
    }[name]()


# name -> (constructor, input shape)
MODELS = {
    "lenet5": (LeNet5, (1, 1, 32, 32)),
    "mlp": (Mlp, (1, 1, 28, 28)),
    "unet_small": (UNetSmall, (1, 3, 32, 32)),
    "resnet18": (lambda: torchvision_model("resnet18"), (1, 3, 224, 224)),
    # The same network (same node names and weights) on 32x32 inputs: a cheap end-to-end case.
    "resnet18_32": (lambda: torchvision_model("resnet18"), (1, 3, 32, 32)),
    # ... and on 64x64 inputs: the size the exploration's designs are simulated at in CI.
    "resnet18_64": (lambda: torchvision_model("resnet18"), (1, 3, 64, 64)),
    "mobilenet_v2": (lambda: torchvision_model("mobilenet_v2"), (1, 3, 224, 224)),
    "squeezenet": (lambda: torchvision_model("squeezenet"), (1, 3, 224, 224)),
    "vgg11": (lambda: torchvision_model("vgg11"), (1, 3, 224, 224)),
    "shufflenet_v2": (lambda: torchvision_model("shufflenet_v2"), (1, 3, 224, 224)),
}
MODELS.update(hida.MODELS)


def randomize_batchnorm(model, gen):
    """Non-trivial running statistics so that folding BatchNormalization is exercised."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) * 0.5 + 0.75)
                m.weight.copy_(torch.rand(m.num_features, generator=gen) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(m.num_features, generator=gen) * 0.1)


def export(name, out_dir):
    ctor, shape = MODELS[name]
    torch.manual_seed(0)
    model = ctor()
    randomize_batchnorm(model, torch.Generator().manual_seed(1))
    model.eval()
    x = torch.rand(shape, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        y = model(x)
    target = os.path.join(out_dir, name)
    data = os.path.join(target, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(target, "model.onnx")
    torch.onnx.export(model, x, path, opset_version=13, input_names=["input"], output_names=["output"],
                      do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x.numpy(), "input").SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y.numpy(), "output").SerializeToString())
    print(f"{name}: {path} input {tuple(shape)} output {tuple(y.shape)}")


class QuantStubs(nn.Module):
    """A model between QuantStub / DeQuantStub for post-training static quantization."""

    def __init__(self, model):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.model = model
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.model(self.quant(x)))


class WithTop1(nn.Module):
    """A model's logits and its top-1 class (so the testbench checks the class too)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        y = self.model(x)
        return y, torch.argmax(y, dim=1)


def quantizable_torchvision(name, last):
    """torchvision's quantizable `name` (QuantStub, FloatFunctional residual adds) with
    Conv+BN+ReLU fused, BatchNorm statistics randomized like the float zoo model's; `last` is
    its last quantized layer."""
    import torchvision.models.quantization as tvq
    model = getattr(tvq, name)(weights=None, quantize=False, num_classes=1000)
    randomize_batchnorm(model, torch.Generator().manual_seed(1))
    model.eval()
    model.fuse_model()
    return model, (1, 3, 224, 224), last, 4


def quantizable_lenet5():
    return QuantStubs(LeNet5()).eval(), (4, 1, 32, 32), "model.fc3", 16


class QuantizedMlp(QuantStubs):
    """The zoo MLP between the stubs, ending at its logits (no softmax)."""

    def forward(self, x):
        m = self.model
        x = self.quant(torch.flatten(x, 1))
        x = F.relu(m.fc2(F.relu(m.fc1(x))))
        return self.dequant(m.fc3(x))


def quantizable_mlp():
    return QuantizedMlp(Mlp()).eval(), (4, 1, 28, 28), "model.fc3", 16


def quantizable_hida(name, last):
    """HIDA's variant `name` (models/hida.py) between quant stubs, Conv+ReLU fused; `last` is
    its last quantized layer."""
    ctor, shape = hida.MODELS[name]
    model = ctor().eval()
    model.fuse_model()
    return QuantStubs(model).eval(), shape, "model." + last, 4


def export_int8(name, out_dir):
    """Post-training static quantization (torch.ao.quantization, engine qnnpack: uint8
    activations, int8 weights per tensor) of a zoo model with the float model's seed,
    calibrated on seeded random inputs, exported at opset 13 as a QDQ model whose second
    output is the top-1 class. The test data is PyTorch's own int8 output; flowhls.json gives
    the testbench tolerance: 2.5 steps (LSB) of the output's scale, as int8 runtimes disagree
    in the last bit."""
    import json
    import torch.ao.quantization as tq
    torch.backends.quantized.engine = "qnnpack"
    torch.manual_seed(0)
    model, shape, last, batches = QUANTIZABLE[name]()
    model.qconfig = tq.get_default_qconfig("qnnpack")
    prepared = tq.prepare(model)
    gen = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for _ in range(batches):
            prepared(torch.rand((8,) + tuple(shape[1:]), generator=gen))
    quantized = tq.convert(prepared)
    x = torch.rand(shape, generator=torch.Generator().manual_seed(2))
    top = WithTop1(quantized).eval()
    with torch.no_grad():
        y, top1 = top(x)
    target = os.path.join(out_dir, name)
    data = os.path.join(target, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(target, "model.onnx")
    torch.onnx.export(top, x, path, opset_version=13, input_names=["input"], output_names=["output", "top1"])
    onnx.checker.check_model(onnx.load(path))
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x.numpy(), "input").SerializeToString())
    for i, (n, a) in enumerate([("output", y.numpy()), ("top1", top1.numpy())]):
        with open(os.path.join(data, f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    layer = quantized
    for part in last.split("."):
        layer = getattr(layer, part)
    lsb = float(layer.scale)
    with open(os.path.join(target, "flowhls.json"), "w") as f:
        json.dump({"atol": 2.5 * lsb, "rtol": 0.0, "lsb": lsb}, f)
    print(f"{name}: {path} input {tuple(x.shape)} output {tuple(y.shape)} (output LSB {lsb:.3g})")


# Quantizable models: name -> () -> (model with quant stubs, input shape, last quantized layer,
# calibration batches of 8).
QUANTIZABLE = {"lenet5_int8": quantizable_lenet5, "mlp_int8": quantizable_mlp,
               "resnet18_int8": lambda: quantizable_torchvision("resnet18", "fc"),
               "mobilenet_v2_int8": lambda: quantizable_torchvision("mobilenet_v2", "classifier.1"),
               "hida_resnet18_int8": lambda: quantizable_hida("hida_resnet18", "fc"),
               "hida_mobilenet_int8": lambda: quantizable_hida("hida_mobilenet", "fc"),
               "hida_vgg16_int8": lambda: quantizable_hida("hida_vgg16", "fc2"),
               "hida_mlp_int8": lambda: quantizable_hida("hida_mlp", "fc4")}
# Quantized variants of zoo models: name -> exporter.
QUANTIZED = {name: export_int8 for name in QUANTIZABLE}


def export_any(name, out_dir):
    """Exports a float model of MODELS or a quantized one of QUANTIZED."""
    (QUANTIZED[name] if name in QUANTIZED else export)(name, out_dir)


def check_macs(names):
    """Prints each HIDA variant's MACs beside the figure HIDA's table implies; 1 when one is off
    by more than 1% (or is not a HIDA variant)."""
    bad = 0
    for n in names:
        if n not in hida.EXPECTED_MACS:
            print(f"{n}: not a HIDA variant (have: {', '.join(hida.EXPECTED_MACS)})")
            bad += 1
            continue
        ctor, shape = MODELS[n]
        macs, expected = hida.count_macs(ctor().eval(), shape), hida.EXPECTED_MACS[n]
        error = macs / expected - 1
        ok = abs(error) <= 0.01
        bad += not ok
        print(f"{n:15} {macs / 1e9:8.4f} GMAC  HIDA's figures imply {expected / 1e9:.4f}  "
              f"({error * 100:+.2f}%) {'ok' if ok else 'OFF BY MORE THAN 1%'}")
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)), help="output directory")
    every = list(MODELS) + list(QUANTIZED)
    parser.add_argument("names", nargs="*", help="models to export (default: all): " + ", ".join(every))
    parser.add_argument("--check-macs", action="store_true",
                        help="count the MACs of HIDA's model variants against the figure HIDA's table implies "
                             "(within 1%%); exports nothing")
    args = parser.parse_args()
    if args.check_macs:
        sys.exit(check_macs(args.names or list(hida.EXPECTED_MACS)))
    names = args.names or every
    for n in names:
        if n not in every:
            sys.exit(f"unknown model '{n}' (models: {', '.join(every)})")
    torch.set_num_threads(2)
    for n in names:
        export_any(n, args.out)


if __name__ == "__main__":
    main()
