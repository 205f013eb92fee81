"""Tiny CenterNet-style detector (stride-4 output) sized for ~30 ms at 960x544 on 2 CPU cores.

Raw head channels (per stride-4 cell):
  0-1  heatmap logits [honeybee, hornet]          (focal loss)
  2-4  subtype logits [bee, pollen, drone]        (CE, only where the subtype is known)
  5-6  centre offset (dx, dy) in cells from the cell centre
  7-8  log(w / stride), log(h / stride)
"""
from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F

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


# Channel widths: backbone (stem, s4, s8, s16, s32) and neck (s16, s8, s4). SMALL is 0.1.0-0.3.0.
SMALL: dict[str, tuple[int, ...]] = {"width": (16, 24, 48, 96, 128), "neck": (64, 48, 32)}
WIDE: dict[str, tuple[int, ...]] = {"width": (16, 32, 72, 144, 192), "neck": (96, 64, 48)}
# The photos' hornet specialist (card test_time_augmentation.specialist) only has to find hornets
# and runs on photos alone, so it can afford more channels where they are cheap: the stride-16/32
# stages and the neck's top (+70 % parameters, ~+18 % time at 448x448 against WIDE).
DEEP_WIDE: dict[str, tuple[int, ...]] = {"width": (16, 32, 96, 192, 256), "neck": (128, 80, 48)}
# DEEP_WIDE also widened at stride 4/8, where small and clustered insects are found (~+27 % time
# against DEEP_WIDE). Tried as the hornet specialist after 0.9.2: no better (training/README.md).
S4_WIDE: dict[str, tuple[int, ...]] = {"width": (16, 48, 96, 192, 256), "neck": (128, 96, 64)}
ARCHS = {"small": SMALL, "wide": WIDE, "deep-wide": DEEP_WIDE, "s4-wide": S4_WIDE}


class SubtypeBranch(nn.Module):
    """A subtype read-out of its own (tried after 0.10.0; training/README.md): it reads the
    backbone's and the neck's stride-8 features, which the head sees only through one linear
    reduction, and adds its logits to the head's subtype rows. Stride 8 keeps it cheap on video
    frames (a bee's type is a property of the whole insect, not of one stride-4 cell). No
    BatchNorm, so it trains with the rest of the net frozen in eval mode; its last conv starts at
    zero, so a net given a branch computes exactly what it computed before."""

    def __init__(self, c8: int, n8: int, width: int) -> None:
        super().__init__()
        self.reduce = nn.Conv2d(c8 + n8, width, 1)
        self.dw = nn.Conv2d(width, width, 5, 1, 2, groups=width)
        self.pw = nn.Conv2d(width, width, 1)
        self.out = nn.Conv2d(width, NUM_SUB, 1)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, c8: torch.Tensor, t8: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.reduce(torch.cat([c8, t8], dim=1)))
        y = F.relu(self.pw(F.relu(self.dw(y))))
        return F.interpolate(self.out(y), scale_factor=2.0, mode="nearest")


class Detector(nn.Module):
    def __init__(self, width: tuple[int, ...] = SMALL["width"], neck: tuple[int, ...] = SMALL["neck"],
                 branch: tuple[int, ...] = ()) -> None:
        super().__init__()
        # `branch` (the SubtypeBranch's width, or empty for none) is recorded only when present,
        # so the arch of every checkpoint from before it reads as it always did.
        self.arch = {"width": tuple(width), "neck": tuple(neck)} | ({"branch": tuple(branch)} if branch else {})
        c1, c2, c3, c4, c5 = width
        self.stem = conv_bn(3, c1, 3, 2)  # s2
        self.s4 = nn.Sequential(DWBlock(c1, c2, 2), DWBlock(c2, c2))
        self.s8 = nn.Sequential(DWBlock(c2, c3, 2), DWBlock(c3, c3))
        self.s16 = nn.Sequential(DWBlock(c3, c4, 2), DWBlock(c4, c4), DWBlock(c4, c4))
        # 5x5 depthwise at stride 32 widens the receptive field cheaply for 300-500 px insects.
        self.s32 = nn.Sequential(DWBlock(c4, c5, 2), DWBlock(c5, c5, k=5), DWBlock(c5, c5, k=5))
        n16, n8, n4 = neck
        self.lat32 = conv_bn(c5, n16)
        self.lat16 = conv_bn(c4, n16)
        self.fuse16 = DWBlock(n16, n16)
        self.red16 = conv_bn(n16, n8)
        self.lat8 = conv_bn(c3, n8)
        self.fuse8 = DWBlock(n8, n8)
        self.red8 = conv_bn(n8, n4)
        self.lat4 = conv_bn(c2, n4)
        self.fuse4 = DWBlock(n4, n4)
        self.head = nn.Sequential(DWBlock(n4, n4), nn.Conv2d(n4, HEAD_CHANNELS, 1))
        # Focal-loss prior: start with heat ~0.1 so early training is not swamped by negatives.
        nn.init.constant_(self.head[1].bias[:NUM_HEAT], -2.19)
        self.sub_branch = SubtypeBranch(c3, n8, branch[0]) if branch else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        c4 = self.s4(x)
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        t = F.interpolate(self.lat32(c32), scale_factor=2.0, mode="nearest") + self.lat16(c16)
        t = self.fuse16(t)
        t = F.interpolate(self.red16(t), scale_factor=2.0, mode="nearest") + self.lat8(c8)
        t8 = self.fuse8(t)
        t = F.interpolate(self.red8(t8), scale_factor=2.0, mode="nearest") + self.lat4(c4)
        t = self.fuse4(t)
        raw = self.head(t)
        if self.sub_branch is None:
            return raw
        sub = raw[:, NUM_HEAT:NUM_HEAT + NUM_SUB] + self.sub_branch(c8, t8)
        return torch.cat([raw[:, :NUM_HEAT], sub, raw[:, NUM_HEAT + NUM_SUB:]], dim=1)


