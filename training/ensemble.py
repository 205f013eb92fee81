"""Merge exported detectors into one ONNX that averages their answers before decoding.

    python -m training.ensemble --onnx tmp/a/hivesight-detector.onnx models/hivesight-hornet.onnx \
        --out tmp/ens/hivesight-hornet.onnx [--weights 0.5,0.5]

Each network is rebuilt from its ONNX (`from_onnx.rebuild`, BatchNorm already folded), and the
merged graph averages what each cell says before the peak filter and the box arithmetic:
heatmap probabilities, subtype probabilities, offsets and log-sizes. Averaging before the peak
filter is the point: two networks that each put a hornet's peak one cell apart still agree on
one peak, which fusing their decoded boxes after the fact cannot always do. The output has the
card's layout, so the engine runs it like any export (as the photos' specialist, say).
Measured after 0.9.2 (training/README.md): no average of two hornet networks beat the better one.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import torch
from torch import nn

from .export import export_decoding
from .from_onnx import rebuild
from .model import NUM_HEAT, NUM_SUB, Detector, decode


class EnsembleModel(nn.Module):
    def __init__(self, nets: list[Detector], weights: list[float]) -> None:
        super().__init__()
        if len(nets) != len(weights) or len(nets) < 2:
            raise ValueError("an ensemble needs two or more networks, one weight each")
        self.nets = nn.ModuleList(nets)
        total = sum(weights)
        self.weights = [w / total for w in weights]

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        heat = sub = regs = None
        for net, w in zip(self.nets, self.weights):
            raw = net(images)
            h = torch.sigmoid(raw[:, :NUM_HEAT]) * w
            s = torch.softmax(raw[:, NUM_HEAT:NUM_HEAT + NUM_SUB], dim=1) * w
            r = raw[:, NUM_HEAT + NUM_SUB:] * w
            heat = h if heat is None else heat + h
            sub = s if sub is None else sub + s
            regs = r if regs is None else regs + r
        assert heat is not None and sub is not None and regs is not None
        # Back to logits so `decode` (sigmoid, softmax) gives exactly the averaged probabilities.
        eps = 1e-6
        heat = heat.clamp(eps, 1 - eps)
        raw = torch.cat([torch.log(heat) - torch.log1p(-heat), torch.log(sub.clamp_min(eps)), regs], dim=1)
        return decode(raw)


def export(model: EnsembleModel, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    export_decoding(model, model, path)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB), checked against torch")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnx", type=Path, nargs="+", required=True, help="exported detectors (two or more)")
    ap.add_argument("--weights", default="", help="comma-separated, one per network (default equal)")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    weights = [float(w) for w in a.weights.split(",")] if a.weights else [1.0] * len(a.onnx)
    nets = [rebuild(p) for p in a.onnx]
    export(EnsembleModel(nets, weights).eval(), a.out)


if __name__ == "__main__":
    main()
