"""Hive-entrance validation frames as another camera would see them: bees larger or smaller in the
frame than on the training clip. Writes YOLO folders (derived images, under a git-ignored scratch
folder such as tmp/, never in the repository) for `hivesight eval`.

    python -m training.zoom_view --data ../shared/datasets --out tmp/zoom

- zoom-in-1.5 / zoom-in-2: a window of 1/z of the frame (its own 32:9 shape), cut at the left and
  at the right of each frame, so the engine shows each bee z times larger (two images a frame).
  A box cut by the window is kept, clipped, when at least half of it is inside; the others are
  dropped (an insect half out of the picture is anyone's call).
- zoom-out-0.7: two frames 25 apart stacked (3840x2160, 16:9): the engine fits it by its height,
  so bees are 0.69x their training size (25 images).
- zoom-out-0.5: four frames as a 2x2 mosaic (7680x2160): bees half their size (12 images).
- portrait-32x9 / portrait-16x9: each frame, and its left 1920x1080 half, turned a quarter
  clockwise (1080x3840, 1080x1920): a camera or phone held upright.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image

from .data import HIVE, hive_split
from .make_eval_view import LABEL_NAMES


def read_boxes(label: Path) -> np.ndarray:
    """YOLO rows (cls, cx, cy, w, h) normalised; an empty (0, 5) array when the file is empty."""
    rows = [list(map(float, line.split())) for line in label.read_text().splitlines() if line.strip()]
    return np.array(rows, dtype=np.float64).reshape(-1, 5)


def to_pixels(rows: np.ndarray, w: int, h: int) -> np.ndarray:
    """(cls, x0, y0, x1, y1) in pixels."""
    c, cx, cy, bw, bh = rows.T
    return np.stack([c, (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h], 1)


def write(out: Path, name: str, im: Image.Image, boxes: np.ndarray) -> None:
    """`boxes` (cls, x0, y0, x1, y1) in the image's pixels."""
    w, h = im.size
    im.save(out / "images" / f"{name}.jpg", quality=95)
    lines = []
    for c, x0, y0, x1, y1 in boxes:
        lines.append(f"{int(c)} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))


def window(boxes: np.ndarray, x: int, y: int, w: int, h: int, keep: float = 0.5) -> np.ndarray:
    """Boxes in a window's pixels, clipped; those with less than `keep` of their area inside dropped."""
    if len(boxes) == 0:
        return boxes
    c, x0, y0, x1, y1 = boxes.T
    cx0, cy0 = np.clip(x0 - x, 0, w), np.clip(y0 - y, 0, h)
    cx1, cy1 = np.clip(x1 - x, 0, w), np.clip(y1 - y, 0, h)
    inside = (cx1 - cx0) * (cy1 - cy0) / np.maximum((x1 - x0) * (y1 - y0), 1e-9)
    out = np.stack([c, cx0, cy0, cx1, cy1], 1)
    return out[inside >= keep]


def build(data: Path, out: Path) -> dict[str, int]:
    src = data / HIVE
    names = hive_split(data)[1]
    frames = [(Path(n).stem, Image.open(src / "images" / n).convert("RGB")) for n in names]
    labelled = []
    for stem, im in frames:
        w, h = im.size
        labelled.append((stem, im, to_pixels(read_boxes(src / "labels" / f"{stem}.txt"), w, h)))
    counts: dict[str, int] = {}

    def folder(view: str) -> Path:
        d = out / view
        for sub in ("images", "labels"):
            (d / sub).mkdir(parents=True, exist_ok=True)
            for old in (d / sub).iterdir():
                old.unlink()
        (d / "classes.txt").write_text("\n".join(LABEL_NAMES) + "\n")
        return d

    for z in (1.5, 2.0):
        view = f"zoom-in-{z:g}"
        d = folder(view)
        for stem, im, boxes in labelled:
            w, h = im.size
            ww, wh = round(w / z), round(h / z)
            y = (h - wh) // 2
            for side, x in (("l", 0), ("r", w - ww)):
                write(d, f"{stem}-{side}", im.crop((x, y, x + ww, y + wh)), window(boxes, x, y, ww, wh))
        counts[view] = len(labelled) * 2

    d = folder("zoom-out-0.7")
    half = len(labelled) // 2
    for i in range(half):
        (sa, a, ba), (sb, b, bb) = labelled[i], labelled[i + half]
        w, h = a.size
        canvas = Image.new("RGB", (w, 2 * h))
        canvas.paste(a, (0, 0))
        canvas.paste(b.resize((w, h)), (0, h))
        shifted = bb.copy()
        shifted[:, 2] += h
        shifted[:, 4] += h
        write(d, f"{sa}-{sb}", canvas, np.concatenate([ba, shifted]))
    counts["zoom-out-0.7"] = half

    d = folder("zoom-out-0.5")
    quarter = len(labelled) // 4
    for i in range(quarter):
        parts = [labelled[i + k * quarter] for k in range(4)]
        w, h = parts[0][1].size
        canvas = Image.new("RGB", (2 * w, 2 * h))
        all_boxes = []
        for k, (_, im, boxes) in enumerate(parts):
            ox, oy = (k % 2) * w, (k // 2) * h
            canvas.paste(im.resize((w, h)), (ox, oy))
            moved = boxes.copy()
            moved[:, [1, 3]] += ox
            moved[:, [2, 4]] += oy
            all_boxes.append(moved)
        write(d, "-".join(p[0] for p in parts), canvas, np.concatenate(all_boxes))
    counts["zoom-out-0.5"] = quarter

    for view, width in (("portrait-32x9", None), ("portrait-16x9", 1920)):
        d = folder(view)
        for stem, im, boxes in labelled:
            w, h = im.size
            part = im if width is None else im.crop((0, 0, width, h))
            kept = boxes if width is None else window(boxes, 0, 0, width, h)
            write(d, stem, part.transpose(Image.Transpose.ROTATE_270), turned(kept, h))
        counts[view] = len(labelled)
    return counts


def turned(boxes: np.ndarray, height: int) -> np.ndarray:
    """Boxes of a picture `height` tall, in its pixels once turned a quarter clockwise."""
    c, x0, y0, x1, y1 = boxes.T
    return np.stack([c, height - y1, x0, height - y0, x1], 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--out", type=Path, default=Path("tmp/zoom"))
    a = ap.parse_args()
    for view, n in build(a.data, a.out).items():
        print(f"{view}: {n} images under {a.out / view}")


if __name__ == "__main__":
    main()
