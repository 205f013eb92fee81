"""The hivesight detector: an ImageNet EfficientNet-Lite0 trunk, a small top-down neck over
strides 32/16/8, and an anchor-free CenterNet head at stride 4.

The head's channels are those of `model.py` (heat honeybee/hornet, subtype bee/pollen/drone,
offset, log size), so targets, losses, decoding and the ONNX `yolo` layout are shared with it.
Stride 4 keeps bees of 12 px and dense clusters apart; the neck reaches it through one cheap
fuse with the trunk's stride-4 features.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .effnet import EfficientNetLite0, pretrained
from .model import HEAD_CHANNELS, NUM_HEAT, NUM_SUB, STRIDE, DWBlock, conv_bn

# Trunk blocks that end each stride, in EfficientNet-Lite0's 16 blocks.
END_S4, END_S8, END_S16, END_S32 = 3, 5, 11, 15
TRUNK_CHANNELS = {4: 24, 8: 40, 16: 112, 32: 192}
NECK = (96, 64, 48)  # channels at strides 16, 8, 4 (stride 32 is read into the 16 width)


class LiteDetector(nn.Module):
    def __init__(self, imagenet: bool = True, neck: tuple[int, int, int] = NECK) -> None:
        super().__init__()
        base = pretrained() if imagenet else EfficientNetLite0()
        self._conv_stem, self._bn0 = base._conv_stem, base._bn0
        # Blocks 0-14: the stride-32 stage without its last 320-wide block, which exists to feed
        # the classifier head.
        self.blocks = nn.ModuleList(list(base._blocks)[:END_S32])
        self.act = nn.ReLU6(inplace=True)
        n16, n8, n4 = neck
        self.lat32 = conv_bn(TRUNK_CHANNELS[32], n16)
        self.lat16 = conv_bn(TRUNK_CHANNELS[16], n16)
        self.fuse16 = DWBlock(n16, n16, k=5)
        self.red16 = conv_bn(n16, n8)
        self.lat8 = conv_bn(TRUNK_CHANNELS[8], n8)
        self.fuse8 = DWBlock(n8, n8, k=5)
        self.red8 = conv_bn(n8, n4)
        self.lat4 = conv_bn(TRUNK_CHANNELS[4], n4)
        self.fuse4 = DWBlock(n4, n4)
        self.head = nn.Sequential(DWBlock(n4, n4), nn.Conv2d(n4, HEAD_CHANNELS, 1))
        nn.init.constant_(self.head[1].bias[:NUM_HEAT], -2.19)  # focal-loss prior: heat ~0.1
        self.arch = {"kind": "lite0", "neck": tuple(neck)}

    def trunk_parameters(self) -> list[nn.Parameter]:
        return [*self._conv_stem.parameters(), *self._bn0.parameters(), *self.blocks.parameters()]

    def freeze_early(self, frozen: bool) -> None:
        """Stem and the stride-2/4 blocks keep their ImageNet weights (and batch statistics)
        while the new neck and head are still random, so their noise cannot wash them out."""
        early = [self._conv_stem, self._bn0, *list(self.blocks)[:END_S4]]
        for m in early:
            for p in m.parameters():
                p.requires_grad = not frozen

    def train(self, mode: bool = True) -> "LiteDetector":
        super().train(mode)
        if mode and not self._conv_stem.weight.requires_grad:
            for m in [self._bn0, *list(self.blocks)[:END_S4]]:
                m.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Inputs are RGB in [0, 1], as for every hivesight network; the trunk learnt (x - 0.5) / 0.5.
        x = self.act(self._bn0(self._conv_stem(x * 2.0 - 1.0)))
        feats: dict[int, torch.Tensor] = {}
        for i, b in enumerate(self.blocks):
            x = b(x)
            if i == END_S4 - 1:
                feats[4] = x
            elif i == END_S8 - 1:
                feats[8] = x
            elif i == END_S16 - 1:
                feats[16] = x
        feats[32] = x
        t = F.interpolate(self.lat32(feats[32]), scale_factor=2.0, mode="nearest") + self.lat16(feats[16])
        t = self.fuse16(t)
        t = F.interpolate(self.red16(t), scale_factor=2.0, mode="nearest") + self.lat8(feats[8])
        t = self.fuse8(t)
        t = F.interpolate(self.red8(t), scale_factor=2.0, mode="nearest") + self.lat4(feats[4])
        t = self.fuse4(t)
        return self.head(t)


def decode_typed(raw: torch.Tensor) -> torch.Tensor:
    """Raw head -> the card's `yolo` layout [B, 4 + 4, N]: cx, cy, w, h in input px, then the
    scores of bee, pollen, drone and hornet.

    A honeybee's score is its heat (how sure the net is that a honeybee is there), given to its
    most likely type alone; the other types score 0. So a bee whose type is uncertain is still
    counted at its own score (heat x type probability would drop it below the threshold), and
    the engine's argmax reads the type. Only 3x3 peaks of each heatmap keep a score.
    """
    heat = torch.sigmoid(raw[:, :NUM_HEAT])
    peak = F.max_pool2d(heat, 3, 1, 1)
    heat = heat * (heat == peak).to(heat.dtype)
    sub = raw[:, NUM_HEAT:NUM_HEAT + NUM_SUB]
    best = (sub == sub.max(dim=1, keepdim=True).values).to(heat.dtype)
    off = raw[:, NUM_HEAT + NUM_SUB:NUM_HEAT + NUM_SUB + 2]
    logwh = raw[:, NUM_HEAT + NUM_SUB + 2:].clamp(-4.0, 6.0)
    ones = torch.ones_like(raw[:, :1])
    gx = torch.cumsum(ones, dim=3) - 0.5
    gy = torch.cumsum(ones, dim=2) - 0.5
    cx = (gx + off[:, :1]) * STRIDE
    cy = (gy + off[:, 1:2]) * STRIDE
    wh = torch.exp(logwh) * STRIDE
    scores = torch.cat([heat[:, :1] * best, heat[:, 1:2]], dim=1)
    return torch.cat([cx, cy, wh, scores], dim=1).flatten(2)


class Exported(nn.Module):
    """What the ONNX file computes: images in [0, 1] -> detections."""

    def __init__(self, net: LiteDetector) -> None:
        super().__init__()
        self.net = net

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return decode_typed(self.net(images))
