"""Unit tests of the training data path (stdlib unittest; `.ci/run` runs them):

    .venv/bin/python -m unittest training.test_data
"""
from __future__ import annotations

import json
import random
import tempfile
import unittest
from pathlib import Path

import numpy as np
from PIL import Image

from .data import _photometric, colour_matrix, crop_split, frame_number, hive_split, incomplete_frames, load_extra
from .pack import check_splits, pack

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"


def stepwise(a: np.ndarray, gain: list[float], brightness: float, contrast: float, saturation: float) -> np.ndarray:
    """The colour jitter as it was written before the one-matrix form: one float pass per step."""
    a = a.astype(np.float32) * np.array(gain, np.float32) * brightness
    mean = a.mean()
    a = (a - mean) * contrast + mean
    grey = a.mean(axis=2, keepdims=True)
    a = grey + (a - grey) * saturation
    return np.clip(a, 0, 255)


def gradient_image(seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:96, 0:128]
    a = np.stack([xs * 2, ys * 2.5, (xs + ys)], 2) + rng.normal(0, 20, (96, 128, 3))
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


class ColourJitter(unittest.TestCase):
    def test_matrix_equals_the_steps(self) -> None:
        for seed in range(20):
            rng = random.Random(seed)
            im = gradient_image(seed)
            gain = [rng.uniform(0.85, 1.15) for _ in range(3)]
            args = (gain, rng.uniform(0.6, 1.4), rng.uniform(0.7, 1.3), rng.uniform(0.6, 1.4))
            means = list(np.asarray(im, np.float64).mean(axis=(0, 1)))
            fast = np.asarray(im.convert("RGB", colour_matrix(means, *args)), np.float32)
            # PIL rounds where the old path truncated: at most one level apart.
            self.assertLessEqual(float(np.abs(fast - stepwise(np.asarray(im), *args)).max()), 1.0)

    def test_same_draws_as_before(self) -> None:
        """The geometric draws after the colour jitter must not shift, so a seed's patches stay put."""
        for seed in range(30):
            rng, ref = random.Random(seed), random.Random(seed)
            out = _photometric(gradient_image(seed), rng)
            [ref.uniform(0.85, 1.15) for _ in range(6)]
            if ref.random() < 0.25:
                ref.randrange(1 << 30)
                ref.uniform(2, 10)
            if ref.random() < 0.25:
                ref.uniform(0.3, 1.5)
            if ref.random() < 0.25:
                ref.randint(25, 85)
            self.assertEqual(rng.random(), ref.random())
            self.assertEqual(out.size, (128, 96))


class IncompleteFrames(unittest.TestCase):
    def test_a_frame_labelled_far_less_than_its_neighbours(self) -> None:
        counts = [20, 19, 21, 1, 20, 22, 18, 9, 20]
        # 1 is under half of 20 (the median of 20, 19, 21, 20, 22, 18); 9 under half of 20.
        self.assertEqual(incomplete_frames(counts), [3, 7])
        # A busier or quieter stretch is not a gap in the labels.
        self.assertEqual(incomplete_frames([20, 18, 15, 12, 10, 8, 7, 6]), [])
        self.assertEqual(incomplete_frames([5]), [])

    @unittest.skipUnless((DATA / "hive-entrance").is_dir(), f"{DATA} is absent")
    def test_training_leaves_out_the_hive_frame_with_its_bees_unlabelled(self) -> None:
        train, val = hive_split(DATA)
        self.assertEqual((len(train), len(val)), (193, 50))
        self.assertNotIn(936, [frame_number(n) for n in train])
        self.assertIn(937, [frame_number(n) for n in train])


