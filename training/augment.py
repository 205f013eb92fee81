"""Patches that teach insects rather than one camera: every source drawn at bee sizes from 12 to
200 px, mosaics across sources, labelled insects pasted onto other sources' backgrounds, and
the degradations of phone and entrance cameras (motion blur, defocus, low resolution, JPEG).

Builds on `data.make_patch` (a random scaled crop with colour, noise, blur and JPEG shifts, and
insects cut by the border turned into ignore regions) and `data.encode` (CenterNet targets).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

from . import data
from .data import BH, CROPS, HIVE, Patch, Sample, encode, make_patch

# Insect sizes (sqrt of box area, patch px) drawn for the "world" half of the patches.
MIN_PX, MAX_PX = 12.0, 200.0
WORLD_SHARE = 0.5
MOSAIC_SHARE = 0.3
PASTE_SHARE = 0.5


def median_size(s: Sample) -> float:
    """Median insect size of a sample in original px (sqrt of box area)."""
    if not len(s.boxes):
        return 0.0
    wh = s.boxes[:, 2:] - s.boxes[:, :2]
    return float(np.median(np.sqrt(wh[:, 0] * wh[:, 1])))


def world_scale(s: Sample, rng: random.Random) -> float | None:
    """A scale (original px -> patch px) that shows the sample's insects at a log-uniform size
    in [MIN_PX, MAX_PX], or None to keep the source's own draw (`data.sample_scale`)."""
    size = median_size(s)
    if size <= 0 or rng.random() >= WORLD_SHARE:
        return None
    target = float(np.exp(rng.uniform(np.log(MIN_PX), np.log(MAX_PX))))
    return target / size


def patch_at_world_scale(s: Sample, size: int, rng: random.Random) -> Patch:
    scale = world_scale(s, rng)
    if scale is None:
        return make_patch(s, size, rng)
    original = data.sample_scale
    data.sample_scale = lambda _s, _r: scale  # type: ignore[assignment]
    try:
        return make_patch(s, size, rng)
    finally:
        data.sample_scale = original  # type: ignore[assignment]


@dataclass
class Insect:
    image: Image.Image  # the labelled box with a small margin, at its cached resolution
    heat_cls: int
    subtype: int
    size: float  # sqrt of the box's area in `image` px


def insect_bank(sources: dict[str, list[Sample]], per_source: int, rng: random.Random) -> list[Insect]:
    """Labelled insects cut from every source, for pasting elsewhere. Hornets are kept whole
    (there are few); honeybees are sampled so that each source gives at most `per_source`."""
    bank: list[Insect] = []
    for src, samples in sources.items():
        if src == CROPS:
            continue  # a crop is one bee filling its frame: no background of its own to paste
        bees: list[Insect] = []
        for s in samples:
            if s.image is None:
                continue
            for b, c, st in zip(s.boxes * s.scale, s.heat_cls, s.subtype):
                w, h = b[2] - b[0], b[3] - b[1]
                if w < 8 or h < 8:
                    continue
                m = 0.08
                box = (int(b[0] - m * w), int(b[1] - m * h), int(b[2] + m * w) + 1, int(b[3] + m * h) + 1)
                item = Insect(s.image.crop(box), int(c), int(st), float(np.sqrt(w * h)))
                (bank if c == 1 else bees).append(item)
        rng.shuffle(bees)
        bank += bees[:per_source]
    return bank


def _feather(w: int, h: int) -> Image.Image:
    """An alpha mask that fades the pasted rectangle's edges, so its border is no cue."""
    a = np.ones((h, w), np.float32)
    r = max(1, int(0.12 * min(w, h)))
    ramp = np.linspace(0.0, 1.0, r + 2, dtype=np.float32)[1:-1]
    a[:r, :] *= ramp[:, None]
    a[-r:, :] *= ramp[::-1, None]
    a[:, :r] *= ramp[None, :]
    a[:, -r:] *= ramp[None, ::-1]
    return Image.fromarray((a * 255).astype(np.uint8))