@torch.no_grad()
def widen(small: Detector, arch: dict[str, tuple[int, ...]]) -> Detector:
    """A wider Detector that computes exactly what `small` computes (function-preserving).

    Every old weight keeps its place; a channel the small net did not have starts random, and the
    weights by which old channels (and the head) would read it start at zero, so in eval mode the
    old channels and the output are unchanged. Training then grows the new channels from there:
    the zero read-weights get gradients at once, because the new channels' activations are not zero.
    """
    big = Detector(**arch)
    old = small.state_dict()
    new = big.state_dict()
    for name, t in new.items():
        if name not in old:
            continue  # a module the small net lacks (sub_branch): its own init preserves the output
        o = old[name]
        if o.shape == t.shape:
            t.copy_(o)
            continue
        if o.ndim != t.ndim or any(a > b for a, b in zip(o.shape, t.shape)):
            raise ValueError(f"{name}: cannot widen {tuple(o.shape)} to {tuple(t.shape)}")
        t[tuple(slice(0, n) for n in o.shape)] = o
        if t.ndim == 4 and t.shape[1] > o.shape[1]:
            t[: o.shape[0], o.shape[1]:] = 0.0  # old outputs ignore new inputs
    big.load_state_dict(new)
    # Checked on every call: a silent mismatch would throw the warm start away unnoticed.
    was = small.training
    small.eval(), big.eval()
    x = torch.rand(1, 3, 64, 96, generator=torch.Generator().manual_seed(0))
    err = float((small(x) - big(x)).abs().max())
    small.train(was)
    if err > 1e-4:
        raise RuntimeError(f"widened net differs from the original by {err}")
    return big


def detector_from(state: dict[str, torch.Tensor]) -> Detector:
    """The Detector a state dict was saved from, its widths read off the weights."""
    net = Detector(**arch_of(state))
    net.load_state_dict(state)
    return net


def subtype_only(net: Detector) -> list[nn.Parameter]:
    """Freeze `net` but for the subtype rows of the head's last 1x1 conv, and return the
    parameters to optimise (with no weight decay, or the frozen rows would shrink). Gradient hooks
    zero every other row, so the heatmaps and boxes stay exactly as they were; keep the net in
    eval mode too, so that BatchNorm's statistics stay as well."""
    last = net.head[1]
    net.requires_grad_(False)
    last.requires_grad_(True)
    keep = torch.ones(HEAD_CHANNELS, dtype=torch.bool, device=last.weight.device)
    keep[NUM_HEAT:NUM_HEAT + NUM_SUB] = False
    for p in (last.weight, last.bias):
        p.register_hook(lambda g: g.masked_fill(keep.view(-1, *([1] * (g.ndim - 1))), 0.0))
    return list(last.parameters())


def branch_only(net: Detector) -> list[nn.Parameter]:
    """Freeze `net` but for its SubtypeBranch and return the branch's parameters: the heatmaps,
    boxes and the head's own subtype rows stay exactly as they were (keep the net in eval mode,
    so that BatchNorm's statistics stay as well)."""
    if net.sub_branch is None:
        raise ValueError("the net has no subtype branch (Detector(branch=...))")
    net.requires_grad_(False)
    net.sub_branch.requires_grad_(True)
    return list(net.sub_branch.parameters())


def arch_of(state: dict[str, torch.Tensor]) -> dict[str, tuple[int, ...]]:
    """Channel widths of a Detector state dict (checkpoints from before `arch` was recorded)."""
    out = lambda key: int(state[key].shape[0])  # noqa: E731
    arch = {"width": (out("stem.0.weight"), out("s4.1.pw.0.weight"), out("s8.1.pw.0.weight"),
                      out("s16.2.pw.0.weight"), out("s32.2.pw.0.weight")),
            "neck": (out("lat16.0.weight"), out("lat8.0.weight"), out("lat4.0.weight"))}
    return arch | ({"branch": (out("sub_branch.reduce.weight"),)} if "sub_branch.reduce.weight" in state else {})


def decode(raw: torch.Tensor) -> torch.Tensor:
    """Raw head -> [B, 4+C, N] (cx, cy, w, h in input px; bee, pollen, drone, hornet scores).

    Only local maxima (3x3) of each heatmap keep their score, so the output is already
    peak-filtered (CenterNet-style) and the engine's NMS has little left to do.
    Built from shape-agnostic ops so H/W stay dynamic in the ONNX graph.
    """
    heat = torch.sigmoid(raw[:, :NUM_HEAT])
    peak = F.max_pool2d(heat, 3, 1, 1)
    heat = heat * (heat == peak).to(heat.dtype)
    sub = torch.softmax(raw[:, NUM_HEAT:NUM_HEAT + NUM_SUB], dim=1)
    off = raw[:, 5:7]
    logwh = raw[:, 7:9].clamp(-4.0, 6.0)
    ones = torch.ones_like(raw[:, :1])
    gx = torch.cumsum(ones, dim=3) - 0.5  # cell centre x, in cells
    gy = torch.cumsum(ones, dim=2) - 0.5
    cx = (gx + off[:, :1]) * STRIDE
    cy = (gy + off[:, 1:2]) * STRIDE
    wh = torch.exp(logwh) * STRIDE
    hb = heat[:, :1]
    scores = torch.cat([hb * sub, heat[:, 1:2]], dim=1)
    out = torch.cat([cx, cy, wh, scores], dim=1)
    return out.flatten(2)


class ExportModel(nn.Module):
    def __init__(self, net: Detector) -> None:
        super().__init__()
        self.net = net

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return decode(self.net(images))
