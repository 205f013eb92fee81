"""Crops for the bee-type classifier (see beetype.py), made the way the engine makes them.

Training crops: a bee's box from the hive-entrance training frames or a pollen crop, the source
scaled to a detector-like scale (mostly the deployment one, sometimes far from it), the box
jittered like a detector's, colour and compression noise, then `sample_square` and the eight
flips / quarter turns (a camera above the landing board sees bees in every orientation).
Validation crops: ground-truth boxes on frames resized exactly to the engine's decode size.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from .data import CROPS, HIVE, Sample, _photometric, load_crops, load_hive, load_image, read_yolo

TYPES = ("bee", "pollen", "drone", "none")
NONE = 3  # not a honeybee: where the detector fired on wood, shadows, bee parts
NEG = "negatives"
DET = "detected"  # the shipped detector's own honeybee boxes, typed by the label they match
DET_IOU = 0.5
NEG_IOU = 0.3  # a detection overlapping no labelled insect by this much is a false positive
SIZE = 48
CONTEXT = 1.5
# Detector-scale px per cached px: hive frames are cached at 1920x540 and crops are cut as the
# engine saw them at 960x256; pollen crops are seen at about their own size. Since 0.5.1 the engine
# sees hive frames at 1152x320 (evaluate.NOMINAL), but the shipped classifier was trained for 960:
# retrained for 1152 (0.6, and validated at 1152x320) it gave hive pollen AP50 0.71 (0.77) and
# held-out crop accuracy 0.938 (0.965) through `hivesight eval`, so 960 stays.
DEPLOY = {HIVE: 0.5, CROPS: 1.0, NEG: 0.5, DET: 0.5}


def sample_square(a: np.ndarray, cx: float, cy: float, side: float, size: int = SIZE) -> np.ndarray:
    """`size` x `size` bilinear samples of the square of `side` px centred on (cx, cy); edges clamped.

    Sample i sits at the centre of the i-th of `size` equal steps across the square (pixel centres
    at integer + 0.5), exactly as the engine's sampler does. Returns float32 HxWx3 in 0..255.
    """
    return sample_rect(a, cx, cy, side, side, size)


def sample_rect(a: np.ndarray, cx: float, cy: float, side_x: float, side_y: float, size: int) -> np.ndarray:
    """`sample_square` of a `side_x` x `side_y` rectangle, stretched to `size` x `size`."""
    h, w = a.shape[:2]
    unit = (np.arange(size, dtype=np.float64) + 0.5) / size
    xs = np.clip(cx - side_x / 2 + unit * side_x - 0.5, 0, w - 1)
    ys = np.clip(cy - side_y / 2 + unit * side_y - 0.5, 0, h - 1)
    x0, y0 = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    fx = (xs - x0).astype(np.float32)[None, :, None]
    fy = (ys - y0).astype(np.float32)[:, None, None]
    f = a.astype(np.float32)
    top = f[y0][:, x0] * (1 - fx) + f[y0][:, x1] * fx
    bot = f[y1][:, x0] * (1 - fx) + f[y1][:, x1] * fx
    return top * (1 - fy) + bot * fy


def crop_side(box_w: float, box_h: float) -> float:
    return CONTEXT * max(box_w, box_h)


@dataclass
class Item:
    image: Image.Image
    box: np.ndarray  # x1, y1, x2, y2 in cached px
    cls: int
    source: str


def hive_items(samples: list[Sample]) -> list[Item]:
    return [Item(s.image, s.boxes[i] * s.scale, int(s.subtype[i]), HIVE)
            for s in samples if s.image is not None for i in range(len(s.boxes))]


def crop_split_samples(samples: list[Sample]) -> list[Item]:
    return [Item(s.image, s.boxes[0], int(s.subtype[0]), CROPS) for s in samples if s.image is not None]


def _rel_scale(source: str, rng: random.Random) -> float:
    if source in (HIVE, NEG, DET):  # bees ~30 px at deployment; also 18-90 px for other cameras
        return float(np.exp(rng.uniform(-0.3, 0.3))) if rng.random() < 0.7 else float(np.exp(rng.uniform(np.log(0.6), np.log(3.0))))
    # pollen crops: ~300 px tall as eval feeds them; down to ~35 px to look like hive footage
    return float(np.exp(rng.uniform(-0.15, 0.15))) if rng.random() < 0.5 else float(np.exp(rng.uniform(np.log(0.12), np.log(1.0))))


def make_crop(it: Item, rng: random.Random, detail: int = 1) -> np.ndarray:
    """A training crop; with `detail` d > 1, cut at d x SIZE samples from the source at up to d x the
    detector's scale (the engine's detail frame), never finer than the source itself."""
    # cached px -> sampled px, never above 1: hive frames are cached at half resolution, so their
    # detail crops stop at the cache's own pixels; pollen crops are cached whole.
    t = min(DEPLOY[it.source] * _rel_scale(it.source, rng) * detail, 1.0)
    x1, y1, x2, y2 = (float(v) for v in it.box)
    bw, bh = x2 - x1, y2 - y1
    # A detector's box: centre off by ~8% of the size, size off by ~12%, aspect by ~8%; a box the
    # detector really drew is jittered half as much (it already has a detector's errors).
    j = 0.5 if it.source == DET else 1.0
    cx = (x1 + x2) / 2 + rng.gauss(0, 0.08 * j) * bw
    cy = (y1 + y2) / 2 + rng.gauss(0, 0.08 * j) * bh
    s, ar = float(np.exp(rng.gauss(0, 0.12 * j))), float(np.exp(rng.gauss(0, 0.08 * j)))
    side = crop_side(bw * s * ar, bh * s / ar)
    half = side * 0.6 + 4 / t
    iw, ih = it.image.size
    rx0, ry0 = max(0, int(cx - half)), max(0, int(cy - half))
    rx1, ry1 = min(iw, int(np.ceil(cx + half))), min(ih, int(np.ceil(cy + half)))
    region = it.image.crop((rx0, ry0, rx1, ry1))
    w, h = max(1, round((rx1 - rx0) * t)), max(1, round((ry1 - ry0) * t))
    region = _photometric(region.resize((w, h), Image.Resampling.BILINEAR), rng)
    tx, ty = w / (rx1 - rx0), h / (ry1 - ry0)
    a = sample_square(np.asarray(region), (cx - rx0) * tx, (cy - ry0) * ty, side * (tx + ty) / 2, SIZE * detail)
    if rng.random() < 0.5:
        a = a[:, ::-1]
    if rng.random() < 0.5:
        a = a[::-1]
    if rng.random() < 0.5:
        a = a.transpose(1, 0, 2)
    return np.ascontiguousarray(a.transpose(2, 0, 1))


# Share of draws from each source. Within the hive clip, kinds are drawn with weight n^-0.5 (rare
# pollen and drones more often than their share, not as often as workers); within the pollen
# crops every crop is equally likely, so their own half-and-half prior is kept. (Weighting all
# pollen together let the crops' pollen dominate the pollen draws while their workers were lost
# among the hive's: the classifier learnt that a close-up bee is a pollen bee.)
# With --negatives, false positives of the shipped detector on the hive training frames teach a
# "none" class; without them the shares renormalise to 75% hive, 25% crops (what 0.5.0 used).
# With --detected, the hive's share is split evenly between labelled boxes and the detector's.
SOURCE_SHARE = {HIVE: 0.6, CROPS: 0.2, NEG: 0.2}


def source_share(items: list[Item]) -> dict[str, float]:
    if not any(it.source == DET for it in items):
        return SOURCE_SHARE
    return {**SOURCE_SHARE, HIVE: SOURCE_SHARE[HIVE] / 2, DET: SOURCE_SHARE[HIVE] / 2}


class CropDataset:
    """`length` crops per epoch drawn as SOURCE_SHARE says, reproducible from (seed, epoch, index)."""

    def __init__(self, items: list[Item], length: int, seed: int, detail: int = 1) -> None:
        self.items, self.length, self.seed, self.epoch, self.detail = items, length, seed, 0, detail
        w = np.zeros(len(items))
        for source, share in source_share(items).items():
            idx = [i for i, it in enumerate(items) if it.source == source]
            if not idx:
                continue
            if source in (HIVE, DET):
                counts = np.bincount([items[i].cls for i in idx], minlength=len(TYPES)).astype(np.float64)
                sw = np.array([counts[items[i].cls] ** -0.5 for i in idx])
            else:
                sw = np.ones(len(idx))
            w[idx] = share * sw / sw.sum()
        self.cum = np.cumsum(w / w.sum())

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> tuple[np.ndarray, int]:
        rng = random.Random((self.seed * 1000 + self.epoch) * 1_000_003 + i)
        k = min(int(np.searchsorted(self.cum, rng.random())), len(self.items) - 1)
        it = self.items[k]
        return make_crop(it, rng, self.detail).astype(np.float32), it.cls


def mine_negatives(samples: list[Sample], detector_onnx: Path, min_score: float = 0.05) -> list[tuple[Sample, np.ndarray]]:
    """Honeybee detections of the shipped detector (fed like the engine) that overlap no labelled
    box by NEG_IOU: (sample, boxes in original px)."""
    from .evaluate import iou_one, onnx_infer, predict
    infer = onnx_infer(str(detector_onnx))
    out = []
    for s in samples:
        pred, _ = predict(infer, s)
        keep = (pred.cls <= 2) & (pred.scores >= min_score)
        boxes = [b for b in pred.boxes[keep]
                 if len(s.boxes) == 0 or float(iou_one(b, s.boxes).max()) < NEG_IOU]
        out.append((s, np.array(boxes, np.float32).reshape(-1, 4)))
    return out


def negative_items(mined: list[tuple[Sample, np.ndarray]]) -> list[Item]:
    return [Item(s.image, b * s.scale, NONE, NEG) for s, boxes in mined if s.image is not None for b in boxes]


def mine_matched(samples: list[Sample], detector_onnx: Path,
                 min_score: float = 0.1) -> list[tuple[Sample, np.ndarray, np.ndarray]]:
    """Honeybee detections of the shipped detector (fed like the engine) that match a labelled box
    at DET_IOU: (sample, boxes in original px, the matched labels' subtypes)."""
    from .evaluate import iou_one, onnx_infer, predict
    infer = onnx_infer(str(detector_onnx))
    out = []
    for s in samples:
        boxes, types = [], []
        if len(s.boxes):  # a frame without labels has nothing to match: skip its inference
            pred, _ = predict(infer, s)
            for b in pred.boxes[(pred.cls <= 2) & (pred.scores >= min_score)]:
                ious = iou_one(b, s.boxes)
                j = int(ious.argmax())
                if ious[j] >= DET_IOU:
                    boxes.append(b)
                    types.append(int(s.subtype[j]))
        out.append((s, np.array(boxes, np.float32).reshape(-1, 4), np.array(types, np.int64)))
    return out


def detected_items(mined: list[tuple[Sample, np.ndarray, np.ndarray]]) -> list[Item]:
    return [Item(s.image, b * s.scale, int(t), DET) for s, boxes, types in mined if s.image is not None
            for b, t in zip(boxes, types)]


def detected_val_set(data: Path, hive_names: list[str], detector_onnx: Path,
                     detail: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the detector's matched boxes on the validation frames: what the product types."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    mined = {s.path.name: (b, t) for s, b, t in mine_matched(load_hive(data, hive_names), detector_onnx)}
    for n in hive_names:
        boxes, types = mined.get(n, (np.zeros((0, 4), np.float32), np.zeros(0, np.int64)))
        if len(boxes) == 0:
            continue
        xs += _val_crops(load_image(data / HIVE / "images" / n, 1.0), boxes, detail)
        ys += [int(t) for t in types]
    if not xs:  # a detector that finds nothing (the smoke test's)
        return np.zeros((0, 3, SIZE * detail, SIZE * detail), np.float32), np.zeros(0, np.int64)
    return np.stack(xs).astype(np.float32), np.array(ys)


def engine_size(w: int, h: int, max_w: int = 960, max_h: int = 544, stride: int = 32) -> tuple[int, int]:
    """The engine's decode size for a source (Detector.inputSizeFor, dynamic model, no upscaling)."""
    scale = min(1.0, max_w / w, max_h / h)

    def side(src: int, mx: int) -> int:
        return min(mx, max(stride, round(src * scale / stride) * stride))
    return side(w, max_w), side(h, max_h)


def _val_crops(im: Image.Image, boxes: np.ndarray, detail: int = 1) -> list[np.ndarray]:
    w, h = engine_size(*im.size)
    w, h = min(im.width, w * detail), min(im.height, h * detail)
    sx, sy = w / im.width, h / im.height
    a = np.asarray(im.resize((w, h), Image.Resampling.BILINEAR))
    out = []
    for x1, y1, x2, y2 in boxes:
        side = crop_side((x2 - x1) * sx, (y2 - y1) * sy)
        out.append(sample_square(a, (x1 + x2) / 2 * sx, (y1 + y2) / 2 * sy, side, SIZE * detail).transpose(2, 0, 1))
    return out


def val_sets(data: Path, hive_names: list[str], crop_files: list[Path],
             detector_onnx: Path | None = None, detail: int = 1) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    mined = dict((s.path.name, b) for s, b in mine_negatives(load_hive(data, hive_names), detector_onnx)) \
        if detector_onnx is not None else {}
    for n in hive_names:
        im = load_image(data / HIVE / "images" / n, 1.0)
        boxes, cls = read_yolo(data / HIVE / "labels" / (Path(n).stem + ".txt"), im.width, im.height)
        neg = mined.get(n, np.zeros((0, 4), np.float32))
        xs += _val_crops(im, np.concatenate([boxes, neg]), detail)
        ys += [int(c) for c in cls] + [NONE] * len(neg)
    cx: list[np.ndarray] = []
    cy: list[int] = []
    for s in load_crops(crop_files):
        assert s.image is not None
        cx += _val_crops(s.image, s.boxes, detail)
        cy.append(int(s.subtype[0]))
    return {"hive": (np.stack(xs).astype(np.float32), np.array(ys)),
            "crops": (np.stack(cx).astype(np.float32), np.array(cy))}


__all__ = ["TYPES", "NONE", "mine_negatives", "negative_items", "mine_matched", "detected_items", "detected_val_set", "SIZE", "CONTEXT", "Item", "CropDataset", "hive_items", "crop_split_samples", "val_sets",
           "sample_square", "sample_rect", "engine_size", "load_hive"]