@unittest.skipUnless((DATA / "hive-entrance").is_dir(), f"{DATA} is absent: packing needs the datasets")
class Pack(unittest.TestCase):
    def test_pack_splits_as_the_datasets(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "pack"
            pack(DATA, out, 75)
            check_splits(DATA, out)  # raises when the splits differ
            train, val = hive_split(out)
            self.assertTrue(all((out / "hive-entrance" / "images" / n).exists() for n in train))
            self.assertFalse(any((out / "hive-entrance" / "images" / n).exists() for n in val))
            with Image.open(out / "hive-entrance" / "images" / train[0]) as frame:
                self.assertEqual(frame.size, (1920, 540))
            self.assertFalse(any(p.exists() for p in crop_split(out)[1]))

    def test_a_smaller_pack_re_encodes_the_photos_and_splits_the_same(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "pack"
            pack(DATA, out, 75, photo_quality=75)
            check_splits(DATA, out)
            crops = crop_split(out)[0]
            source = DATA / "pollen-crops" / crops[0].parent.name / crops[0].name
            self.assertLess(sum(p.stat().st_size for p in crops), 0.5 * sum(
                (DATA / "pollen-crops" / p.parent.name / p.name).stat().st_size for p in crops))
            with Image.open(crops[0]) as a, Image.open(source) as b:
                self.assertEqual(a.size, b.size)


def write_export(root: Path) -> Path:
    """A two-site corrections export as `hivesight dataset export` writes it (classes.txt in the
    eval's vocabulary, manifest.json naming each frame's site)."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "classes.txt").write_text("worker-bee-no-pollen\nworker-bee-pollen\ndrone-bee\nwasp\nhornet\n")
    frames = []
    for i, (site, rows) in enumerate([("a1", ["0 0.5 0.5 0.1 0.2", "3 0.2 0.2 0.1 0.1", "1 0.8 0.8 0.1 0.1"]),
                                      ("b2", ["2 0.5 0.5 0.2 0.2", "4 0.3 0.3 0.2 0.2"])]):
        Image.new("RGB", (200, 100), (90, 120, 60)).save(root / "images" / f"{site}-{i}.jpg")
        (root / "labels" / f"{site}-{i}.txt").write_text("\n".join(rows) + "\n")
        frames.append({"image": f"images/{site}-{i}.jpg", "label": f"labels/{site}-{i}.txt", "site": site})
    (root / "manifest.json").write_text(json.dumps({"format": "hivesight-corrections/1", "frames": frames}))
    return root


class ExtraFolders(unittest.TestCase):
    def test_an_export_loads_with_its_types_and_without_wasps(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            a, b = load_extra(write_export(Path(tmp) / "export"))
        self.assertEqual(a.source, "extra:export")
        self.assertEqual(a.heat_cls.tolist(), [0, 0])  # the wasp's box is dropped
        self.assertEqual(a.subtype.tolist(), [0, 1])
        self.assertEqual(b.heat_cls.tolist(), [0, 1])
        self.assertEqual(b.subtype.tolist(), [2, -1])
        np.testing.assert_allclose(a.boxes[0], [90, 40, 110, 60])

    def test_the_left_out_site_stays_out(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            kept = load_extra(write_export(Path(tmp) / "export"), leave_out_site="a1")
        self.assertEqual([s.path.name for s in kept], ["b2-1.jpg"])

    def test_a_site_view_holds_that_site_alone(self) -> None:
        from .protocol import site_view

        with tempfile.TemporaryDirectory() as tmp:
            view = site_view(write_export(Path(tmp) / "export"), "b2", Path(tmp) / "view")
            self.assertEqual(sorted(p.name for p in (view / "images").iterdir()), ["b2-1.jpg"])
            self.assertEqual((view / "labels" / "b2-1.txt").read_text().split("\n")[0], "2 0.5 0.5 0.2 0.2")
            self.assertTrue((view / "classes.txt").read_text().startswith("worker-bee-no-pollen"))

    def test_extras_share_a_quarter_of_the_draws(self) -> None:
        from .train import source_mix

        mix = source_mix({"hive-entrance": [1], "bees-hornets": [1], "extra:a": [1], "extra:b": [1]})
        self.assertAlmostEqual(sum(mix.values()), 1.0)
        self.assertAlmostEqual(mix["extra:a"] + mix["extra:b"], 0.25)
        self.assertAlmostEqual(mix["hive-entrance"] / mix["bees-hornets"], 0.33 / 0.3)


@unittest.skipUnless((DATA / "backyard-entrance").is_dir(), f"{DATA} is absent: the second camera needs the datasets")
class Backyard(unittest.TestCase):
    def test_train_holds_the_augmented_copies_and_queens_train_as_workers(self) -> None:
        from .data import BACKYARD, load_backyard

        samples = load_backyard(DATA, "train", cache=False)
        self.assertEqual(len(samples), 312)
        self.assertTrue(all(s.path.parent.parent.name == "train" for s in samples))
        classes = np.concatenate([read_classes(s.path) for s in samples])
        subtypes = np.concatenate([s.subtype for s in samples])
        self.assertEqual(int((classes == 3).sum()), 8)
        self.assertTrue((subtypes[classes == 3] == 0).all())
        self.assertEqual(int((subtypes == 1).sum()), 309)
        self.assertTrue(all((s.heat_cls == 0).all() and s.source == BACKYARD for s in samples))

    def test_a_pack_carries_train_and_leaves_valid_out(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "pack"
            pack(DATA, out, 75, 75)
            self.assertEqual(len(list((out / "backyard-entrance" / "train" / "images").glob("*.jpg"))), 312)
            self.assertFalse((out / "backyard-entrance" / "valid").exists())
            from .data import load_backyard

            packed = {s.path.name: s for s in load_backyard(out, "train")}
            for s in load_backyard(DATA, "train", cache=False)[:20]:
                p = packed[s.path.name]
                np.testing.assert_allclose(p.boxes, s.boxes, rtol=1e-5)  # original px either way
                self.assertLessEqual(p.image.width, 1280)
                self.assertAlmostEqual(p.scale, p.image.width / Image.open(s.path).width, places=6)


def read_classes(image: Path) -> np.ndarray:
    label = image.parent.parent / "labels" / (image.stem + ".txt")
    return np.array([int(line.split()[0]) for line in label.read_text().split("\n") if line.strip()], np.int64)


if __name__ == "__main__":
    unittest.main()
