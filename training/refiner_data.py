"""Crops for the box refiner (see refiner.py), cut the way the engine cuts them.

Training: a labelled box (hive-entrance training frames, bees-hornets train), the source scaled to
the engine's scale (sometimes far from it), the box disturbed the way the detector's boxes are
disturbed, colour and compression noise, then `sample_square` around the *disturbed* box and the
eight flips / quarter turns. The target is the labelled box in the crop's own units, so it does
not depend on the disturbed box's aspect (the crop is a square of the longer side).

Validation: the shipped detector's own detections on hive-entrance val and bees-hornets valid,
fed like the engine, each cut from the frame the detector saw.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import Image

from .beetype_data import sample_rect
from .data import BH, HIVE, Sample, _photometric
from .evaluate import ap50, iou_one, letterbox, nms

SIZE = 64
CONTEXT = 2.0
# How the crop is cut around a box of w x h: "square", a square of CONTEXT x max(w, h) (the
# classifier's crop; the refiner must find the insect's extent from the picture alone), or "box",
# CONTEXT x w by CONTEXT x h stretched to a square (R-CNN's warp: the box is always the middle half
# of the crop, so "keep the box" is the answer 0 and the refiner learns corrections).
CROPS = ("square", "box")
# Cached px -> detector px: hive frames are cached at 1920x540 and the engine sees them at
# 1152x320 (evaluate.NOMINAL); 640 px bees-hornets photos were seen at 544 (x0.85) when the shipped
# refiner was trained and at 448 (x0.7) since 0.8.1 (the refiner sees a crop around the box, scaled to
# 64 px, so it is nearly blind to the frame's scale).
DEPLOY = {HIVE: 0.6, BH: 0.85}
# Measured on hive val, shipped detector 0.5.1 vs the labels (matched at IoU >= 0.2): centre off by
# 0.13 / 0.11 of the size (sd), log-size by 0.21; bees-hornets 0.15-0.19 and 0.27-0.31. Draw a
# little wider, with a heavier tail, so the refiner has seen every error it will be asked to fix.
# --jitter wide draws bees-hornets boxes with its own, larger spread (centre 0.18, log-size 0.30).
JITTER = {"same": {HIVE: (0.14, 0.22), BH: (0.14, 0.22)}, "wide": {HIVE: (0.14, 0.22), BH: (0.18, 0.30)}}
TAIL_P, TAIL_X = 0.25, 2.0


@dataclass
class Item:
    image: Image.Image
    box: np.ndarray  # x1, y1, x2, y2 in cached px
    kind: int  # 0 honeybee, 1 hornet (for the draw weights only)
    source: str


def items_from(samples: list[Sample]) -> list[Item]:
    return [Item(s.image, s.boxes[i] * s.scale, int(s.heat_cls[i]), s.source)
            for s in samples if s.image is not None for i in range(len(s.boxes))]


def crop_sides(w: float | np.ndarray, h: float | np.ndarray, crop: str) -> tuple:  # type: ignore[type-arg]
    """Crop extent (x, y) around a w x h box."""
    if crop == "box":
        return CONTEXT * w, CONTEXT * h
    side = CONTEXT * np.maximum(w, h)
    return side, side


def units(w: float | np.ndarray, h: float | np.ndarray, crop: str) -> tuple:  # type: ignore[type-arg]
    """What the refiner's answers are measured in for a w x h box: its sides (box crops) or the
    crop's side (square crops)."""
    return (w, h) if crop == "box" else crop_sides(w, h, crop)


def encode_target(g: np.ndarray, b: np.ndarray, crop: str) -> np.ndarray:
    """Labelled box g for the crop around box b (both xyxy) -> (dx, dy, log w, log h) in `units`,
    from b's centre."""
    ux, uy = units(b[2] - b[0], b[3] - b[1], crop)
    gw, gh = g[2] - g[0], g[3] - g[1]
    return np.array([((g[0] + g[2]) - (b[0] + b[2])) / 2 / ux, ((g[1] + g[3]) - (b[1] + b[3])) / 2 / uy,
                     np.log(max(gw, 1e-3) / ux), np.log(max(gh, 1e-3) / uy)], np.float32)


