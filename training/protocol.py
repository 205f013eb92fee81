"""Thresholds chosen away from the validation frames, then every figure through the product.

1. Thresholds, from the exported ONNX on training data only, of the cameras it trained on
   (training.json's `excluded`: a camera left out is never looked at here):
   - the honeybee score: the one whose count error is lowest on the shifted views of the hive
     *training* frames (`shifted_view.py --split train`) and the backyard *training* frames;
   - the hornet score: best hornet F1 on the bees-hornets *training* photos, raised until those
     camera frames show at most 1 false hornet per 100 frames;
   - the alert score: the lowest score at or above it that no camera training frame reaches.
   Every training frame is decoded as the product decodes it: at the card's auto-zoom
   (`card.AUTO_ZOOM`), judged on the honeybees at a first choice of the score, then the score is
   chosen again.
2. Figures, through `hivesight eval --json` (the product's decode and detector) on: protocol (c),
   the shifted hive validation views; backyard-entrance valid (the second camera's original
   frames); bees-hornets valid; the held-out pollen crops; the plain hive validation frames
   (looked at once, to confirm); and false hornets on both cameras' held-out frames.

Leave one camera out (protocol (a)): train with `--exclude hive-entrance` or `--exclude
backyard-entrance`, then run this on that export: its thresholds come from the other camera, and
`held_out_camera` in the figures names the camera the network never saw.

    python -m training.protocol --export training/runs/lite-export --version 1.0.0 [--out models/]

Leave one site out, where corrections exports hold two or more sites: train with
`--extra DIR --leave-out-site SITE`, then add `--extra DIR --site SITE` here to score that
site's frames, which the network never saw.

Writes the card (training/card.py) with these thresholds and figures into --out (default: the
export folder).
"""
from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from . import card as card_mod
from .data import BACKYARD, BH, HIVE, extra_frames, read_yolo
from .evaluate import letterbox, letterbox_scale, onnx_infer, postprocess
from .make_eval_view import build as build_hive_val, build_crops
from .shifted_view import build as build_shifted

ROOT = Path(__file__).resolve().parent.parent
HORNET = 3
MAX_FALSE_HORNETS_PER_FRAME = 0.01


def zoom_for(boxes: np.ndarray, sc: np.ndarray, cls: np.ndarray, score: float, auto_zoom: dict[str, float]) -> float:
    """The engine's auto-zoom (engine/detection/zoom.ts) for one picture's first pass: boxes in
    input pixels; 1 where too few honeybees pass `score` or their size is within tolerance."""
    keep = (cls < HORNET) & (sc >= score)
    if int(keep.sum()) < auto_zoom["min_insects"]:
        return 1.0
    b = boxes[keep]
    size = float(np.quantile(np.sqrt((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])), auto_zoom["quantile"]))
    if size <= 0:
        return 1.0
    zoom = auto_zoom["insect_px"] / size
    if 1 / auto_zoom["tolerance"] <= zoom <= auto_zoom["tolerance"]:
        return 1.0
    return min(auto_zoom["max"], max(auto_zoom["min"], zoom))


