"""The detector's trunk, decoding, export and training patches (python -m unittest training.test_model)."""
from __future__ import annotations

import random
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

from .augment import mosaic, paste, Insect
from .effnet import EfficientNetLite0, pretrained, weights_path
from .export import export_decoding
from .lite_detector import Exported, LiteDetector, decode_typed
from .model import HEAD_CHANNELS, STRIDE
from .slim_wheel import slim_state


class TrunkTest(unittest.TestCase):
    def test_imagenet_weights_load_strictly(self) -> None:
        state = torch.load(weights_path(), map_location="cpu", weights_only=True)
        net = EfficientNetLite0()
        missing, unexpected = net.load_state_dict(state, strict=False)
        self.assertEqual((missing, unexpected), ([], []))
        self.assertEqual(sum(p.numel() for p in net.parameters()), 4_652_008)

    def test_a_pretrained_trunk_is_not_a_random_one(self) -> None:
        torch.manual_seed(0)
        x = torch.rand(1, 3, 224, 224) * 2 - 1
        a, b = pretrained().eval(), EfficientNetLite0().eval()
        with torch.no_grad():
            self.assertFalse(torch.allclose(a(x), b(x)))


class CommittedWeightsTest(unittest.TestCase):
    def test_a_new_machine_warm_starts_from_the_committed_weights(self) -> None:
        from .train import Ema, slim, warm_start

        torch.manual_seed(0)
        net = LiteDetector(imagenet=False)
        ema = Ema(net, 0.999)
        opt = torch.optim.AdamW(net.parameters())
        ck = {"model": net.state_dict(), "ema": ema.net.state_dict(), "opt": opt.state_dict(), "step": 4200,
              "wall_s": 6000.0, "command": "c", "args": {}, "hardware": "h"}
        small = slim(ck)
        self.assertNotIn("opt", small)
        self.assertTrue(all(v.dtype != torch.float32 for v in small["model"].values()))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "w.pt"
            torch.save(small, path)
            fresh, fresh_ema = LiteDetector(imagenet=False), LiteDetector(imagenet=False)
            self.assertEqual(warm_start(path, fresh, fresh_ema), (4200, 6000.0))
        w = net.state_dict()["head.1.weight"]
        self.assertTrue(torch.allclose(fresh.state_dict()["head.1.weight"], w, atol=1e-3))
        self.assertEqual(fresh_ema.state_dict()["head.1.weight"].dtype, torch.float32)


class SlimWheelTest(unittest.TestCase):
    def test_the_slim_weights_give_the_detector_the_same_start(self) -> None:
        import io
        import zlib

        raw = weights_path().read_bytes()
        slim = slim_state(raw)
        torch.manual_seed(0)
        a = LiteDetector(imagenet=True).state_dict()
        net = LiteDetector(imagenet=False)
        trunk = EfficientNetLite0()
        trunk.load_state_dict(torch.load(io.BytesIO(slim), weights_only=True), strict=True)
        net._conv_stem, net._bn0 = trunk._conv_stem, trunk._bn0
        net.blocks = torch.nn.ModuleList(list(trunk._blocks)[: len(net.blocks)])
        b = net.state_dict()
        trunk_keys = [k for k in a if k.startswith(("_conv_stem", "_bn0", "blocks."))]
        self.assertGreater(len(trunk_keys), 200)
        self.assertTrue(all(torch.equal(a[k], b[k]) for k in trunk_keys))
        self.assertFalse(torch.load(io.BytesIO(slim), weights_only=True)["_fc.weight"].any())
        self.assertLess(len(zlib.compress(slim, 6)), 0.55 * len(zlib.compress(raw, 6)))


