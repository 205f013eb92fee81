"""Box refiner: a second look at each hornet the detector finds, that redraws its box.

Why: on bees-hornets valid (detector 0.5.1) hornet AP50 is 0.59 when a match needs IoU 0.5 and
0.73 when it needs 0.3, and most hornet false positives at the card's threshold are hornets boxed
badly (19 of 36). The detector places boxes from a stride-4 map of 32 shared channels and does not
fit even its training hornets (train AP50 0.55); the refiner looks at one insect at a time.

Input: a 64x64 crop of CONTEXT (2) x the box's width by CONTEXT x its height, stretched to a
square (R-CNN's warp: the box is always the middle half, so "keep the box" is the answer 0), cut
from the frame the detector saw exactly as `engine/detection/crop-model.ts` cuts it. Output:
(dx, dy, log w, log h) of the insect's box from the box's centre, in box sides. Trained on boxes
disturbed the way the detector's are (refiner_data.py).

It is trained on honeybees too, and validated on both, but the card applies it to hornets only
(`--classes`): on hive-entrance bees the detector's boxes already agree with the labels as well as
the labels agree with themselves (mean IoU 0.68 on its own training frames), and refining them
cost hive bee AP50 0.01 through `hivesight eval`.

    python -m training.refiner --data ../shared/datasets --card models/hivesight-detector.card.json
                               [--epochs 40] [--seed 0] [--classes hornet] [--smoke]
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
from .data import hive_split, load_bh, load_hive
from .evaluate import onnx_infer
from .export import fold_bn
from .model import DWBlock, conv_bn
from .refiner_data import (CONTEXT, CROPS, SIZE, CropDataset, ValImage, decode_boxes, items_from, mean_iou_gain,
                           refined_ap, val_images)

NAME = "hivesight-refiner"


def loss_weights(crop: str) -> torch.Tensor:
    """Square crops measure the centre in crop sides (CONTEXT box sizes), box crops in box sides."""
    return torch.tensor([CONTEXT, CONTEXT, 1.0, 1.0]) if crop == "square" else torch.ones(4)


class RefinerNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 24, 3, 2),  # 32 px
            DWBlock(24, 32), DWBlock(32, 48, 2),  # 16 px
            DWBlock(48, 48), DWBlock(48, 96, 2),  # 8 px
            DWBlock(96, 96), DWBlock(96, 128, 2),  # 4 px
            DWBlock(128, 128),
        )
        # Where the insect lies is spatial: keep the 4x4 map rather than pooling it away.
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(128 * 16, 128), nn.ReLU(inplace=True), nn.Linear(128, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


@torch.no_grad()
def refine(net: nn.Module, images: list[ValImage], crop: str) -> list[np.ndarray]:
    net.eval()
    out = []
    for im in images:
        if len(im.boxes) == 0:
            out.append(im.boxes.copy())
            continue
        d = net(torch.from_numpy(im.crops).float() / 255.0).numpy()
        out.append(decode_boxes(im.boxes * im.ratio, d, crop) / im.ratio)
    return out


def evaluate(net: nn.Module, sets: dict[str, list[ValImage]], crop: str) -> dict[str, float]:
    res: dict[str, float] = {}
    for name, images in sets.items():
        refined = refine(net, images, crop)
        kinds = ((0, "honeybee"),) if name == "hive" else ((0, "honeybee"), (1, "hornet"))
        for k, label in kinds:
            res[f"{name}_ap50_{label}"] = refined_ap(images, refined, k)
        res[f"{name}_iou_gain"] = mean_iou_gain(images, refined)
    return res


def baseline(sets: dict[str, list[ValImage]]) -> dict[str, float]:
    res: dict[str, float] = {}
    for name, images in sets.items():
        kinds = ((0, "honeybee"),) if name == "hive" else ((0, "honeybee"), (1, "hornet"))
        for k, label in kinds:
            res[f"{name}_ap50_{label}"] = refined_ap(images, None, k)
    return res


def score(m: dict[str, float]) -> float:
    vals = [m.get("hive_ap50_honeybee", 0.0), m.get("bh_ap50_hornet", 0.0), m.get("bh_ap50_honeybee", 0.0)]
    return float(np.mean([0.0 if v != v else v for v in vals]))


class ExportNet(nn.Module):
    def __init__(self, net: RefinerNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return self.net(crops)


def export(net: RefinerNet, path: Path) -> None:
    model = ExportNet(fold_bn(net)).eval()
    x = torch.rand(4, 3, SIZE, SIZE)
    with torch.no_grad():
        ref = ExportNet(net.eval())(x).numpy()
    torch.onnx.export(model, (x,), str(path), input_names=["crops"], output_names=["boxes"], opset_version=17,
                      dynamo=False, dynamic_axes={"crops": {0: "n"}, "boxes": {0: "n"}})
    check_export(path, x, ref)


def write_card_section(card_path: Path, onnx_name: str, ckpt: dict[str, Any], base: dict[str, float],
                       crop: str, classes: list[str]) -> None:
    """Described inside the detector's card: the engine loads detector, refiner and classifier as one model."""
    card = json.loads(card_path.read_text())
    # Which classes it redraws is chosen through `hivesight eval` after training; keep that choice's note.
    kept = {k: v for k, v in card.get("box_refiner", {}).items() if k == "classes_selection"}
    r4 = lambda v: None if v != v else round(v, 4)  # noqa: E731
    card["box_refiner"] = {
        "file": onnx_name,
        "classes": classes,
        "input": {"name": "crops", "size": SIZE, "context": CONTEXT, "crop": crop, "channels": "RGB"},
        "normalization": {"scale": 1 / 255, "mean": [0, 0, 0], "std": [1, 1, 1]},
        "output": {"name": "boxes"},
        "max_crops": 256,
        "metrics": {"refined": {k: r4(v) for k, v in ckpt["val"].items()},
                    "as_detected": {k: r4(v) for k, v in base.items()},
                    "note": "training-side: the detector's own detections on hive-entrance val and bees-hornets "
                            "valid (honeybee channels summed, NMS 0.5), AP50 before and after refinement"},
        "training": {"command": ckpt["command"], "epochs": ckpt["epoch"] + 1,
                     "train_time_s": round(ckpt["train_time_s"]), "date": time.strftime("%Y-%m-%d", time.gmtime()),
                     "hardware": "CPU, 2 cores (shared)"},
        **kept,
    }
    card_path.write_text(json.dumps(card, indent=2, allow_nan=False) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap_ = common_args("refiner", "refiner", 40)
    ap_.add_argument("--classes", default="hornet", help="comma-separated detector classes whose boxes the engine redraws")
    ap_.add_argument("--jitter", choices=("same", "wide"), default="same",
                     help="box disturbance per source (refiner_data.JITTER)")
    ap_.add_argument("--crop", choices=CROPS, default="box", help="how the crop is cut around a box (refiner_data.CROPS)")
    a = ap_.parse_args(argv)
    command = start("refiner", a, argv)

    hive_train, hive_val = hive_split(a.data)
    bh_train, bh_val = load_bh(a.data, "train"), load_bh(a.data, "valid")
    if a.smoke:
        hive_train, hive_val, bh_train, bh_val = hive_train[:3], hive_val[:2], bh_train[:8], bh_val[:4]
    t0 = time.time()
    detector = onnx_infer(str(a.card.parent / json.loads(a.card.read_text())["file"]))
    items = items_from(load_hive(a.data, hive_train)) + items_from(bh_train)
    sets = {"hive": val_images(load_hive(a.data, hive_val), detector, a.crop),
            "bh": val_images(bh_val, detector, a.crop)}
    base = baseline(sets)
    print(f"loaded in {time.time() - t0:.0f}s: {len(items)} training boxes, val detections " +
          ", ".join(f"{k}={sum(len(im.boxes) for im in v)}" for k, v in sets.items()) +
          "; as detected: " + " ".join(f"{k}={v:.4f}" for k, v in base.items()), flush=True)

    net = RefinerNet()
    weights = loss_weights(a.crop)
    ckpt = fit(net, CropDataset(items, a.per_epoch, a.seed, a.crop, a.jitter), a, command,
               lambda out, y: (nn.functional.smooth_l1_loss(out, y, beta=0.02, reduction="none") * weights).sum(1).mean(),
               lambda: evaluate(net, sets, a.crop), score)
    onnx_path = a.card.parent / f"{NAME}.onnx"
    export(net, onnx_path)
    write_card_section(a.card, onnx_path.name, ckpt, base, a.crop, a.classes.split(","))
    print(f"best epoch {ckpt['epoch']}: {ckpt['val']}; wrote {onnx_path} and {a.card}")


if __name__ == "__main__":
    main()
