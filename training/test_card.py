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
        card["thresholds"]["alert"] = {"hornet": 0.5}  # training.protocol adds it; the engine ignores it
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


if __name__ == "__main__":
    unittest.main()
