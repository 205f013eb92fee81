"""Run the product's own evaluation (`node bin/hivesight.mjs eval --json`) on the validation data
and optionally write the numbers into a model card under `metrics.product_eval`.

    python -m training.product_eval --card models/hivesight-detector.card.json [--data ../shared/datasets]
                                    [--write] [--threads 1] [--out tmp/peval/NAME.json] [--errors]
    # a candidate detector with the shipped classifiers, refiner, card and thresholds; --one-view
    # measures what a video frame gets (one view, the 48 px classifier, the hornet refiner)
    python -m training.product_eval --detector tmp/run-export/hivesight-detector.onnx [--one-view]
    # a candidate for the photos' specialist (card test_time_augmentation.specialist)
    python -m training.product_eval --specialist tmp/run-export/hivesight-detector.onnx
    # a candidate for the photos' own detector (test_time_augmentation.detector) and its score
    python -m training.product_eval --photo-detector tmp/run-export/hivesight-detector.onnx [--photo-score 0.225]

Datasets: the hive-entrance validation split (hard-link view from make_eval_view),
bees-hornets/valid, the whole pollen-crops folder (what tests/e2e/model-accuracy.test.ts gates;
80% of it is training data) and a view of the held-out 20% of the crops.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .make_eval_view import build, build_crops
from .photo_detector import DEFAULT_FILE as PHOTO_DETECTOR_FILE

ROOT = Path(__file__).resolve().parent.parent


def run_eval(dataset: Path, card: Path, threads: int, block: int | None = None,
             baseline: Path | None = None, errors: bool = False) -> dict[str, Any]:
    """`block`: also bootstrap intervals, resampling runs of that many consecutive images;
    `baseline`: also that model on the same images, and each figure's change (paired);
    `errors`: also where the errors are (`hivesight eval --errors`)."""
    cmd = ["node", str(ROOT / "bin/hivesight.mjs"), "eval", str(dataset), "--json", "--model", str(card)]
    if threads > 0:
        cmd += ["--threads", str(threads)]
    if block is not None:
        cmd += ["--block", str(block)]
    if baseline is not None:
        cmd += ["--baseline", str(baseline)]
    if errors:
        cmd.append("--errors")
    t = time.time()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise SystemExit(f"eval failed on {dataset} (exit {r.returncode}):\n{r.stderr[-2000:]}")
    rep = json.loads(r.stdout)
    rep["_seconds"] = round(time.time() - t, 1)
    return rep


def summarise(rep: dict[str, Any]) -> dict[str, Any]:
    def r4(v: Any) -> Any:
        return round(v, 4) if isinstance(v, float) else v
    out: dict[str, Any] = {"images": rep.get("images")}
    if rep.get("kind") == "crops":
        out["accuracy"] = r4(rep.get("accuracy"))
    else:
        out["count_error_pct"] = r4(rep.get("count_error_pct"))
    out["classes"] = {c: {k: r4(v) for k, v in m.items()} for c, m in rep.get("classes", {}).items()}
    for key in ("intervals", "baseline", "errors"):
        if rep.get(key):
            out[key] = json.loads(json.dumps(rep[key]), parse_float=lambda v: round(float(v), 4))
    if (rep.get("auto_zoom") or {}).get("zoomed"):  # images detected again at another scale
        out["auto_zoom"] = {k: r4(v) for k, v in rep["auto_zoom"].items()}
    if rep.get("notes"):
        out["notes"] = rep["notes"]
    return out


def candidate_card(card: Path, detector: Path | None, one_view: bool, into: Path,
                   specialist: Path | None = None, photo_detector: Path | None = None,
                   photo_score: float | None = None, auto_zoom: dict[str, Any] | None = None) -> Path:
    """A copy of the card's folder in `into`, the detector's ONNX swapped for `detector` (the
    photos' specialist for `specialist`, the photos' own detector for `photo_detector`, its score
    for `photo_score`), `input.auto_zoom` set to `auto_zoom` ({} drops it) and, for `one_view`,
    the photo-only test-time section dropped (photos are then seen as video frames)."""
    for f in card.parent.iterdir():
        if f.suffix == ".onnx":
            shutil.copy(f, into / f.name)
    data = json.loads(card.read_text())
    if detector is not None:
        shutil.copy(detector, into / data["file"])
    if specialist is not None:
        named = data.get("test_time_augmentation", {}).get("specialist")
        if named is None:
            raise SystemExit(f"--specialist: {card} names no test_time_augmentation.specialist")
        shutil.copy(specialist, into / named["file"])
    if photo_detector is not None or photo_score is not None:
        tta = data.get("test_time_augmentation")
        if tta is None:
            raise SystemExit(f"--photo-detector / --photo-score: {card} has no test_time_augmentation "
                             "(the media a photo detector runs on)")
        named = tta.get("detector")
        if named is None:
            if photo_detector is None:
                raise SystemExit(f"--photo-score: {card} names no test_time_augmentation.detector; "
                                 "give --photo-detector too")
            # The card as training.photo_detector would write it.
            named = tta["detector"] = {"file": PHOTO_DETECTOR_FILE}
        if photo_detector is not None:
            shutil.copy(photo_detector, into / named["file"])
        if photo_score is not None:
            named["score"] = photo_score
    if auto_zoom is not None:
        data["input"].pop("auto_zoom", None)
        if auto_zoom:
            data["input"]["auto_zoom"] = auto_zoom
    if one_view:
        data.pop("test_time_augmentation", None)
    out = into / card.name
    out.write_text(json.dumps(data, indent=2) + "\n")
    return out


def block_for(name: str, hive_block: int) -> int:
    """Bootstrap run length, in images, of a set: hive frames in runs of `hive_block`; the zoom
    views keep the frames' order (two windows a frame in, two or four frames an image out)."""
    if name == "hive_entrance_val":
        return hive_block
    if name.startswith("zoom_in"):
        return 2 * hive_block
    if name.startswith("zoom_out"):
        return max(1, hive_block // 2)
    if name.startswith("portrait"):
        return hive_block
    return 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--card", type=Path, default=Path("models/hivesight-detector.card.json"))
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--views", type=Path, default=Path("tmp/eval"))
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--write", action="store_true", help="write metrics.product_eval into the card")
    ap.add_argument("--out", type=Path, default=None, help="also save the raw reports here")
    ap.add_argument("--detector", type=Path, default=None,
                    help="this detector ONNX in the card's place (in a copy; the card stays)")
    ap.add_argument("--specialist", type=Path, default=None,
                    help="this ONNX in the place of the card's photo specialist (in a copy)")
    ap.add_argument("--photo-detector", type=Path, default=None,
                    help="this ONNX in the place of the card's photo detector (in a copy)")
    ap.add_argument("--photo-score", type=float, default=None,
                    help="this default score for the card's photo detector (in a copy)")
    ap.add_argument("--one-view", action="store_true",
                    help="as video frames: no test-time views, detail classifier, crop views")
    ap.add_argument("--baseline", type=Path, default=None, metavar="CARD",
                    help="also score this model (e.g. the shipped card) on the same images: each figure's "
                         "change with a paired 95%% interval, hive frames in runs of --intervals (or 10)")
    ap.add_argument("--intervals", type=int, default=None, metavar="FRAMES",
                    help="also 95%% bootstrap intervals: hive frames resampled in runs of FRAMES consecutive "
                         "frames (e.g. 10; one still drone fills 35 of the 50 validation frames), photos one by one")
    ap.add_argument("--auto-zoom", type=json.loads, default=None, metavar="JSON",
                    help="this input.auto_zoom in the card's copy ('{}' drops it), e.g. "
                         "'{\"insect_px\": 38.7, \"quantile\": 0.75, \"min_insects\": 4, \"tolerance\": 1.25, "
                         "\"min\": 0.5, \"max\": 2}'")
    ap.add_argument("--errors", action="store_true",
                    help="also where the errors are on each set (hivesight eval --errors): labels found, typed "
                         "as another class, scored low, poorly boxed or missed; detections on nothing")
    ap.add_argument("--zoom-views", type=Path, default=None, metavar="DIR",
                    help="also the views training.zoom_view wrote there (bees larger or smaller than in training)")
    a = ap.parse_args()
    swapped = any(x is not None for x in (a.detector, a.specialist, a.photo_detector, a.photo_score, a.auto_zoom))
    if (swapped or a.one_view or a.baseline is not None) and a.write:
        raise SystemExit("--write records the card's own models; drop --detector / --specialist / "
                         "--photo-detector / --photo-score / --one-view / --baseline")
    hive_view, crop_view = a.views / "hive-entrance-val", a.views / "pollen-crops-val"
    build(a.data, hive_view, None)
    build_crops(a.data, crop_view)
    sets = {
        "hive_entrance_val": hive_view,
        "bees_hornets_valid": a.data / "bees-hornets" / "valid",
        "pollen_crops_all": a.data / "pollen-crops",
        "pollen_crops_val": crop_view,
    }
    if a.one_view:  # crops are photos; a video frame is never one bee
        del sets["pollen_crops_all"], sets["pollen_crops_val"]
    if a.zoom_views is not None:
        for view in sorted(p for p in a.zoom_views.iterdir() if (p / "images").is_dir()):
            sets[view.name.replace("-", "_")] = view
    with tempfile.TemporaryDirectory(prefix="hivesight-candidate-") as scratch:
        card = a.card.resolve()
        if swapped or a.one_view:
            card = candidate_card(card, a.detector, a.one_view, Path(scratch), a.specialist,
                                  a.photo_detector, a.photo_score, a.auto_zoom)
        hive_block = a.intervals if a.intervals is not None else 10 if a.baseline is not None else None
        blocks = {k: None if hive_block is None else block_for(k, hive_block) for k in sets}
        baseline = a.baseline.resolve() if a.baseline is not None else None
        if baseline is not None and a.one_view:  # both seen as video frames
            (Path(scratch) / "baseline").mkdir()
            baseline = candidate_card(baseline, None, True, Path(scratch) / "baseline")
        raw = {k: run_eval(v, card, a.threads, blocks[k], baseline, a.errors) for k, v in sets.items()}
    for k, v in raw.items():
        print(k, f"({v['_seconds']} s):", json.dumps(summarise(v)))
    if a.out is not None:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(raw, indent=2) + "\n")
    if a.write:
        card = json.loads(a.card.read_text())
        pe: dict[str, Any] = {k: summarise(v) for k, v in raw.items()}
        pe["command"] = ("node bin/hivesight.mjs eval DATASET --json (via python -m training.product_eval); "
                         "AP50 at a 0.01 score floor, precision/recall/count error at the card's thresholds")
        pe["note"] = ("pollen_crops_all is the whole folder the e2e test gates, 80% of it training crops; "
                      "pollen_crops_val is the held-out 20% (last by id). A crop with no honeybee detection "
                      "above the card threshold counts as wrong.")
        if a.intervals is not None:
            pe["intervals_note"] = (
                "95% percentile bootstrap, 1,000 seeded resamples (hivesight eval --intervals): hive frames "
                f"in runs of {a.intervals} consecutive frames (the 50 are consecutive frames of one clip, where "
                "one still drone fills 35 of them, so even runs understate the spread), photos and crops one by one")
        pe["date"] = time.strftime("%Y-%m-%d", time.gmtime())
        card.setdefault("metrics", {})["product_eval"] = pe
        a.card.write_text(json.dumps(card, indent=2) + "\n")
        print(f"wrote metrics.product_eval into {a.card}")


if __name__ == "__main__":
    main()
