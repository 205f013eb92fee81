"""The CenterNet head's layout and the small blocks the detector's neck is built of.

Raw head channels (per stride-4 cell):
  0-1  heatmap logits [honeybee, hornet]          (focal loss)
  2-4  subtype logits [bee, pollen, drone]        (CE, only where the subtype is known)
  5-6  centre offset (dx, dy) in cells from the cell centre
  7-8  log(w / stride), log(h / stride)
"""
from __future__ import annotations

import torch
from torch import nn

STRIDE = 4
NUM_HEAT = 2
NUM_SUB = 3
HEAD_CHANNELS = NUM_HEAT + NUM_SUB + 2 + 2
CLASSES = ["bee", "pollen", "drone", "hornet"]


def conv_bn(cin: int, cout: int, k: int = 1, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DWBlock(nn.Module):
    """Depthwise kxk + pointwise 1x1 (MobileNet-v1 style); residual when shapes match."""

    def __init__(self, cin: int, cout: int, stride: int = 1, k: int = 3) -> None:
        super().__init__()
        self.dw = conv_bn(cin, cin, k, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return x + y if self.residual else y