class DecodeTest(unittest.TestCase):
    def test_a_honeybee_scores_its_heat_under_its_most_likely_type_alone(self) -> None:
        raw = torch.full((1, HEAD_CHANNELS, 4, 4), -10.0)
        raw[0, 0, 1, 2] = 2.0  # a honeybee peak at row 1, column 2
        raw[0, 2:5, 1, 2] = torch.tensor([0.1, 0.3, 0.2])  # pollen most likely
        raw[0, 5:7, 1, 2] = torch.tensor([0.25, -0.25])  # offset in cells
        raw[0, 7:9, 1, 2] = torch.log(torch.tensor([3.0, 2.0]))  # 3 x 2 cells
        out = decode_typed(raw)[0]  # [8, 16]
        i = 1 * 4 + 2
        heat = float(torch.sigmoid(torch.tensor(2.0)))
        self.assertAlmostEqual(float(out[5, i]), heat, places=5)  # pollen
        self.assertEqual(float(out[4, i]), 0.0)  # bee
        self.assertEqual(float(out[6, i]), 0.0)  # drone
        self.assertAlmostEqual(float(out[0, i]), (2.5 + 0.25) * STRIDE, places=4)
        self.assertAlmostEqual(float(out[1, i]), (1.5 - 0.25) * STRIDE, places=4)
        self.assertAlmostEqual(float(out[2, i]), 3 * STRIDE, places=4)
        self.assertAlmostEqual(float(out[3, i]), 2 * STRIDE, places=4)
        # A cell beside the peak is not a peak: no honeybee score at all.
        self.assertEqual(float(out[4:7, i + 1].max()), 0.0)


class ExportTest(unittest.TestCase):
    def test_onnx_matches_torch_at_any_size(self) -> None:
        import onnxruntime as ort
        torch.manual_seed(0)
        net = LiteDetector(imagenet=False).eval()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "d.onnx"
            export_decoding(Exported(net).eval(), Exported(net).eval(), path)  # raises past tolerance
            sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
            x = torch.rand(1, 3, 224, 320)
            with torch.no_grad():
                ref = Exported(net)(x).numpy()
            out = sess.run(None, {"images": x.numpy()})[0]
            self.assertEqual(out.shape, (1, 8, (224 // STRIDE) * (320 // STRIDE)))
            np.testing.assert_allclose(out[:, :4], ref[:, :4], atol=1e-2)


class PatchTest(unittest.TestCase):
    def test_mosaic_places_each_tile_and_its_boxes(self) -> None:
        tiles = []
        for k in range(4):
            a = np.full((32, 32, 3), k * 60, np.uint8)
            tiles.append((a, np.array([[2, 2, 10, 10]], np.float32), np.array([0]), np.array([k % 3]),
                          np.zeros((0, 4), np.float32), np.zeros(0, np.int64)))
        a, b, hc, st, ib, _ = mosaic(tiles, 64)
        self.assertEqual(a.shape, (64, 64, 3))
        self.assertEqual(int(a[40, 40, 0]), 180)
        np.testing.assert_allclose(b[3], [34, 34, 42, 42])
        self.assertEqual(list(st), [0, 1, 2, 0])
        self.assertEqual(ib.shape, (0, 4))

    def test_pasted_insects_add_labels_clear_of_the_others(self) -> None:
        from PIL import Image
        bank = [Insect(Image.new("RGB", (40, 40), (200, 150, 0)), 1, -1, 34.0)]
        base = (np.zeros((256, 256, 3), np.uint8), np.array([[0, 0, 60, 60]], np.float32), np.array([0]),
                np.array([0]), np.zeros((0, 4), np.float32), np.zeros(0, np.int64))
        for seed in range(5):
            a, b, hc, st, _, _ = paste(base, bank, random.Random(seed))
            self.assertEqual(len(b), len(hc))
            self.assertTrue((hc[1:] == 1).all() and (st[1:] == -1).all())
            for box in b[1:]:  # clear of the labelled bee
                self.assertTrue(box[0] >= 60 or box[1] >= 60 or box[2] <= 0 or box[3] <= 0)


if __name__ == "__main__":
    unittest.main()
