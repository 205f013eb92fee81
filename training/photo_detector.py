"""Name an exported detector as the one the card's test-time views run in its place (photos).

    python -m training.photo_detector --export tmp/s4d-swa-export/ --score 0.225 \
        --file hivesight-detector-photo.onnx --card models/hivesight-detector.card.json

Copies the export's ONNX beside the card and writes `test_time_augmentation.detector`: on the
media the views run on (photos) the engine runs it instead of the card's detector, at its own
default `score` (the card's `per_class` thresholds still apply); video frames keep the card's
detector and score. It must be an export read exactly as the card's detector is (same input,
normalisation and output layout): a wider network than every video frame can pay for.
"""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from .specialist import check_same_reading, provenance

# Its file beside the card unless --file says otherwise (product_eval names it so too).
DEFAULT_FILE = "hivesight-detector-photo.onnx"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--export", type=Path, required=True, help="folder from training.export")
    ap.add_argument("--file", default=DEFAULT_FILE, help="its file name beside the card")
    ap.add_argument("--card", type=Path, default=Path("models/hivesight-detector.card.json"))
    ap.add_argument("--score", type=float, default=None,
                    help="its default score threshold (default: the card's thresholds.score)")
    ap.add_argument("--selection", default="", help="why it was chosen, for the card")
    a = ap.parse_args()
    card = json.loads(a.card.read_text())
    theirs = json.loads((a.export / "hivesight-detector.card.json").read_text())
    check_same_reading(card, theirs)
    tta = card.get("test_time_augmentation")
    if not tta:
        raise SystemExit(f"{a.card} has no test_time_augmentation: it names the media this runs on")
    if a.score is not None and not 0 <= a.score <= 1:
        raise SystemExit("--score must be in [0, 1]")
    if a.file == card["file"]:
        raise SystemExit(f"--file {a.file} is the card's own detector")
    shutil.copy(a.export / theirs["file"], a.card.parent / a.file)
    tta["detector"] = {
        "file": a.file,
        **({"score": a.score} if a.score is not None else {}),
        **({"selection": a.selection} if a.selection else {}),
        **provenance(theirs),
    }
    a.card.write_text(json.dumps(card, indent=2) + "\n")
    print(f"copied {a.file} beside {a.card}: test_time_augmentation.detector for {tta['media']}")


if __name__ == "__main__":
    main()
