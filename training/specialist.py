"""Name an exported detector as the card's test-time specialist for some classes.

    python -m training.specialist --export tmp/bhmix-export/ --classes hornet \
        --file hivesight-hornet.onnx --card models/hivesight-detector.card.json \
        [--views identity,flip_h,flip_v,rotate_180]

Copies the export's ONNX beside the card and writes `test_time_augmentation.specialist`: on the
media the test-time views run on (photos), the engine runs it on its own views (`--views`;
default the card's) and takes its fused candidates for `classes` instead of the card's
detector's. A specialist is a network of the
card's own export (same input, normalisation and output layout; its channels may differ, as
0.9.1's `--arch deep-wide`) trained with more of those classes' data, which lost the others: it
answers only for its classes.
"""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path


def check_same_reading(card: dict, theirs: dict) -> None:
    """The engine reads a second network of the card with the card's own input, normalisation and
    output sections: an export that differs in them cannot take its place. (`input.auto_zoom` is
    the engine's choice of scale for a whole file, not how a network reads its tensor.)"""
    engine_side = ("sizing", "selection", "auto_zoom")
    for key in ("input", "normalization", "output"):
        mine = {k: v for k, v in card[key].items() if k not in engine_side}
        other = {k: v for k, v in theirs[key].items() if k not in engine_side}
        if mine != other:
            raise SystemExit(f"the export's {key} differs from the card's: it must read the same")


def provenance(theirs: dict) -> dict:
    """What a card section naming an export records of it: how it was trained, its own figures."""
    return {
        "training": theirs.get("training", {}),
        "metrics": {"training_val": theirs.get("metrics", {}).get("training_val", {})},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--export", type=Path, required=True, help="folder from training.export")
    ap.add_argument("--classes", required=True, help="detector classes, e.g. hornet")
    ap.add_argument("--file", default="hivesight-hornet.onnx", help="its file name beside the card")
    ap.add_argument("--card", type=Path, default=Path("models/hivesight-detector.card.json"))
    ap.add_argument("--views", default="", help="its own test-time views, identity first "
                    "(engine/detection/test-time.ts); default: the card's views")
    a = ap.parse_args()
    card = json.loads(a.card.read_text())
    theirs = json.loads((a.export / "hivesight-detector.card.json").read_text())
    classes = [c for c in a.classes.split(",") if c]
    # The classes the bee-type classifier splits are decoded as one honeybee score (as the engine
    # checks when it reads the card).
    split = card.get("subtype_classifier", {}).get("classes", [])
    for c in classes:
        if c not in card["classes"] or c in split:
            raise SystemExit(f"--classes: {c!r} is not a detector class outside the honeybee group")
    check_same_reading(card, theirs)
    tta = card.get("test_time_augmentation")
    if not tta:
        raise SystemExit(f"{a.card} has no test_time_augmentation: a specialist runs on its views")
    views = [v for v in a.views.split(",") if v]
    if views and views[0] != "identity":
        raise SystemExit("--views: the first view must be identity")
    shutil.copy(a.export / theirs["file"], a.card.parent / a.file)
    tta["specialist"] = {
        "file": a.file,
        "classes": classes,
        **({"views": views} if views else {}),
        **provenance(theirs),
    }
    a.card.write_text(json.dumps(card, indent=2) + "\n")
    print(f"copied {a.file} beside {a.card}: test_time_augmentation.specialist for {classes}")


if __name__ == "__main__":
    main()