def decode_boxes(boxes: np.ndarray, out: np.ndarray, crop: str) -> np.ndarray:
    """Refiner output [N, 4] for input boxes xyxy -> refined boxes xyxy (the engine's arithmetic)."""
    ux, uy = units(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1], crop)
    cx = (boxes[:, 0] + boxes[:, 2]) / 2 + out[:, 0] * ux
    cy = (boxes[:, 1] + boxes[:, 3]) / 2 + out[:, 1] * uy
    w, h = ux * np.exp(out[:, 2]), uy * np.exp(out[:, 3])
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)


def _rel_scale(source: str, rng: random.Random) -> float:
    if rng.random() < 0.7:
        return float(np.exp(rng.uniform(-0.3, 0.3)))
    return float(np.exp(rng.uniform(np.log(0.5), np.log(2.5 if source == HIVE else 1.2))))


def make_crop(it: Item, rng: random.Random, crop: str, jitter: str = "same") -> tuple[np.ndarray, np.ndarray]:
    t = DEPLOY[it.source] * _rel_scale(it.source, rng)  # cached px -> detector px
    centre_sd, logsize_sd = JITTER[jitter][it.source]
    g = it.box.astype(np.float64)
    gw, gh = g[2] - g[0], g[3] - g[1]
    k = TAIL_X if rng.random() < TAIL_P else 1.0
    cx = (g[0] + g[2]) / 2 + rng.gauss(0, centre_sd * k) * gw
    cy = (g[1] + g[3]) / 2 + rng.gauss(0, centre_sd * k) * gh
    pw, ph = gw * float(np.exp(rng.gauss(0, logsize_sd * k))), gh * float(np.exp(rng.gauss(0, logsize_sd * k)))
    target = encode_target(g, np.array([cx - pw / 2, cy - ph / 2, cx + pw / 2, cy + ph / 2]), crop)
    sx, sy = crop_sides(pw, ph, crop)
    hx, hy = sx * 0.6 + 4 / t, sy * 0.6 + 4 / t
    iw, ih = it.image.size
    rx0, ry0 = max(0, int(cx - hx)), max(0, int(cy - hy))
    rx1, ry1 = min(iw, int(np.ceil(cx + hx))), min(ih, int(np.ceil(cy + hy)))
    if rx1 - rx0 < 2 or ry1 - ry0 < 2:  # disturbed off the image: a crop of the nearest edge
        rx0, ry0, rx1, ry1 = max(0, min(rx0, iw - 2)), max(0, min(ry0, ih - 2)), iw, ih
    region = it.image.crop((rx0, ry0, rx1, ry1))
    w, h = max(2, round((rx1 - rx0) * t)), max(2, round((ry1 - ry0) * t))
    region = _photometric(region.resize((w, h), Image.Resampling.BILINEAR), rng)
    tx, ty = w / (rx1 - rx0), h / (ry1 - ry0)
    a = sample_rect(np.asarray(region), (cx - rx0) * tx, (cy - ry0) * ty, sx * tx, sy * ty, SIZE)
    if rng.random() < 0.5:
        a, target[0] = a[:, ::-1], -target[0]
    if rng.random() < 0.5:
        a, target[1] = a[::-1], -target[1]
    if rng.random() < 0.5:
        a, target = a.transpose(1, 0, 2), target[[1, 0, 3, 2]]
    return np.ascontiguousarray(a.transpose(2, 0, 1)), target


# 30% of draws from the hive clip, 70% from bees-hornets (where the boxes gain most); within a
# source, hornets and honeybees weighted n^-0.5.
SOURCE_SHARE = {HIVE: 0.3, BH: 0.7}


class CropDataset:
    """`length` crops per epoch, reproducible from (seed, epoch, index)."""

    def __init__(self, items: list[Item], length: int, seed: int, crop: str, jitter: str = "same") -> None:
        self.items, self.length, self.seed, self.epoch, self.crop, self.jitter = items, length, seed, 0, crop, jitter
        w = np.zeros(len(items))
        for source, share in SOURCE_SHARE.items():
            idx = [i for i, it in enumerate(items) if it.source == source]
            if not idx:
                continue
            counts = np.bincount([items[i].kind for i in idx], minlength=2).astype(np.float64)
            sw = np.array([counts[items[i].kind] ** -0.5 for i in idx])
            w[idx] = share * sw / sw.sum()
        self.cum = np.cumsum(w / w.sum())

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        rng = random.Random((self.seed * 1000 + self.epoch) * 1_000_003 + i)
        k = min(int(np.searchsorted(self.cum, rng.random())), len(self.items) - 1)
        x, y = make_crop(self.items[k], rng, self.crop, self.jitter)
        return x.astype(np.float32), y


