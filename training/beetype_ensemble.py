"""Several trained bee-type classifiers as one ONNX model that answers the mean of their
probabilities (a seed ensemble: networks trained alike from different seeds make partly
independent mistakes). The engine sees one classifier; nothing in it changes.

    python -m training.beetype_ensemble --detail 2 --card models/hivesight-detector.card.json \\
        --checkpoints training/checkpoints/beetype-d2-best.pt training/checkpoints/beetype-d2s1-best.pt

Prints each member's validation (ground-truth boxes of the hive validation frames, held-out
pollen crops) and the ensemble's, then exports it where `training.beetype` would have written the
classifier (`--detail 1`: the card's own; above 1: the photos' detail classifier).
"""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import torch
from torch import nn

from .beetype import BeeTypeNet, evaluate, export, onnx_name, write_card_section
from .beetype_data import val_sets
from .data import crop_split, hive_split


class MeanOfProbabilities(nn.Module):
    """Log of the members' mean softmax: a logit whose softmax is that mean (what `evaluate` and
    the export's softmax expect)."""

    def __init__(self, members: list[BeeTypeNet]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)
        self.detail = members[0].detail

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        p = torch.stack([torch.softmax(m(x), dim=1) for m in self.members]).mean(dim=0)
        return torch.log(p.clamp_min(1e-12))


def load_member(path: Path, detail: int) -> tuple[BeeTypeNet, dict]:
    ckpt = torch.load(path, weights_only=False)
    net = BeeTypeNet(ckpt["model"]["fc.weight"].shape[0], detail)
    net.load_state_dict(ckpt["model"])
    return net.eval(), ckpt


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoints", type=Path, nargs="+", required=True)
    ap.add_argument("--detail", type=int, default=1, choices=(1, 2, 3), help="as the members were trained")
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--card", type=Path, default=Path("models/hivesight-detector.card.json"))
    a = ap.parse_args(argv)
    if len(a.checkpoints) < 2:
        raise SystemExit("an ensemble needs at least 2 checkpoints")
    torch.set_num_threads(2)
    members = [load_member(p, a.detail) for p in a.checkpoints]
    if len({m.fc.weight.shape[0] for m, _ in members}) != 1:
        raise SystemExit("the members must tell apart the same types")
    _, hive_val = hive_split(a.data)
    _, crops_val = crop_split(a.data)
    sets = val_sets(a.data, hive_val, crops_val, None, a.detail)
    for path, (net, _) in zip(a.checkpoints, members):
        print(f"{path.name}: {evaluate(net, sets)}")
    ensemble = MeanOfProbabilities([net for net, _ in members])
    val = evaluate(ensemble, sets)
    print(f"ensemble: {val}")

    onnx_path = a.card.parent / onnx_name(a.detail)
    export(ensemble, onnx_path)  # type: ignore[arg-type]  # any module with .detail exports alike
    command = "python -m training.beetype_ensemble " + " ".join(
        shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:]))
    # The section's training record: the ensemble's command and each member's own run.
    members_run = [{"command": c["command"], "best_epoch": c["epoch"], "val": {k: round(v, 4) for k, v in c["val"].items()}}
                   for _, c in members]
    write_card_section(a.card, onnx_path.name, val, {"command": command, "members": members_run},
                       members[0][0].fc.weight.shape[0], a.detail)
    print(f"wrote {onnx_path} and {a.card}")


if __name__ == "__main__":
    main()
