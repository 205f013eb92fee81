"""Pack the training data small enough to carry to a machine that lacks `../shared/datasets`
(a lent GPU machine takes at most 64 MiB with the working tree).

    python -m training.pack --data ../shared/datasets --out .devdata/datasets [--photo-quality 75]

Writes the datasets' own layout, which `training.train --data` reads unchanged: hive-entrance
training frames at the resolution training keeps them in RAM anyway (1920x540,
`HIVE_CACHE_SCALE`; `load_hive_frame` reads either size), the bees-hornets and backyard-entrance
`train` photos and
the training pollen crops as they are. `hivesight-pack.json` names the validation files left
out, so `hive_split` and `crop_split` give the full datasets' splits. Validation runs where
the datasets are (`training.protocol`).
The pack is a working copy for one run; never commit it (choose a git-ignored folder).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from PIL import Image

from .data import BACKYARD, BH, CROPS, HIVE, PACK_NOTE, crop_split, hive_split, load_hive_frame


BACKYARD_PACK_WIDTH = 1280  # bees 45 -> 30 px: still above the deployment's 19 px


def copy_photo(src: Path, dest: Path, quality: int | None) -> None:
    """As it is, or re-encoded at `quality` where the pack must be smaller (a lent machine's limit)."""
    if quality is None:
        shutil.copy2(src, dest)
    else:
        Image.open(src).convert("RGB").save(dest, "JPEG", quality=quality, optimize=True, progressive=True)


def pack(data: Path, out: Path, quality: int, photo_quality: int | None = None) -> None:
    hive_train, _ = hive_split(data)
    crop_train, crop_val = crop_split(data)
    (out / HIVE / "images").mkdir(parents=True, exist_ok=True)
    shutil.copytree(data / HIVE / "labels", out / HIVE / "labels", dirs_exist_ok=True)
    for name in hive_train:
        # optimize and progressive only re-code the same quantised coefficients: same pixels, 5 % smaller
        load_hive_frame(data / HIVE / "images" / name).save(out / HIVE / "images" / name, "JPEG", quality=quality,
                                                            optimize=True, progressive=True)
    shutil.copytree(data / BH / "train" / "labels", out / BH / "train" / "labels", dirs_exist_ok=True)
    (out / BH / "train" / "images").mkdir(parents=True, exist_ok=True)
    for path in sorted((data / BH / "train" / "images").glob("*")):
        copy_photo(path, out / BH / "train" / "images" / path.name, photo_quality)
    # backyard's train/ (Roboflow's augmented copies) at most BACKYARD_PACK_WIDTH wide (68 MB as they
    # are); its valid/ originals stay with the datasets
    shutil.copytree(data / BACKYARD / "train" / "labels", out / BACKYARD / "train" / "labels", dirs_exist_ok=True)
    (out / BACKYARD / "train" / "images").mkdir(parents=True, exist_ok=True)
    sizes: dict[str, list[int]] = {}
    for path in sorted((data / BACKYARD / "train" / "images").glob("*.jpg")):
        with Image.open(path) as im:
            sizes[path.name] = list(im.size)
            r = min(1.0, BACKYARD_PACK_WIDTH / im.width)
            im.convert("RGB").resize((round(im.width * r), round(im.height * r)), Image.Resampling.LANCZOS).save(
                out / BACKYARD / "train" / "images" / path.name, "JPEG", quality=photo_quality or 90, optimize=True)
    for path in crop_train:
        (out / CROPS / path.parent.name).mkdir(parents=True, exist_ok=True)
        copy_photo(path, out / CROPS / path.parent.name / path.name, photo_quality)
    kept = set(hive_train)
    note = {
        "what": "training.pack of the hivesight datasets: training files only; validation runs where the datasets are",
        HIVE: [n for n in sorted(os.listdir(data / HIVE / "images")) if n not in kept],
        CROPS: sorted(f"{p.parent.name}/{p.name}" for p in crop_val),
        "sizes": {BACKYARD: sizes},
    }
    (out / PACK_NOTE).write_text(json.dumps(note, indent=1) + "\n")


def check_splits(data: Path, out: Path) -> None:
    """A pack must split exactly as its source does, or a run on it would train on validation."""
    def names(split: tuple[list[Path], list[Path]]) -> list[list[str]]:
        return [[f"{p.parent.name}/{p.name}" for p in part] for part in split]
    if hive_split(out) != hive_split(data) or names(crop_split(out)) != names(crop_split(data)):
        raise SystemExit(f"{out} does not split as {data} does: pack it again into an empty folder")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--quality", type=int, default=75, help="JPEG quality of the re-encoded hive frames")
    ap.add_argument("--photo-quality", type=int, default=None,
                    help="re-encode the bees-hornets photos and pollen crops at this JPEG quality (default: copied); "
                         "75 keeps the photos' own tables (they are quality 75) and saves 5 MB, mostly on the crops")
    a = ap.parse_args()
    if not (a.data / HIVE).is_dir():
        raise SystemExit(f"{a.data} holds no {HIVE}/: point --data at the datasets folder")
    pack(a.data, a.out, a.quality, a.photo_quality)
    check_splits(a.data, a.out)
    size = sum(p.stat().st_size for p in a.out.rglob("*") if p.is_file())
    print(f"packed {a.data} into {a.out}: {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
