"""Bee-type classifier: worker / pollen / drone, on a crop around each honeybee the detector finds.

Why a second model: the detector's subtype is a 1x1 head on 32 shared channels at stride 4, and it
has to find the bee at the same time; pollen loads are a few pixels of colour on the hind legs. A
classifier that looks only at the bee, with its own 83k parameters, separates the types far
better for the same CPU time (a handful of 48x48 crops per frame).

The crop is taken from the frame the detector saw (the engine's decode size), so training crops
are made the same way: the source scaled to a detector-like scale, then `sample_square` (a square
of side CONTEXT x the box's longer side, centred on the box, bilinear, edges clamped) at SIZE px.
`engine/detection/subtype-classifier.ts` implements the same sampler.

    python -m training.beetype --data ../shared/datasets --card models/hivesight-detector.card.json
                               [--epochs 30] [--seed 0] [--smoke]
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from .crop_train import check_export, common_args, fit, start
from .beetype_data import (CONTEXT, SIZE, TYPES, CropDataset, crop_split_samples, detected_items, detected_val_set,
                           hive_items, mine_matched, mine_negatives, negative_items, val_sets)
from .data import crop_split, hive_split, load_crops, load_hive
from .export import fold_bn
from .model import DWBlock, conv_bn

NAME = "hivesight-beetype"


class BeeTypeNet(nn.Module):
    def __init__(self, n_types: int = 3, detail: int = 1) -> None:
        super().__init__()
        self.detail = detail
        self.features = nn.Sequential(
            conv_bn(3, 24, 3, detail),  # a detail crop (detail x SIZE px) comes down to SIZE here
            DWBlock(24, 32, 2), DWBlock(32, 32),  # 24 px
            DWBlock(32, 64, 2), DWBlock(64, 64),  # 12 px
            DWBlock(64, 128, 2), DWBlock(128, 128), DWBlock(128, 128),  # 6 px
            DWBlock(128, 192, 2),  # 3 px
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(192, n_types)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.features(x).mean(dim=(2, 3))))


class ExportNet(nn.Module):
    def __init__(self, net: BeeTypeNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops), dim=1)


def ap(scores: np.ndarray, positive: np.ndarray) -> float:
    """Average precision of ranking `positive` items first (all-point interpolation)."""
    if positive.sum() == 0:
        return float("nan")
    order = np.argsort(-scores, kind="stable")
    tp = positive[order].astype(np.float64)
    prec = np.cumsum(tp) / np.arange(1, len(tp) + 1)
    return float((prec * tp).sum() / tp.sum())


@torch.no_grad()
def evaluate(net: nn.Module, sets: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, float]:
    net.eval()
    out: dict[str, float] = {}
    for name, (x, y) in sets.items():
        if len(x) == 0:  # e.g. no detected boxes from the smoke test's detector
            continue
        p = torch.cat([torch.softmax(net(torch.from_numpy(x[i:i + 512]).float() / 255.0), 1)
                       for i in range(0, len(x), 512)]).numpy()
        pred = p.argmax(1)
        if name == "crops":  # pollen vs not pollen, as `hivesight eval` scores crop folders
            out["crop_acc"] = float(((pred == 1) == (y == 1)).mean())
            out["crop_ap_pollen"] = ap(p[:, 1], y == 1)
        else:  # "hive" (labelled boxes) drives the epoch choice; "det" (detected boxes) is reported
            out[f"{name}_acc"] = float((pred == y).mean())
            for c in range(1, p.shape[1]):
                out[f"{name}_ap_{TYPES[c]}"] = ap(p[:, c], y == c)
                out[f"{name}_recall_{TYPES[c]}"] = float((pred[y == c] == c).mean()) if (y == c).any() else float("nan")
    return out


def score(m: dict[str, float]) -> float:
    vals = [m.get("hive_ap_pollen", 0.0), m.get("hive_ap_drone", 0.0), m.get("hive_ap_none", 0.0), m.get("crop_acc", 0.0)]
    return float(np.mean([0.0 if v != v else v for v in vals]))


def export(net: BeeTypeNet, path: Path) -> None:
    model = ExportNet(fold_bn(net)).eval()
    x = torch.rand(4, 3, SIZE * net.detail, SIZE * net.detail)
    with torch.no_grad():
        ref = ExportNet(net.eval())(x).numpy()
    torch.onnx.export(model, (x,), str(path), input_names=["crops"], output_names=["types"], opset_version=17,
                      dynamo=False, dynamic_axes={"crops": {0: "n"}, "types": {0: "n"}})
    check_export(path, x, ref)


def onnx_name(detail: int) -> str:
    """The card's own classifier, or (detail above 1) the photos' detail classifier."""
    return f"{NAME}.onnx" if detail == 1 else f"{NAME}-detail.onnx"


def write_card_section(card_path: Path, onnx_name: str, val: dict[str, float], training: dict[str, Any],
                       n_types: int, detail: int) -> None:
    """The classifier is described inside the detector's card: the engine loads them as one model."""
    card = json.loads(card_path.read_text())
    # A detail classifier needs a second decode of the picture, which photos can pay for and video
    # frames cannot: it goes where the photos' test-time views are, beside the card's own.
    home = card.setdefault("test_time_augmentation", {"views": ["identity"], "media": ["image"], "match_iou": 0.55}) \
        if detail > 1 else card
    # The blend with the detector's own subtype split is chosen through `hivesight eval` after
    # training (see the README); a retrained classifier keeps the card's current choice.
    kept = {k: v for k, v in (home.get("subtype_classifier") or card.get("subtype_classifier", {})).items()
            if k in ("detector_weight", "detector_weight_selection")}
    home["subtype_classifier"] = {
        "file": onnx_name,
        # null: "not a honeybee"; the engine scales the honeybee score by 1 - its probability.
        "classes": [t if t != "none" else None for t in TYPES[:n_types]],
        "input": {"name": "crops", "size": SIZE * detail, "context": CONTEXT, "channels": "RGB",
                  **({"detail": detail} if detail > 1 else {})},
        "normalization": {"scale": 1 / 255, "mean": [0, 0, 0], "std": [1, 1, 1]},
        "output": {"name": "types"},
        "max_crops": 256,
        "metrics": {k: (None if v != v else round(v, 4)) for k, v in val.items()},
        "training": {**training, "date": time.strftime("%Y-%m-%d", time.gmtime()), "hardware": "CPU, 2 cores (shared)"},
        **kept,
    }
    card_path.write_text(json.dumps(card, indent=2, allow_nan=False) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap_ = common_args("classifier", "beetype", 36)
    ap_.add_argument("--negatives", action="store_true",
                     help="add a 'none' class from the shipped detector's false positives (tried for 0.5.0: "
                          "higher precision, more undercounting; not shipped)")
    ap_.add_argument("--detail", type=int, default=1, choices=(1, 2, 3),
                     help="crop from the source at up to this many times the detector's scale, at this many "
                          "times 48 px (a stride-d stem brings it back to 48)")
    ap_.add_argument("--detected", action="store_true",
                     help="also train on the shipped detector's own boxes on the hive training frames, typed by "
                          "the label each matches (half the hive draws), and report the validation frames' "
                          "detected boxes as det_* metrics (tried after 0.9.2)")
    a = ap_.parse_args(argv)
    command = start("beetype", a, argv)

    hive_train, hive_val = hive_split(a.data)
    crops_train, crops_val = crop_split(a.data)
    if a.smoke:
        hive_train, hive_val, crops_train, crops_val = hive_train[:3], hive_val[:2], crops_train[:8], crops_val[:8]
    t0 = time.time()
    detector_onnx = a.card.parent / json.loads(a.card.read_text())["file"]
    hive = load_hive(a.data, hive_train)
    items = hive_items(hive) + crop_split_samples(load_crops(crops_train))
    if a.negatives:
        items += negative_items(mine_negatives(hive, detector_onnx))
    if a.detected:
        items += detected_items(mine_matched(hive, detector_onnx))
    sets = val_sets(a.data, hive_val, crops_val, detector_onnx if a.negatives else None, a.detail)
    if a.detected:
        sets["det"] = detected_val_set(a.data, hive_val, detector_onnx, a.detail)
    n_types = len(TYPES) if a.negatives else len(TYPES) - 1
    counts = {f"{src}:{t}": sum(1 for it in items if it.cls == i and it.source == src)
              for src in sorted({it.source for it in items}) for i, t in enumerate(TYPES[:n_types])}
    print(f"loaded in {time.time() - t0:.0f}s: train {counts}, val " +
          ", ".join(f"{k}={len(v[1])}" for k, v in sets.items()), flush=True)

    net = BeeTypeNet(n_types, a.detail)
    ckpt = fit(net, CropDataset(items, a.per_epoch, a.seed, a.detail), a, command,
               lambda out, y: nn.functional.cross_entropy(out, y, label_smoothing=0.05),
               lambda: evaluate(net, sets), score)
    onnx_path = a.card.parent / onnx_name(a.detail)
    export(net, onnx_path)
    write_card_section(a.card, onnx_path.name, ckpt["val"],
                       {"command": ckpt["command"], "epochs": ckpt["epoch"] + 1, "train_time_s": round(ckpt["train_time_s"])},
                       n_types, a.detail)
    print(f"best epoch {ckpt['epoch']}: {ckpt['val']}; wrote {onnx_path} and {a.card}")


if __name__ == "__main__":
    main()
