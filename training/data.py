"""Dataset loading, contiguous splits, augmentation and CenterNet target encoding.

Each sample is an image plus boxes (x1, y1, x2, y2 in image px), a heat class
(0 honeybee, 1 hornet) and a subtype (0 bee, 1 pollen, 2 drone, -1 unknown).
`sub_mask` says which subtype logits are valid for the CE loss: Roboflow `Bees`
have no subtype at all, pollen-crops are workers so the drone logit is masked out.
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter, ImageStat

from .model import STRIDE

HIVE = "hive-entrance"
BH = "bees-hornets"
CROPS = "pollen-crops"
BACKYARD = "backyard-entrance"
# backyard-entrance classes.txt: worker, pollen, drone, queen. A queen is a honeybee of no type
# this network tells apart; her 8 boxes train as workers rather than as background.
BACKYARD_SUBTYPE = (0, 1, 2, 0)
BACKYARD_DEPLOY_SCALE = 448 / 1080  # a 1920x1080 frame letterboxed into the 448 px tall input
EXTRA = "extra"  # source names "extra:<folder>": corrections exports (`hivesight dataset export`)
HIVE_VAL_FRACTION = 0.2
HIVE_GAP = 5  # frames dropped between train and val so near-identical neighbours don't leak
HIVE_CACHE_SCALE = 0.5  # frames are kept in RAM at half resolution (1920x540)
INCOMPLETE_REACH = 3  # incomplete_frames: neighbours looked at either side
INCOMPLETE_BELOW = 0.5  # ... and the share of their median label count a frame must reach
# Written by training.pack: the files it left out (validation), so the splits stay those of the
# full datasets and a validation read of a packed copy fails loudly rather than shrinking.
PACK_NOTE = "hivesight-pack.json"
ALL_SUB = (True, True, True)
WORKER_SUB = (True, True, False)


@dataclass
class Sample:
    source: str
    path: Path
    image: Image.Image | None = None  # cached, at `scale` of the original resolution
    scale: float = 1.0
    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))  # original px
    heat_cls: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    subtype: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    sub_mask: tuple[bool, bool, bool] = (False, False, False)


def frame_number(name: str) -> int:
    m = re.search(r"frame_(\d+)", name)
    return int(m.group(1)) if m else -1


def left_out(data: Path, source: str) -> list[str]:
    note = data / PACK_NOTE
    return list(json.loads(note.read_text()).get(source, [])) if note.exists() else []


def incomplete_frames(counts: list[int], reach: int = INCOMPLETE_REACH,
                      below: float = INCOMPLETE_BELOW) -> list[int]:
    """Indices of the frames (in recording order) labelled far less than their neighbours.

    Consecutive frames of a clip hold about as many bees, so a frame with under `below` of the
    median label count of the `reach` frames either side has bees left unlabelled; training on
    it would teach the detector that they are background. The hive clip's frame 936 has one
    label (a drone in flight) where its neighbours have 20 and its picture shows 17 more bees.
    """
    out = []
    for i, n in enumerate(counts):
        neighbours = counts[max(0, i - reach):i] + counts[i + 1:i + 1 + reach]
        if neighbours and n < below * statistics.median(neighbours):
            out.append(i)
    return out


def hive_label_count(data: Path, name: str) -> int:
    label = data / HIVE / "labels" / (Path(name).stem + ".txt")
    return sum(1 for line in label.read_text().split("\n") if len(line.split()) == 5) if label.exists() else 0


def hive_split(data: Path) -> tuple[list[str], list[str]]:
    """Contiguous split: the last 20% of frame numbers are validation. Training leaves out the
    frames `incomplete_frames` finds; validation keeps every frame (it is the yardstick)."""
    names = sorted(set(os.listdir(data / HIVE / "images")) | set(left_out(data, HIVE)), key=frame_number)
    n_val = int(round(len(names) * HIVE_VAL_FRACTION))
    val = names[-n_val:]
    train = names[: len(names) - n_val - HIVE_GAP]
    dropped = set(incomplete_frames([hive_label_count(data, n) for n in train]))
    return [n for i, n in enumerate(train) if i not in dropped], val


def crop_split(data: Path) -> tuple[list[Path], list[Path]]:
    """Pollen crops: sort by the numeric id (roughly capture order), last 20% validation."""
    files: list[Path] = []
    for cls in ("pollen", "no_pollen"):
        files += sorted((data / CROPS / cls).glob("*.jpg"))
    files += [data / CROPS / rel for rel in left_out(data, CROPS) if not (data / CROPS / rel).exists()]
    files.sort(key=lambda p: (p.parent.name != "pollen", p.name))  # the listing's order, packed or not

    def key(p: Path) -> int:
        m = re.search(r"(\d+)", p.name)
        return int(m.group(1)) if m else 0

    files.sort(key=key)
    n_val = int(round(len(files) * 0.2))
    return files[:-n_val], files[-n_val:]


def read_yolo(label: Path, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    rows: list[list[float]] = []
    if label.exists():
        for line in label.read_text().split("\n"):
            parts = line.split()
            if len(parts) == 5:
                rows.append([float(v) for v in parts])
    if not rows:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
    a = np.array(rows, np.float32)
    cx, cy, bw, bh = a[:, 1] * w, a[:, 2] * h, a[:, 3] * w, a[:, 4] * h
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1)
    return boxes, a[:, 0].astype(np.int64)


def load_image(path: Path, scale: float) -> Image.Image:
    im = Image.open(path)
    if scale < 1.0:
        # JPEG DCT scaling: decodes a 3840x1080 frame at half size several times faster.
        im.draft("RGB", (int(im.width * scale), int(im.height * scale)))
    im = im.convert("RGB")
    return im


def load_hive_frame(path: Path) -> Image.Image:
    """A hive frame at the cache resolution, whether the file is the 3840 px original or a
    packed copy already at that resolution (training.pack, for a machine without the datasets)."""
    with Image.open(path) as probe:
        width = probe.width
    return load_image(path, min(1.0, HIVE_CACHE_SCALE * 3840.0 / width))


def load_hive(data: Path, names: list[str], cache: bool = True) -> list[Sample]:
    out = []
    for n in names:
        path = data / HIVE / "images" / n
        im = load_hive_frame(path) if cache else None
        scale = im.width / 3840.0 if im is not None else HIVE_CACHE_SCALE
        boxes, cls = read_yolo(data / HIVE / "labels" / (Path(n).stem + ".txt"), 3840, 1080)
        out.append(Sample(HIVE, path, im, scale, boxes, np.zeros(len(cls), np.int64), cls, ALL_SUB))
    return out


def load_bh(data: Path, split: str, cache: bool = True) -> list[Sample]:
    out = []
    for path in sorted((data / BH / split / "images").glob("*.jpg")):
        im = load_image(path, 1.0) if cache else None
        w, h = (im.size if im is not None else Image.open(path).size)
        boxes, cls = read_yolo(data / BH / split / "labels" / (path.stem + ".txt"), w, h)
        sub = np.full(len(cls), -1, np.int64)  # Roboflow "Bees": subtype unknown
        out.append(Sample(BH, path, im, 1.0, boxes, cls.astype(np.int64), sub, (False, False, False)))
    return out


def packed_sizes(data: Path, source: str) -> dict[str, list[int]]:
    """The original sizes of the pictures training.pack shrank (name -> [w, h])."""
    note = data / PACK_NOTE
    return dict(json.loads(note.read_text()).get("sizes", {}).get(source, {})) if note.exists() else {}


def load_backyard(data: Path, split: str, cache: bool = True) -> list[Sample]:
    """The second camera: `train/` is Roboflow's augmented copies (mosaics, cutouts, blur) and
    trains; `valid/` is the original frames, held out. Boxes are in the original picture's px
    (a packed copy may be smaller: `scale` says by how much)."""
    out = []
    sizes = packed_sizes(data, BACKYARD)
    for path in sorted((data / BACKYARD / split / "images").glob("*.jpg")):
        im = load_image(path, 1.0) if cache else None
        now = im.size if im is not None else Image.open(path).size
        w, h = sizes.get(path.name, now)
        boxes, cls = read_yolo(data / BACKYARD / split / "labels" / (path.stem + ".txt"), w, h)
        if len(cls) and int(cls.max()) >= len(BACKYARD_SUBTYPE):
            raise SystemExit(f"{path}: class {int(cls.max())} is not in {BACKYARD}/classes.txt")
        sub = np.array([BACKYARD_SUBTYPE[c] for c in cls], np.int64)
        out.append(Sample(BACKYARD, path, im, now[0] / w, boxes, np.zeros(len(cls), np.int64), sub, ALL_SUB))
    return out


def load_crops(files: list[Path], cache: bool = True) -> list[Sample]:
    out = []
    for path in files:
        im = load_image(path, 1.0) if cache else None
        w, h = (im.size if im is not None else Image.open(path).size)
        # One bee fills each crop; a slightly inset box is closer to the insect's extent.
        boxes = np.array([[0.04 * w, 0.0, 0.96 * w, h]], np.float32)
        sub = np.array([1 if path.parent.name == "pollen" else 0], np.int64)
        out.append(Sample(CROPS, path, im, 1.0, boxes, np.zeros(1, np.int64), sub, WORKER_SUB))
    return out


# ---------------------------------------------------------------- augmentation


# classes.txt names of a corrections export -> (heat class, subtype). A wasp has no class in this
# network; its boxes are dropped, so a wasp teaches "not a honeybee, not a hornet".
EXTRA_CLASSES = {
    "worker-bee-no-pollen": (0, 0), "bee": (0, 0), "worker": (0, 0),
    "worker-bee-pollen": (0, 1), "pollen": (0, 1),
    "drone-bee": (0, 2), "drone": (0, 2),
    "hornet": (1, -1),
}
EXTRA_BEE_PX = 30.0  # extra frames are drawn so their median insect is near the hive clip's size


def extra_frames(folder: Path) -> list[dict]:
    """The frames of a corrections export, from its manifest.json (site, camera size, ...), or
    every image of a plain YOLO folder as one site named after the folder."""
    manifest = folder / "manifest.json"
    if manifest.exists():
        return list(json.loads(manifest.read_text())["frames"])
    return [{"image": f"images/{p.name}", "label": f"labels/{p.stem}.txt", "site": folder.name}
            for p in sorted((folder / "images").glob("*.jpg"))]


def load_extra(folder: Path, leave_out_site: str | None = None, cache: bool = True) -> list[Sample]:
    """An extra dataset folder (images/, labels/, classes.txt) as training samples with every
    subtype supervised; the frames of `leave_out_site` stay out (protocol: leave one site out)."""
    names = (folder / "classes.txt").read_text().split()
    unknown = sorted({n for n in names if n not in EXTRA_CLASSES and n != "wasp"})
    if unknown:
        raise SystemExit(f"{folder}/classes.txt names classes this network has no place for: {unknown}")
    out = []
    for f in extra_frames(folder):
        if leave_out_site is not None and f.get("site") == leave_out_site:
            continue
        path = folder / f["image"]
        im = load_image(path, 1.0) if cache else None
        w, h = (im.size if im is not None else Image.open(path).size)
        boxes, cls = read_yolo(folder / f["label"], w, h)
        keep = np.array([names[c] in EXTRA_CLASSES for c in cls], np.bool_)
        pairs = [EXTRA_CLASSES[names[c]] for c in cls[keep]]
        heat = np.array([p[0] for p in pairs], np.int64)
        sub = np.array([p[1] for p in pairs], np.int64)
        out.append(Sample(f"{EXTRA}:{folder.name}", path, im, 1.0, boxes[keep].reshape(-1, 4), heat, sub, ALL_SUB))
    return out


def colour_matrix(means: list[float], gain: list[float], brightness: float, contrast: float,
                  saturation: float) -> tuple[float, ...]:
    """White balance, brightness, contrast (about the image mean) and saturation (about each
    pixel's grey) as one affine RGB map, for PIL's `convert("RGB", matrix)`: the same result as
    applying them one by one in float, in one C pass instead of four float passes over the patch
    (those were about 70 % of a patch's cost). `means` are the input's per-channel means."""
    scale = [g * brightness for g in gain]
    mean = sum(s * m for s, m in zip(scale, means)) / 3.0  # the image mean after the scaling
    rows: list[float] = []
    for c in range(3):
        rows += [(1 - saturation) * contrast * scale[j] / 3.0 + (saturation * contrast * scale[c] if j == c else 0.0)
                 for j in range(3)]
        rows.append((1 - contrast) * mean)
    return tuple(rows)


def _photometric(im: Image.Image, rng: random.Random) -> Image.Image:
    gain = [rng.uniform(0.85, 1.15) for _ in range(3)]  # white balance
    brightness = rng.uniform(0.6, 1.4)
    contrast = rng.uniform(0.7, 1.3)
    saturation = rng.uniform(0.6, 1.4)
    im = im.convert("RGB", colour_matrix(ImageStat.Stat(im).mean, gain, brightness, contrast, saturation))
    if rng.random() < 0.25:
        noise_rng = np.random.default_rng(rng.randrange(1 << 30))
        sigma = rng.uniform(2, 10)
        a = np.asarray(im, np.float32) + noise_rng.standard_normal((im.height, im.width, 3), np.float32) * sigma
        im = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if rng.random() < 0.25:
        im = im.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.5)))
    if rng.random() < 0.25:
        buf = io.BytesIO()
        im.save(buf, "JPEG", quality=rng.randint(25, 85))
        im = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    return im


def _geometric(a: np.ndarray, boxes: np.ndarray, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """Flips and 90-degree rotations of a square patch; boxes in patch px."""
    s = a.shape[0]
    b = boxes.copy()
    if rng.random() < 0.5:
        a = a[:, ::-1]
        b[:, [0, 2]] = s - b[:, [2, 0]]
    if rng.random() < 0.5:
        a = a[::-1]
        b[:, [1, 3]] = s - b[:, [3, 1]]
    if rng.random() < 0.5:  # transpose == rot90 combined with the flips above
        a = a.transpose(1, 0, 2)
        b = b[:, [1, 0, 3, 2]]
    return np.ascontiguousarray(a), b


def sample_scale(s: Sample, rng: random.Random) -> float:
    """Scale from original px to patch px."""
    if s.source == HIVE:
        # Mostly near the deployment scale (3840 -> 960, bees ~30 px), but bees must also work
        # from ~20 px up to ~300 px.
        if rng.random() < 0.6:
            return 0.25 * float(np.exp(rng.uniform(-0.35, 0.35)))
        return float(np.exp(rng.uniform(np.log(0.17), np.log(2.5))))
    if s.source == BACKYARD:
        # Near the deployment scale (bees ~19 px), and wider: the same camera closer or farther.
        if rng.random() < 0.6:
            return BACKYARD_DEPLOY_SCALE * float(np.exp(rng.uniform(-0.35, 0.35)))
        return float(np.exp(rng.uniform(np.log(0.25), np.log(2.5))))
    if s.source == BH:
        # 640 px photos were scaled to 544 by the engine (x0.85) when these draws were set, and to
        # 448 (x0.7, inside both ranges) since 0.8.1. Half the draws sit around x0.85: the youtube
        # hive-front frames have 20x40 px bees which the engine then saw at ~17x33 px, and a range
        # topping out at 0.9 (median 0.42) trained them mostly at half that size (bees-hornets
        # honeybee AP50 0.09). Large insects that overflow the patch become ignore regions; the
        # letterboxed "whole" patches cover them.
        if rng.random() < 0.5:
            return 0.85 * float(np.exp(rng.uniform(-0.4, 0.4)))
        return float(np.exp(rng.uniform(np.log(0.2), np.log(1.0))))
    if s.source.startswith(EXTRA) and len(s.boxes):
        # another camera: its median insect drawn near the hive clip's deployment size, and wider
        median = float(np.median(np.maximum(s.boxes[:, 2] - s.boxes[:, 0], s.boxes[:, 3] - s.boxes[:, 1])))
        return EXTRA_BEE_PX / max(median, 1.0) * float(np.exp(rng.uniform(-0.7, 0.9)))
    if s.source.startswith(EXTRA):
        return float(np.exp(rng.uniform(np.log(0.2), np.log(1.0))))
    # crops: bee 20..360 px tall
    return float(np.exp(rng.uniform(np.log(0.07), np.log(1.2))))


Patch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def make_patch(s: Sample, size: int, rng: random.Random) -> Patch:
    """Random scaled crop -> (uint8 HxWx3, boxes px, heat_cls, subtype, ignore boxes, ignore cls).

    Objects cut by the patch border to < 45% of their area become ignore regions (neither
    positive nor negative), so the heatmap is never taught to stay silent on insect parts.
    """
    assert s.image is not None
    iw, ih = s.image.size
    boxes = s.boxes * s.scale  # cached px
    whole = s.source != HIVE and rng.random() < 0.4
    if whole:
        # Whole photo / crop letterboxed into the patch, as the engine sees it: teaches the
        # largest (frame-filling) insects.
        rel = size * rng.uniform(0.6, 1.0) / max(iw, ih)
    else:
        rel = sample_scale(s, rng) / s.scale  # cached-image px -> patch px
    src = size / rel  # patch extent in cached px
    if whole:
        x0, y0 = -rng.uniform(0, src - iw), -rng.uniform(0, src - ih)
    elif len(boxes) and rng.random() < 0.7:
        # Centre the patch near a random object so most patches carry positives.
        b = boxes[rng.randrange(len(boxes))]
        cx = (b[0] + b[2]) / 2 + rng.uniform(-0.4, 0.4) * src
        cy = (b[1] + b[3]) / 2 + rng.uniform(-0.4, 0.4) * src
        x0, y0 = cx - src / 2, cy - src / 2
    else:
        x0 = rng.uniform(min(0.0, iw - src), max(0.0, iw - src))
        y0 = rng.uniform(min(0.0, ih - src), max(0.0, ih - src))
    fill = tuple(rng.randint(0, 255) for _ in range(3)) if rng.random() < 0.5 else (114, 114, 114)
    im = s.image.transform((size, size), Image.Transform.EXTENT, (x0, y0, x0 + src, y0 + src),
                           Image.Resampling.BILINEAR, fillcolor=fill)
    im = _photometric(im, rng)
    pb = (boxes - np.array([x0, y0, x0, y0], np.float32)) * rel
    clipped = np.clip(pb, 0, size)
    area = np.maximum(pb[:, 2] - pb[:, 0], 1e-3) * np.maximum(pb[:, 3] - pb[:, 1], 1e-3)
    vis = (clipped[:, 2] - clipped[:, 0]).clip(0) * (clipped[:, 3] - clipped[:, 1]).clip(0) / area
    keep = vis >= 0.45
    ign = (vis > 0.02) & ~keep
    a, b = _geometric(np.asarray(im), np.concatenate([clipped[keep], clipped[ign]]), rng)
    n = int(keep.sum())
    return a, b[:n], s.heat_cls[keep], s.subtype[keep], b[n:], s.heat_cls[ign]


# ---------------------------------------------------------------- targets


def encode(boxes: np.ndarray, heat_cls: np.ndarray, subtype: np.ndarray, sub_mask: tuple[bool, bool, bool],
           size: int, ign_boxes: np.ndarray | None = None, ign_cls: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """CenterNet targets on the stride-4 grid.

    Box regression (offset to centre, log size) and subtype are supervised on the cells within
    1.5 cells of the centre whose gaussian value is > 0.3 (owner = strongest gaussian), not only
    the centre cell, so that a 3x3 peak picked at inference one cell off still has a trained box.
    """
    g = size // STRIDE
    heat = np.zeros((2, g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    reg_w = np.zeros((g, g), np.float32)
    owner = np.zeros((g, g), np.float32)
    sub = np.full((g, g), -1, np.int64)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32) + 0.5
    ignore = np.zeros((2, g, g), np.float32)
    if ign_boxes is not None and ign_cls is not None:
        for b, c in zip(ign_boxes, ign_cls):
            x1, y1 = int(b[0] // STRIDE), int(b[1] // STRIDE)
            x2, y2 = int(np.ceil(b[2] / STRIDE)), int(np.ceil(b[3] / STRIDE))
            ignore[c, y1:y2, x1:x2] = 1.0
    for b, c, st in zip(boxes, heat_cls, subtype):
        w, h = (b[2] - b[0]) / STRIDE, (b[3] - b[1]) / STRIDE
        if w < 0.5 or h < 0.5:
            continue
        cx, cy = (b[0] + b[2]) / 2 / STRIDE, (b[1] + b[3]) / 2 / STRIDE
        sx, sy = max(w / 6, 0.6), max(h / 6, 0.6)
        gauss = np.exp(-((xs - cx) ** 2) / (2 * sx * sx) - ((ys - cy) ** 2) / (2 * sy * sy))
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        gauss[iy, ix] = 1.0
        heat[c] = np.maximum(heat[c], gauss)
        # Offsets are capped at +-1.5 cells: enough for a peak one cell off, and large hornets
        # don't dominate the offset loss with 20-cell targets.
        m = (gauss > 0.3) & (gauss > owner) & (np.abs(xs - cx) <= 1.5) & (np.abs(ys - cy) <= 1.5)
        owner[m] = gauss[m]
        reg[0][m] = cx - xs[m]
        reg[1][m] = cy - ys[m]
        reg[2][m] = np.log(w)
        reg[3][m] = np.log(h)
        reg_w[m] = gauss[m]
        sub[m] = st if c == 0 else -1
    ignore[heat > 0] = 0.0  # a visible object inside an ignore box stays supervised
    return {"heat": heat, "ignore": ignore, "reg": reg, "reg_w": reg_w, "sub": sub,
            "sub_mask": np.array(sub_mask, np.bool_)}


class PatchDataset:
    """Infinite-style dataset: index i -> a random patch from a weighted source mix."""

    def __init__(self, sources: dict[str, list[Sample]], weights: dict[str, float], size: int,
                 length: int, seed: int) -> None:
        self.sources = {k: v for k, v in sources.items() if v}
        self.weights = {k: weights[k] for k in self.sources}
        self.size = size
        self.length = length
        self.seed = seed
        self.epoch = 0

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> dict[str, np.ndarray]:
        rng = random.Random(self.seed * 1_000_003 + self.epoch * 100_003 + i)
        keys = list(self.sources)
        src = rng.choices(keys, [self.weights[k] for k in keys])[0]
        s = rng.choice(self.sources[src])
        a, b, hc, st, ib, ic = make_patch(s, self.size, rng)
        t = encode(b, hc, st, s.sub_mask, self.size, ib, ic)
        t["image"] = a.transpose(2, 0, 1).copy()  # uint8 CHW; normalised on the training side
        return t
