"""The model card training writes matches the engine's schema (python -m unittest training.test_card)."""
from __future__ import annotations

import copy
import json
import tempfile
import unittest
from pathlib import Path

from . import card as card_mod

MODELS = Path(__file__).resolve().parent.parent / "models"


class CardTest(unittest.TestCase):
    def build(self) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            export = Path(tmp)
            (export / "training.json").write_text(json.dumps({"command": "python -m training.train", "steps": 3}))
            return card_mod.build(export, "1.0.0", 0.3, 0.4, {"hive_ap50_bee": 0.8})

    def test_a_built_card_is_written_and_matches_the_schema(self) -> None:
        card = self.build()
        card["thresholds"]["alert"] = {"hornet": 0.5}  # training.protocol adds it
        with tempfile.TemporaryDirectory() as tmp:
            onnx = Path(tmp) / "net.onnx"
            onnx.write_bytes(b"onnx")
            path = card_mod.write(onnx, Path(tmp) / "out", card)
            self.assertEqual(json.loads(path.read_text()), card)
            self.assertEqual((path.parent / card["file"]).read_bytes(), b"onnx")

    def test_the_committed_cards_match_the_schema(self) -> None:
        cards = sorted(MODELS.glob("*.card.json"))
        self.assertTrue(cards)
        for path in cards:
            card_mod.validate(json.loads(path.read_text()))

    def test_a_bad_card_is_refused_with_every_field_named_and_nothing_written(self) -> None:
        card = copy.deepcopy(self.build())
        card["file"] = "net.pt"
        card["classes"] = ["bee", "moth"]
        card["input"]["width"] = -1
        card["thresholds"]["per_class"] = {"moth": 0.3, "hornet": 1.5}
        del card["normalization"]
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            with self.assertRaises(card_mod.CardError) as raised:
                card_mod.write(Path(tmp) / "net.onnx", out, card)
            self.assertFalse(out.exists())
        message = str(raised.exception)
        self.assertIn("does not match models/card.schema.json", message)
        for problem in ["card: 'normalization' is a required property", "file: 'net.pt' does not match",
                        "classes[1]: 'moth' is not valid", "input.width: -1 is less than the minimum of 1",
                        "thresholds.per_class: 'moth' is not one of", "thresholds.per_class.hornet: 1.5 is greater"]:
            self.assertIn(problem, message)


class ZoomTest(unittest.TestCase):
    """protocol.zoom_for, the engine's auto-zoom (engine/detection/zoom.ts) on one first pass."""

    @staticmethod
    def bees(size: float, n: int, score: float = 0.9) -> tuple:
        import numpy as np
        boxes = np.array([[10.0 * i, 0.0, 10.0 * i + size, size] for i in range(n)], np.float32)
        return boxes, np.full(n, score, np.float32), np.zeros(n, np.int64)

    def test_small_bees_are_zoomed_to_the_learnt_size_within_the_bounds(self) -> None:
        from .protocol import zoom_for
        zoom = card_mod.AUTO_ZOOM
        self.assertAlmostEqual(zoom_for(*self.bees(20.3, 6), 0.3, zoom), 2.0)
        self.assertEqual(zoom_for(*self.bees(10, 6), 0.3, zoom), zoom["max"])
        self.assertAlmostEqual(zoom_for(*self.bees(27.0, 6), 0.3, zoom), 40.6 / 27.0)

    def test_bees_near_the_size_or_larger_too_few_or_too_faint_are_left_alone(self) -> None:
        from .protocol import zoom_for
        zoom = card_mod.AUTO_ZOOM
        self.assertEqual(zoom_for(*self.bees(36, 6), 0.3, zoom), 1.0)  # within the tolerance
        self.assertEqual(zoom_for(*self.bees(90, 6), 0.3, zoom), 1.0)  # never zoomed out (min 1)
        self.assertEqual(zoom_for(*self.bees(20, 3), 0.3, zoom), 1.0)  # fewer than min_insects
        self.assertEqual(zoom_for(*self.bees(20, 6, score=0.2), 0.3, zoom), 1.0)  # under the score


if __name__ == "__main__":
    unittest.main()
