"""Protocol (c): the hive validation frames as other cameras would show them, written as a YOLO
folder that `hivesight eval` reads unchanged.

Each view zooms a frame 0.6-1.6x about a random point (bees 0.6-1.6x their size in the clip),
re-lights it (gain, white balance, gamma), blurs it (defocus or motion) and re-encodes it at
360p as a low-quality JPEG. Boxes follow the transform; an insect less than half inside the
view is dropped. Seeded, so every model is scored on the same pictures.

    python -m training.shifted_view --data ../shared/datasets --out tmp/eval/hive-shifted [--split train]

`--split train` builds the same views of the training frames, for choosing thresholds without
touching the validation frames.
"""
from __future__ import annotations

import argparse
import io
import random
import shutil
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from .data import HIVE, hive_split, read_yolo
from .make_eval_view import LABEL_NAMES

OUT_H = 360
ZOOM = (0.6, 1.6)


def relight(im: Image.Image, rng: random.Random, record: dict | None = None) -> Image.Image:
    gain = [rng.uniform(0.8, 1.2) for _ in range(3)]
    gamma = rng.uniform(0.7, 1.4)
    bright = rng.uniform(0.6, 1.3)
    if record is not None:
        record.update(gamma=gamma, bright=bright)
    lut: list[int] = []
    for g in gain:
        lut += [int(min(255, max(0, 255 * ((i / 255) ** gamma) * g * bright))) for i in range(256)]
    return im.point(lut)


def blur(im: Image.Image, rng: random.Random) -> Image.Image:
    kind = rng.choice(["none", "defocus", "motion"])
    if kind == "defocus":
        return im.filter(ImageFilter.GaussianBlur(rng.uniform(0.8, 2.5)))
    if kind == "motion":
        k = rng.randint(3, 9)
        a = np.asarray(im, np.float32)
        axis = rng.randrange(2)
        out = sum(np.roll(a, d - k // 2, axis=axis) for d in range(k)) / k
        return Image.fromarray(out.clip(0, 255).astype(np.uint8))
    return im


def view(im: Image.Image, boxes: np.ndarray, rng: random.Random,
         record: dict | None = None) -> tuple[Image.Image, np.ndarray, np.ndarray]:
    """One shifted view of a full-resolution frame; returns the picture, its boxes (px) and the
    indices of the kept labels. `record`, when given, receives the view's zoom and lighting."""
    w, h = im.size
    z = float(np.exp(rng.uniform(np.log(ZOOM[0]), np.log(ZOOM[1]))))
    if record is not None:
        record["zoom"] = z
    if z >= 1.0:  # closer: a window 1/z of the frame, shown at the frame's 360p size
        cw, ch = w / z, h / z
        x0, y0 = rng.uniform(0, w - cw), rng.uniform(0, h - ch)
        out_w, out_h = round(w * OUT_H / h), OUT_H
    else:  # farther: the whole frame, shown smaller than 360p
        cw, ch, x0, y0 = w, h, 0.0, 0.0
        out_w, out_h = round(w * OUT_H / h * z), round(OUT_H * z)
    pic = im.transform((out_w, out_h), Image.Transform.EXTENT, (x0, y0, x0 + cw, y0 + ch), Image.Resampling.BILINEAR)
    sx, sy = out_w / cw, out_h / ch
    b = (boxes - np.array([x0, y0, x0, y0], np.float32)) * np.array([sx, sy, sx, sy], np.float32)
    clipped = np.clip(b, 0, [out_w, out_h, out_w, out_h])
    area = np.maximum((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-6)
    inside = (clipped[:, 2] - clipped[:, 0]).clip(0) * (clipped[:, 3] - clipped[:, 1]).clip(0) / area
    keep = np.where(inside >= 0.5)[0]
    pic = blur(relight(pic, rng, record), rng)
    buf = io.BytesIO()
    pic.save(buf, "JPEG", quality=rng.randint(30, 70))
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB"), clipped[keep], keep


def build(data: Path, out: Path, split: str = "val", views: int = 2, seed: int = 7) -> int:
    train, val = hive_split(data)
    names = val if split == "val" else train
    if out.exists():
        shutil.rmtree(out)
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir()
    (out / "classes.txt").write_text("\n".join(LABEL_NAMES) + "\n")
    rng = random.Random(seed)
    n = 0
    # Each view's zoom and lighting, so a protocol can group the views into pseudo-cameras.
    manifest = ["image,zoom,gamma,bright"]
    for name in names:
        im = Image.open(data / HIVE / "images" / name).convert("RGB")
        boxes, cls = read_yolo(data / HIVE / "labels" / (Path(name).stem + ".txt"), im.width, im.height)
        for k in range(views):
            record: dict = {}
            pic, b, keep = view(im, boxes, rng, record)
            stem = f"{Path(name).stem}-v{k}"
            manifest.append(f"{stem}.jpg,{record['zoom']:.4f},{record['gamma']:.4f},{record['bright']:.4f}")
            pic.save(out / "images" / f"{stem}.jpg", quality=95)
            W, H = pic.size
            lines = [f"{int(cls[i])} {(x1 + x2) / 2 / W:.6f} {(y1 + y2) / 2 / H:.6f} {(x2 - x1) / W:.6f} {(y2 - y1) / H:.6f}"
                     for i, (x1, y1, x2, y2) in zip(keep, b)]
            (out / "labels" / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            n += 1
    (out / "views.csv").write_text("\n".join(manifest) + "\n")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--out", type=Path, default=Path("tmp/eval/hive-shifted"))
    ap.add_argument("--split", choices=["val", "train"], default="val")
    ap.add_argument("--views", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if not (a.data / HIVE).exists():
        raise SystemExit(f"SKIP: {a.data / HIVE} is absent; the shifted view needs the hive-entrance frames")
    print(f"{build(a.data, a.out, a.split, a.views, a.seed)} views written to {a.out}")


if __name__ == "__main__":
    main()