@dataclass
class ValImage:
    gt: np.ndarray  # labelled boxes, original px
    gt_kind: np.ndarray  # 0 honeybee, 1 hornet
    boxes: np.ndarray  # detections, original px
    scores: np.ndarray
    kind: np.ndarray
    crops: np.ndarray  # [N, 3, SIZE, SIZE] uint8, cut from the letterboxed input
    ratio: float  # original px -> input px


def detect_engine_like(det: np.ndarray, min_score: float = 0.05, top: int = 150) -> tuple[np.ndarray, ...]:
    """[4 + 4, N] -> per kind (honeybee = bee + pollen + drone, hornet) boxes after NMS 0.5, as the
    engine decodes the detector when a subtype classifier merges the honeybee channels."""
    cx, cy, w, h = det[0], det[1], det[2], det[3]
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    out_b, out_s, out_k = [], [], []
    for kind, sc in ((0, det[4:7].sum(0)), (1, det[7])):
        idx = np.where(sc >= min_score)[0]
        idx = idx[np.argsort(-sc[idx])][:top]
        keep = idx[nms(xyxy[idx], sc[idx])]
        out_b.append(xyxy[keep]); out_s.append(sc[keep]); out_k.append(np.full(len(keep), kind))
    return np.concatenate(out_b), np.concatenate(out_s), np.concatenate(out_k)


def val_images(samples: list[Sample], infer, crop: str) -> list[ValImage]:  # type: ignore[no-untyped-def]
    out = []
    for s in samples:
        assert s.image is not None
        a, r = letterbox(s.image)
        x = np.ascontiguousarray(a.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        b, sc, kind = detect_engine_like(infer(x)[0])
        ratio = r * s.scale
        crops = np.zeros((len(b), 3, SIZE, SIZE), np.uint8)
        for n, (x1, y1, x2, y2) in enumerate(b):
            sx, sy = crop_sides(x2 - x1, y2 - y1, crop)
            crops[n] = sample_rect(a, (x1 + x2) / 2, (y1 + y2) / 2, sx, sy, SIZE).round().clip(0, 255) \
                .astype(np.uint8).transpose(2, 0, 1)
        out.append(ValImage(s.boxes, s.heat_cls, b / ratio, sc, kind, crops, ratio))
    return out


def refined_ap(images: list[ValImage], refined: list[np.ndarray] | None, kind: int) -> float:
    """AP50 of one kind with the detections' boxes replaced by `refined` (None: as detected),
    NMS 0.5 again afterwards (refined duplicates of one insect collapse onto it)."""
    preds, gts = [], []
    for n, im in enumerate(images):
        m = im.kind == kind
        b = (refined[n] if refined is not None else im.boxes)[m]
        s = im.scores[m]
        keep = nms(b, s) if len(b) else np.zeros(0, np.int64)
        preds.append((b[keep], s[keep]))
        gts.append(im.gt[im.gt_kind == kind])
    return ap50(preds, gts)[0]


def mean_iou_gain(images: list[ValImage], refined: list[np.ndarray]) -> float:
    gain, n = 0.0, 0
    for im, rb in zip(images, refined):
        for b, r, k in zip(im.boxes, rb, im.kind):
            g = im.gt[im.gt_kind == k]
            if not len(g):
                continue
            before = iou_one(b, g)
            j = int(before.argmax())
            if before[j] < 0.3:
                continue
            gain += float(iou_one(r, g[j:j + 1])[0] - before[j])
            n += 1
    return gain / max(n, 1)


__all__ = ["SIZE", "CONTEXT", "CROPS", "crop_sides", "Item", "items_from", "CropDataset", "make_crop", "decode_boxes", "val_images",
           "refined_ap", "mean_iou_gain", "encode_target", "ValImage"]
