#!/usr/bin/python3
"""Which torchvision models PyTorch 1.13 quantizes and exports as QDQ ONNX (opset 13), and
whether flowhls then compiles them: SqueezeNet 1.1, GoogLeNet, VGG-11 and ShuffleNet V2 x1.0
(random weights; post-training static quantization with engine qnnpack, calibrated on two
seeded random batches). Prints one line per attempt with the exact error of the step that
fails (quantize, export, flowhls); nothing is hidden or retried differently.

    /usr/bin/python3 bench/quantized_exports.py [--flowhls build/flowhls] [--work build/qexports] [--only NAME]
"""
import argparse
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.ao.quantization as tq
import torchvision.models as tvm
import torchvision.models.quantization as tvq


class Stubbed(nn.Module):
    """A float model between QuantStub / DeQuantStub (eager-mode quantization)."""

    def __init__(self, model):
        super().__init__()
        self.quant = tq.QuantStub()
        self.model = model
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.model(self.quant(x)))


def squeezenet():
    """SqueezeNet 1.1: its Fire modules concatenate with torch.cat (no quantizable variant)."""
    return Stubbed(tvm.squeezenet1_1(weights=None).eval()), "eager"


def googlenet():
    """torchvision's quantizable GoogLeNet (QuantStub, FloatFunctional concatenations), fused."""
    model = tvq.googlenet(weights=None, quantize=False, aux_logits=False, init_weights=True).eval()
    model.fuse_model()
    return model, "eager"


def vgg11():
    """VGG-11 with Conv+ReLU and Linear+ReLU fused (no quantizable variant)."""
    model = tvm.vgg11(weights=None).eval()
    feats = model.features
    pairs = [[str(i), str(i + 1)] for i in range(len(feats) - 1)
             if isinstance(feats[i], nn.Conv2d) and isinstance(feats[i + 1], nn.ReLU)]
    tq.fuse_modules(feats, pairs, inplace=True)
    tq.fuse_modules(model.classifier, [["0", "1"], ["3", "4"]], inplace=True)
    return Stubbed(model), "eager"


def shufflenet_eager():
    """torchvision's quantizable ShuffleNet V2 x1.0 in eager mode, fused."""
    model = tvq.shufflenet_v2_x1_0(weights=None, quantize=False).eval()
    model.fuse_model()
    return model, "eager"


def shufflenet_fx():
    """ShuffleNet V2 x1.0 quantized with FX graph mode (prepare_fx / convert_fx)."""
    return tvm.shufflenet_v2_x1_0(weights=None).eval(), "fx"


MODELS = {"squeezenet1_1": squeezenet, "googlenet": googlenet, "vgg11": vgg11,
          "shufflenet_v2_eager": shufflenet_eager, "shufflenet_v2_fx": shufflenet_fx}


def quantize(model, mode, shape):
    torch.backends.quantized.engine = "qnnpack"
    gen = torch.Generator().manual_seed(3)
    batches = [torch.rand(shape, generator=gen) for _ in range(2)]
    if mode == "fx":
        from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
        prepared = prepare_fx(model, tq.get_default_qconfig_mapping("qnnpack"), example_inputs=(batches[0],))
    else:
        model.qconfig = tq.get_default_qconfig("qnnpack")
        prepared = tq.prepare(model)
    with torch.no_grad():
        for b in batches:
            prepared(b)
    return convert_fx(prepared) if mode == "fx" else tq.convert(prepared)


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def attempt(name, work, flowhls):
    torch.manual_seed(0)
    shape = (1, 3, 224, 224)
    step = "quantize"
    try:
        model, mode = MODELS[name]()
        quantized = quantize(model, mode, shape)
        step = "export"
        path = os.path.join(work, name, "model.onnx")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        x = torch.rand(shape, generator=torch.Generator().manual_seed(2))
        torch.onnx.export(quantized, x, path, opset_version=13, input_names=["input"], output_names=["output"])
    except Exception as e:  # noqa: BLE001  (the error is the result)
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        return f"{name}: FAIL at {step}: {type(e).__name__}: {lines[0][:400] if lines else ''}"
    step = "flowhls compile"
    out = os.path.join(work, name, "out")
    r = subprocess.run([flowhls, "compile", path, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        return f"{name}: exported; FAIL at {step} (exit {r.returncode}): {last_line(r.stderr)}"
    return f"{name}: exported and compiled by flowhls ({path})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flowhls", default="build/flowhls")
    parser.add_argument("--work", default="build/qexports")
    parser.add_argument("--only", choices=list(MODELS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    for name in [args.only] if args.only else MODELS:
        print(attempt(name, args.work, args.flowhls), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
