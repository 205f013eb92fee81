"""Average the weights of several checkpoints of one run (stochastic weight averaging).

Fine-tuning on 2 CPU cores gives noisy epochs: validation swings a few AP points from one epoch
to the next while the weights wander around one basin. The mean of the late epochs' weights sits
nearer its centre than any single epoch. BatchNorm statistics do not average (they belong to the
weights they were measured with), so they are measured again on training patches.

    python -m training.average --checkpoints training/checkpoints/wide3-ep0*.pt \
        --out training/checkpoints/wide3-swa.pt [--data ../shared/datasets] [--evaluate]

The result is a checkpoint like train.py's (export it with `python -m training.export`).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import torch
from torch import nn

from .model import Detector, arch_of


def average_states(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """Mean of every floating-point tensor; integer ones (BN batch counters) from the last state."""
    keys = states[0].keys()
    for s in states[1:]:
        if s.keys() != keys:
            raise ValueError("checkpoints of different architectures cannot be averaged")
    out: dict[str, torch.Tensor] = {}
    for k in keys:
        ts = [s[k] for s in states]
        out[k] = torch.stack([t.float() for t in ts]).mean(0).to(ts[0].dtype) if ts[0].is_floating_point() else ts[-1]
    return out


@torch.no_grad()
def recompute_bn(net: Detector, batches: list[torch.Tensor]) -> None:
    """Running BN statistics as the cumulative mean over `batches` (train-mode forward)."""
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    momenta = [bn.momentum for bn in bns]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative average
    net.train()
    for x in batches:
        net(x)
    for bn, m in zip(bns, momenta):
        bn.momentum = m
    net.eval()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoints", type=Path, nargs="+", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--bn-patches", type=int, default=512,
                    help="training patches for the BN statistics; 0 keeps the averaged ones (runs with "
                         "BatchNorm frozen, e.g. train.py --subtype-only, where every epoch has the same)")
    ap.add_argument("--seed", type=int, default=0, help="which training patches measure BN")
    ap.add_argument("--evaluate", action="store_true", help="print the training-side validation metrics")
    a = ap.parse_args(argv)
    if not a.data.exists():
        sys.exit(f"{a.data} not found: the BN statistics need the training data (see ../shared/datasets/README.md)")
    ckpts: list[dict[str, Any]] = [torch.load(p, map_location="cpu", weights_only=False) for p in a.checkpoints]
    net = Detector(**arch_of(ckpts[0]["model"]))
    net.load_state_dict(average_states([c["model"] for c in ckpts]))

    from .from_onnx import calibration_batch
    t0 = time.time()
    if a.bn_patches > 0:
        x = calibration_batch(a.data, a.bn_patches, 320, a.seed)
        recompute_bn(net, list(x.split(32)))
    net.eval()
    print(f"averaged {len(ckpts)} checkpoints (epochs {[c['epoch'] for c in ckpts]}); "
          + (f"BN statistics from {a.bn_patches} patches in {time.time() - t0:.0f} s" if a.bn_patches > 0
             else "BN statistics averaged as they were"))

    last = ckpts[-1]
    out = {**last, "model": net.state_dict(), "opt": None,
           "command": " ".join(["python -m training.average", *(argv if argv is not None else sys.argv[1:])]),
           "averaged_from": [f"{p.name} (epoch {c['epoch']})" for p, c in zip(a.checkpoints, ckpts)],
           "trained_by": last.get("command", "")}
    if a.evaluate:
        from .data import crop_split, hive_split, load_bh, load_crops, load_hive
        from .evaluate import evaluate
        val = evaluate(net, load_hive(a.data, hive_split(a.data)[1]), load_bh(a.data, "valid"),
                       load_crops(crop_split(a.data)[1]))
        out["val"] = val
        print("val: " + " ".join(f"{k}={v:.4f}" for k, v in val.items()))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(out, a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