def paste(p: Patch, bank: list[Insect], rng: random.Random) -> Patch:
    """Paste 1-5 insects at world sizes where they overlap no labelled insect."""
    a, boxes, hc, st, ib, ic = p
    size = a.shape[0]
    im = Image.fromarray(a)
    new_b, new_c, new_s = [boxes], [hc], [st]
    taken = [*boxes, *ib]
    for _ in range(rng.randint(1, 5)):
        ins = rng.choice(bank)
        target = float(np.exp(rng.uniform(np.log(MIN_PX), np.log(min(MAX_PX, size * 0.6)))))
        r = target / max(ins.size, 1.0)
        w, h = max(4, int(ins.image.width * r)), max(4, int(ins.image.height * r))
        if w >= size or h >= size:
            continue
        piece = ins.image.resize((w, h), Image.Resampling.BILINEAR)
        if rng.random() < 0.5:
            piece = piece.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        for _try in range(6):
            x, y = rng.randint(0, size - w), rng.randint(0, size - h)
            # The label is the insect, not the margin cut with it.
            mx, my = 0.08 / 1.16 * w, 0.08 / 1.16 * h
            b = np.array([x + mx, y + my, x + w - mx, y + h - my], np.float32)
            if all(_overlap(b, t) < 0.05 for t in taken):
                im.paste(piece, (x, y), _feather(w, h))
                new_b.append(b[None])
                new_c.append(np.array([ins.heat_cls], np.int64))
                new_s.append(np.array([ins.subtype if ins.heat_cls == 0 else -1], np.int64))
                taken.append(b)
                break
    return (np.asarray(im).copy(), np.concatenate(new_b).astype(np.float32), np.concatenate(new_c),
            np.concatenate(new_s), ib, ic)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller box."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return float(iw * ih / max(small, 1e-6))


def mosaic(tiles: list[Patch], size: int) -> Patch:
    """Four half-size patches (from any sources) as one."""
    half = size // 2
    a = np.zeros((size, size, 3), np.uint8)
    parts: list[list[np.ndarray]] = [[], [], [], [], []]
    for k, (ta, tb, thc, tst, tib, tic) in enumerate(tiles):
        ox, oy = (k % 2) * half, (k // 2) * half
        a[oy:oy + half, ox:ox + half] = ta
        off = np.array([ox, oy, ox, oy], np.float32)
        for i, v in enumerate((tb + off, thc, tst, tib + off, tic)):
            parts[i].append(v)
    return (a, np.concatenate(parts[0]).reshape(-1, 4), np.concatenate(parts[1]), np.concatenate(parts[2]),
            np.concatenate(parts[3]).reshape(-1, 4), np.concatenate(parts[4]))


def degrade(a: np.ndarray, rng: random.Random) -> np.ndarray:
    """Camera faults beyond `data._photometric`: motion blur, defocus, low resolution."""
    im = Image.fromarray(a)
    size = im.width
    if rng.random() < 0.2:  # motion blur along a random axis, 3-9 px
        k = rng.randint(3, 9)
        arr = np.asarray(im, np.float32)
        axis = rng.randrange(2)
        out = sum(np.roll(arr, d - k // 2, axis=axis) for d in range(k)) / k
        im = Image.fromarray(out.clip(0, 255).astype(np.uint8))
    if rng.random() < 0.1:  # defocus
        im = im.filter(ImageFilter.GaussianBlur(rng.uniform(1.5, 3.0)))
    if rng.random() < 0.2:  # 360p footage shown larger
        f = rng.uniform(0.3, 0.7)
        small = im.resize((max(8, int(size * f)),) * 2, Image.Resampling.BILINEAR)
        im = small.resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(im)


class WorldPatches:
    """index -> a training patch with its targets, from a weighted mix of sources."""

    def __init__(self, sources: dict[str, list[Sample]], weights: dict[str, float], size: int, length: int,
                 seed: int, bank: list[Insect]) -> None:
        self.sources = {k: v for k, v in sources.items() if v}
        self.weights = {k: weights.get(k, 0.0) for k in self.sources}
        self.size, self.length, self.seed, self.bank = size, length, seed, bank
        self.epoch = 0

    def __len__(self) -> int:
        return self.length

    def _sample(self, rng: random.Random) -> Sample:
        keys = list(self.sources)
        src = rng.choices(keys, [self.weights[k] for k in keys])[0]
        return rng.choice(self.sources[src])

    def __getitem__(self, i: int) -> dict[str, np.ndarray]:
        rng = random.Random(self.seed * 1_000_003 + self.epoch * 100_003 + i)
        if rng.random() < MOSAIC_SHARE:
            picked = [self._sample(rng) for _ in range(4)]
            p = mosaic([patch_at_world_scale(s, self.size // 2, rng) for s in picked], self.size)
            # A subtype is taught where any tile's labels can tell it (unknown ones are -1).
            sub_mask = tuple(any(s.sub_mask[k] for s in picked) for k in range(3))
        else:
            s = self._sample(rng)
            p = patch_at_world_scale(s, self.size, rng)
            sub_mask = s.sub_mask
        if self.bank and rng.random() < PASTE_SHARE:
            n = len(p[1])
            p = paste(p, self.bank, rng)
            if (p[3][n:] >= 0).any():
                sub_mask = data.ALL_SUB  # a pasted hive bee's type is one of all three
        a, b, hc, st, ib, ic = p
        a = degrade(a, rng)
        t = encode(b, hc, st, sub_mask, self.size, ib, ic)  # type: ignore[arg-type]
        t["image"] = a.transpose(2, 0, 1).copy()
        return t


__all__ = ["WorldPatches", "insect_bank", "HIVE", "BH", "CROPS"]
