"""The DNN variants HIDA (seed 001, "HIDA results on DNN models") reports, so flowhls's figures
compare like for like: no BatchNorm, HIDA's own layer shapes, 224x224 inputs, batch 1.

The shapes follow the PyTorch sources of the ScaleHLS/HIDA samples (samples/pytorch/{resnet18,
mobilenet,vgg16}); HIDA's MLP has no published source, see HidaMlp. `EXPECTED_MACS` is what
HIDA's table implies: MACs = DSP efficiency x DSP x 200 MHz / samples/s (ResNet-18:
0.738 x 667 x 2e8 / 45.4 = 2.168 G); `count_macs` checks the models against it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv(cin, cout, k, stride=1, pad=0, groups=1, bias=False):
    return nn.Conv2d(cin, cout, k, stride=stride, padding=pad, groups=groups, bias=bias)


class HidaBasicBlock(nn.Module):
    """ResNet basic block without BatchNorm: relu(conv3x3(relu(conv3x3(x))) + shortcut(x)). The
    residual add is a FloatFunctional so that post-training quantization can quantize it."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = conv(cin, cout, 3, stride, 1)
        self.relu = nn.ReLU()
        self.conv2 = conv(cout, cout, 3, 1, 1)
        self.down = conv(cin, cout, 1, stride) if stride != 1 or cin != cout else None
        self.skip = torch.ao.nn.quantized.FloatFunctional()

    def forward(self, x):
        y = self.conv2(self.relu(self.conv1(x)))
        return self.skip.add_relu(y, self.down(x) if self.down is not None else x)

    def fuse_model(self):
        torch.ao.quantization.fuse_modules(self, [["conv1", "relu"]], inplace=True)


class HidaResNet18(nn.Module):
    """ResNet-18 as HIDA compiles it: no BatchNorm; conv1 is 7x7 stride 1 pad 3, followed by a
    2x2/2 max-pool, ReLU and the usual 3x3/2 max-pool (2.168 GMAC at 224x224)."""

    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = conv(3, 64, 7, 1, 3)
        stages, cin = [], 64
        for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
            stages += [HidaBasicBlock(cin, cout, stride), HidaBasicBlock(cout, cout, 1)]
            cin = cout
        self.blocks = nn.Sequential(*stages)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(F.max_pool2d(self.conv1(x), 2)), 3, stride=2, padding=1)
        x = F.adaptive_avg_pool2d(self.blocks(x), 1)
        return self.fc(torch.flatten(x, 1))

    def fuse_model(self):
        for b in self.blocks:
            b.fuse_model()


class HidaMobileNet(nn.Module):
    """MobileNet v1 without BatchNorm, ReLU after every convolution (0.569 GMAC at 224x224)."""

    # (output channels, stride) of the 13 depthwise-separable blocks.
    BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + \
             [(1024, 2), (1024, 1)]

    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = conv(3, 32, 3, 2, 1)
        self.relu = nn.ReLU()
        layers, cin = [], 32
        for cout, stride in self.BLOCKS:
            layers += [conv(cin, cin, 3, stride, 1, groups=cin), nn.ReLU(), conv(cin, cout, 1), nn.ReLU()]
            cin = cout
        self.blocks = nn.Sequential(*layers)
        self.fc = nn.Linear(1024, classes)

    def forward(self, x):
        x = self.blocks(self.relu(self.conv1(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))

    def fuse_model(self):
        torch.ao.quantization.fuse_modules(self, [["conv1", "relu"]], inplace=True)
        fuse_conv_relu(self.blocks)


class HidaVgg16(nn.Module):
    """VGG-16 with channels 32-64-128-256-512, the first classifier layer as a 7x7 convolution
    to 2048 channels, then FC 2048-2048-1000 (4.73 GMAC at 224x224)."""

    STAGES = [(32, 2), (64, 2), (128, 3), (256, 3), (512, 3)]  # (channels, convolutions)

    def __init__(self, classes=1000):
        super().__init__()
        layers, cin = [], 3
        for cout, n in self.STAGES:
            for _ in range(n):
                layers += [conv(cin, cout, 3, 1, 1, bias=True), nn.ReLU()]
                cin = cout
            layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.conv = conv(512, 2048, 7, bias=True)
        self.relu = nn.ReLU()
        self.fc1 = nn.Linear(2048, 2048)
        self.fc2 = nn.Linear(2048, classes)

    def forward(self, x):
        x = torch.flatten(self.relu(self.conv(self.features(x))), 1)
        return self.fc2(F.relu(self.fc1(x)))

    def fuse_model(self):
        torch.ao.quantization.fuse_modules(self, [["conv", "relu"]], inplace=True)
        fuse_conv_relu(self.features)


class HidaMlp(nn.Module):
    """An MLP of HIDA's size. HIDA publishes no shape for its MLP; its table implies
    0.900 x 164 DSP x 200 MHz / 938.9 samples/s = 31.4 M MACs, which four layers
    4096-4096-2048-2048-1000 give (31.41 M). The shape is flowhls's choice, not HIDA's."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4096, 4096)
        self.fc2 = nn.Linear(4096, 2048)
        self.fc3 = nn.Linear(2048, 2048)
        self.fc4 = nn.Linear(2048, 1000)

    def forward(self, x):
        x = F.relu(self.fc2(F.relu(self.fc1(x))))
        return self.fc4(F.relu(self.fc3(x)))

    def fuse_model(self):
        pass  # Linear+ReLU stay unfused, as in the zoo's int8 MLP


def fuse_conv_relu(seq):
    """Fuses every Conv2d followed by a ReLU in the Sequential `seq` (for quantization)."""
    pairs = [[str(i), str(i + 1)] for i in range(len(seq) - 1)
             if isinstance(seq[i], nn.Conv2d) and isinstance(seq[i + 1], nn.ReLU)]
    torch.ao.quantization.fuse_modules(seq, pairs, inplace=True)


# name -> (constructor, input shape)
MODELS = {
    "hida_resnet18": (HidaResNet18, (1, 3, 224, 224)),
    "hida_mobilenet": (HidaMobileNet, (1, 3, 224, 224)),
    "hida_vgg16": (HidaVgg16, (1, 3, 224, 224)),
    "hida_mlp": (HidaMlp, (1, 4096)),
}

# MACs per sample that HIDA's published figures imply (see the module comment).
EXPECTED_MACS = {"hida_resnet18": 2.168e9, "hida_mobilenet": 0.569e9, "hida_vgg16": 4.73e9,
                 "hida_mlp": 31.4e6}


def count_macs(model, shape):
    """Multiply-accumulates of one forward pass of `model` on an input of `shape`: every
    Conv2d and Linear output element costs its reduction length."""
    total = [0]

    def hook(module, inputs, output):
        if isinstance(module, nn.Conv2d):
            kh, kw = module.kernel_size
            total[0] += output.numel() * (module.in_channels // module.groups) * kh * kw
        else:
            total[0] += output.numel() * module.in_features

    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    with torch.no_grad():
        model(torch.zeros(shape))
    for h in handles:
        h.remove()
    return total[0]