def predict_folder(infer, folder: Path, max_upscale: float = 1.0, auto_zoom: dict[str, float] | None = None,
                   score: float = 0.3) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """(scores, classes, gt classes, gt boxes) per image of a YOLO folder, at a low floor; with
    `auto_zoom` (the card's), each picture decoded again at the zoom its honeybees at `score` ask
    for, as the product does."""
    out = []
    for path in sorted((folder / "images").glob("*.jpg")):
        im = Image.open(path).convert("RGB")

        def run(zoom: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            a, _ = letterbox(im, max_upscale, zoom)
            x = np.ascontiguousarray(a.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
            return postprocess(infer(x)[0], min_score=0.02)

        boxes, sc, cls = run(1.0)
        zoom = zoom_for(boxes, sc, cls, score, auto_zoom) if auto_zoom else 1.0
        # As the engine: a zoom the input cannot show (a small picture at max_upscale) is not run again.
        if letterbox_scale(im.width, im.height, max_upscale, zoom) != letterbox_scale(im.width, im.height, max_upscale):
            _, sc, cls = run(zoom)
        gb, gc = read_yolo(folder / "labels" / (path.stem + ".txt"), im.width, im.height)
        out.append((sc, cls, gc, gb))
    return out


def honeybee_threshold(preds: list, grid: np.ndarray) -> tuple[float, float]:
    """The score with the lowest count error (summed |predicted - labelled| / labelled)."""
    gt = np.array([len(g) for _, _, g, _ in preds])
    best = (1e9, 0.0)
    for t in grid:
        pc = np.array([int(((cls < HORNET) & (sc >= t)).sum()) for sc, cls, _, _ in preds])
        err = float(np.abs(pc - gt).sum() / max(gt.sum(), 1))
        best = min(best, (err, float(t)))
    return best[1], best[0]


def hornet_f1_threshold(preds: list, grid: np.ndarray) -> float:
    """Best image-level-free F1 proxy: matched by count per image (hornet photos hold few)."""
    best = (-1.0, 0.5)
    for t in grid:
        tp = fp = fn = 0
        for sc, cls, gc, _ in preds:
            n_pred = int(((cls == HORNET) & (sc >= t)).sum())
            n_gt = int((gc == 1).sum())
            tp += min(n_pred, n_gt)
            fp += max(0, n_pred - n_gt)
            fn += max(0, n_gt - n_pred)
        f1 = 2 * tp / max(2 * tp + fp + fn, 1)
        best = max(best, (f1, float(t)))
    return best[1]


def false_hornets(preds: list, t: float) -> int:
    return sum(int(((cls == HORNET) & (sc >= t)).sum()) for sc, cls, _, _ in preds)


def choose_thresholds(onnx: Path, data: Path, views: Path, max_upscale: float = 1.0,
                      excluded: tuple[str, ...] = (), auto_zoom: dict[str, float] | None = None) -> dict[str, float]:
    infer = onnx_infer(str(onnx))
    grid = np.round(np.arange(0.1, 0.71, 0.025), 3)
    folders: list[Path] = []
    if HIVE not in excluded:
        train_views = views / "hive-shifted-train"
        if not train_views.exists():
            build_shifted(data, train_views, split="train", views=1)
        folders.append(train_views)
    if BACKYARD not in excluded:
        folders.append(data / BACKYARD / "train")
    if not folders:
        raise SystemExit("the export trained on no entrance camera: no training frames to choose thresholds on")

    def camera_frames(zoom_card: dict[str, float] | None, at: float) -> list:
        return [p for f in folders for p in predict_folder(infer, f, max_upscale, zoom_card, at)]

    hive = camera_frames(None, 0.0)
    score, err = honeybee_threshold(hive, grid)
    if auto_zoom:
        # The product zooms by the honeybees found at the card's score: choose it again on the
        # frames decoded as the product decodes them at the first choice.
        hive = camera_frames(auto_zoom, score)
        score, err = honeybee_threshold(hive, grid)
    bh = predict_folder(infer, data / BH / "train", max_upscale, auto_zoom, score)
    hornet = hornet_f1_threshold(bh, grid)
    while hornet < 0.95 and false_hornets(hive, hornet) > MAX_FALSE_HORNETS_PER_FRAME * len(hive):
        hornet = round(hornet + 0.025, 3)
    alert = hornet
    while alert < 0.95 and false_hornets(hive, alert) > 0:
        alert = round(alert + 0.025, 3)
    print(f"thresholds: honeybee {score} (training views' count error {100 * err:.1f} %), hornet {hornet}, "
          f"alert {alert} ({false_hornets(hive, hornet)} false hornets on {len(hive)} training views)")
    return {"score": score, "hornet": hornet, "alert": alert}


def product_eval(card: Path, dataset: Path) -> dict[str, Any]:
    out = subprocess.run(["node", str(ROOT / "bin/hivesight.mjs"), "eval", str(dataset), "--json", "--model", str(card)],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(f"hivesight eval {dataset} failed: {out.stderr}")
    report = json.loads(out.stdout)
    keep = {"images", "count_error_pct", "accuracy"}
    return {k: v for k, v in report.items() if k in keep} | {
        "classes": {c: {k: round(v, 4) for k, v in m.items() if isinstance(v, (int, float))} for c, m in report["classes"].items()}}


def hornets_on_frames(card: Path, folder: Path) -> dict[str, Any]:
    """Hornets the product reports on hive frames (none are there), per 100 frames."""
    images = sorted(str(p) for p in (folder / "images").glob("*.jpg"))
    out = subprocess.run(["node", str(ROOT / "bin/hivesight.mjs"), "analyze", *images, "--json", "--model", str(card),
                          "--out", str(ROOT / "tmp/protocol-analyze")], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(f"hivesight analyze failed: {out.stderr}")
    files = json.loads(out.stdout)["results"]
    n = sum(int((f.get("counts") or {}).get("hornet") or 0) for f in files)
    return {"frames": len(images), "hornets": n, "per_100_frames": round(100 * n / max(len(images), 1), 2)}


def site_view(folder: Path, site: str, dest: Path) -> Path:
    """One site's frames of an extra dataset folder, linked into a YOLO folder for hivesight eval."""
    frames = [f for f in extra_frames(folder) if f.get("site") == site]
    if not frames:
        raise SystemExit(f"{folder} holds no frame of site {site}")
    for sub in ("images", "labels"):
        (dest / sub).mkdir(parents=True, exist_ok=True)
    for f in frames:
        for key in ("image", "label"):
            link = dest / f[key]
            if not link.exists():
                link.symlink_to((folder / f[key]).resolve())
    classes = dest / "classes.txt"
    if not classes.exists():
        classes.symlink_to((folder / "classes.txt").resolve())
    return dest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--export", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--views", type=Path, default=ROOT / "tmp/eval")
    ap.add_argument("--version", default="0.0.0-dev")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--onnx", default=f"{card_mod.NAME}.onnx",
                    help="the file in --export to card and judge (e.g. hivesight-detector.int8.onnx)")
    ap.add_argument("--max-upscale", type=float, default=1.0,
                    help="how far the engine may enlarge a small picture (card input.max_upscale); choose it on "
                         "training views: hivesight eval tmp/eval/hive-shifted-train with each value")
    ap.add_argument("--extra", type=Path, default=None, help="a corrections export holding --site")
    ap.add_argument("--site", default=None, help="score this held-out site's frames of --extra")
    a = ap.parse_args()
    if not a.data.exists():
        raise SystemExit(f"SKIP: {a.data} is absent; the protocol needs the datasets")
    onnx = a.export / a.onnx
    training = json.loads((a.export / "training.json").read_text()) if (a.export / "training.json").exists() else {}
    excluded = tuple(training.get("excluded") or ())
    thr = choose_thresholds(onnx, a.data, a.views, a.max_upscale, excluded, card_mod.AUTO_ZOOM)
    out = a.out or a.export
    draft = card_mod.build(a.export, a.version, thr["score"], thr["hornet"], {})
    draft["thresholds"]["alert"] = {"hornet": thr["alert"]}
    draft["input"]["max_upscale"] = a.max_upscale
    path = card_mod.write(onnx, out, draft)
    views = {"hive_val": a.views / "hive-entrance-val", "crops_val": a.views / "pollen-crops-val",
             "shifted_val": a.views / "hive-shifted"}
    if not views["hive_val"].exists():
        build_hive_val(a.data, views["hive_val"], None)
    if not views["crops_val"].exists():
        build_crops(a.data, views["crops_val"])
    if not views["shifted_val"].exists():
        build_shifted(a.data, views["shifted_val"], split="val", views=2)
    metrics: dict[str, Any] = {
        "shifted_val": product_eval(path, views["shifted_val"]),
        "bees_hornets_valid": product_eval(path, a.data / BH / "valid"),
        "pollen_crops_val": product_eval(path, views["crops_val"]),
        "hive_entrance_val": product_eval(path, views["hive_val"]),
        "backyard_entrance_valid": product_eval(path, a.data / BACKYARD / "valid"),
        "false_hornets_hive_val": hornets_on_frames(path, views["hive_val"]),
        "false_hornets_backyard_valid": hornets_on_frames(path, a.data / BACKYARD / "valid"),
        "held_out_camera": [c for c in (HIVE, BACKYARD) if c in excluded],
        "thresholds_chosen_on": "the training frames of the cameras trained on (shifted hive training views, "
                                "backyard train; honeybee score, false hornets) and the bees-hornets training "
                                "photos (hornet F1); never on a validation set",
        "command": "python -m training.protocol (hivesight eval --json on each set)",
    }
    if a.extra is not None and a.site is not None:
        view = site_view(a.extra, a.site, a.views / f"site-{a.site}")
        metrics[f"left_out_site_{a.site}"] = product_eval(path, view)
    draft["metrics"] = {"product_eval": metrics}
    card_mod.write(onnx, out, draft)
    print(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
