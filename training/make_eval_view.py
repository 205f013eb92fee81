"""Build a YOLO folder of links (images/, labels/, classes.txt) for the hive-entrance
validation split, so `hivesight eval` can be pointed at it without copying any data.

Hard links when the view is on the datasets' filesystem, symlinks otherwise (--symlink forces
them). `hivesight eval` lists images with Dirent.isFile(), which is false for a symlink, so a
symlinked view reads as "images holds no .jpg or .png files" (engine/eval/datasets.ts).

    python -m training.make_eval_view --data ../shared/datasets --out tmp/eval/hive-entrance-val \
        [--crops-out tmp/eval/pollen-crops-val]

classes.txt carries the dataset's own label names (Worker-Bee-No-Pollen, Worker-Bee-Pollen,
Drone-Bee), which `hivesight eval` maps to bee / pollen / drone. (Writing the product names
"bee, pollen, drone" was wrong: eval reads a label "bee" as the generic honeybee of Roboflow
sets, merges the rows and reports no pollen or drone AP.)
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from .data import HIVE, hive_split

HERE = Path(__file__).resolve().parent
LABEL_NAMES = ["Worker-Bee-No-Pollen", "Worker-Bee-Pollen", "Drone-Bee"]  # hive-entrance ids 0, 1, 2


def link(target: Path, path: Path, symlink: bool) -> None:
    if not symlink:
        try:
            os.link(target, path)
            return
        except OSError:
            pass  # other filesystem (EXDEV) or no permission: fall back to a symlink
    os.symlink(target, path)


def build(data: Path, out: Path, split_file: Path | None, symlink: bool = False) -> int:
    names = split_file.read_text().split() if split_file and split_file.exists() else hive_split(data)[1]
    src = (data / HIVE).resolve()
    for sub in ("images", "labels"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    for n in names:
        pairs = ((src / "images" / n, out / "images" / n),
                 (src / "labels" / (Path(n).stem + ".txt"), out / "labels" / (Path(n).stem + ".txt")))
        for target, path in pairs:
            if not target.exists():
                continue
            if path.is_symlink() or path.exists():
                path.unlink()
            link(target, path, symlink)
    names_file = src / "classes.txt"
    labels = names_file.read_text().split() if names_file.exists() else LABEL_NAMES
    (out / "classes.txt").write_text("\n".join(labels) + "\n")
    return len(names)


def build_crops(data: Path, out: Path, symlink: bool = False) -> int:
    """Crop-folder view (pollen/, no_pollen/) of the held-out pollen crops (last 20% by id)."""
    from .data import crop_split
    val = crop_split(data)[1]
    for p in val:
        d = out / p.parent.name
        d.mkdir(parents=True, exist_ok=True)
        path = d / p.name
        if path.is_symlink() or path.exists():
            path.unlink()
        link(p.resolve(), path, symlink)
    return len(val)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--out", type=Path, default=Path("tmp/eval/hive-entrance-val"))
    ap.add_argument("--split", type=Path, default=HERE / "splits" / "hive-entrance-val.txt")
    ap.add_argument("--symlink", action="store_true", help="symlinks even where hard links work")
    ap.add_argument("--crops-out", type=Path, default=None,
                    help="also build a view of the held-out pollen crops (pollen/, no_pollen/) here")
    a = ap.parse_args()
    n = build(a.data, a.out, a.split, a.symlink)
    print(f"{n} frames linked under {a.out}")
    if a.crops_out is not None:
        print(f"{build_crops(a.data, a.crops_out, a.symlink)} held-out crops linked under {a.crops_out}")


if __name__ == "__main__":
    main()
