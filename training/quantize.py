"""The exported detector with 8-bit weights and activations (onnxruntime static quantisation, QDQ,
per-channel weights), calibrated on training frames and photos only, and checked against the
float model on the shifted views of the hive training frames.

    python -m training.quantize --export training/runs/lite-export [--calibration 48]

Writes `hivesight-detector.int8.onnx` beside the float file and prints both models' count error
and latency; `training.protocol --onnx int8` then carries it through the product's figures.
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from .data import BH, HIVE, hive_split
from .evaluate import letterbox, onnx_infer
from .export import bench
from .protocol import honeybee_threshold, predict_folder
from .shifted_view import build as build_shifted


def calibration_inputs(data: Path, n: int, seed: int = 0) -> list[np.ndarray]:
    """Letterboxed pictures as the engine feeds them: hive training frames and bees-hornets
    training photos, half each."""
    rng = random.Random(seed)
    hive = [data / HIVE / "images" / name for name in hive_split(data)[0]]
    photos = sorted((data / BH / "train" / "images").glob("*.jpg"))
    paths = rng.sample(hive, min(n // 2, len(hive))) + rng.sample(photos, min(n - n // 2, len(photos)))
    out = []
    for p in paths:
        a, _ = letterbox(Image.open(p).convert("RGB"))
        out.append(np.ascontiguousarray(a.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0)
    return out


def decode_nodes(path: Path) -> list[str]:
    """The nodes after the head's last Conv: the decoding baked into the graph. They stay float:
    quantized, the output's one uint8 scale spans box pixels up to the input's width, so every
    score (0-1) rounds to 0 and the engine finds nothing (docs/experiments/017)."""
    import onnx
    nodes = onnx.load(str(path)).graph.node
    last = max(i for i, n in enumerate(nodes) if n.op_type == "Conv")
    return [n.name for n in nodes[last + 1:]]


def quantize(src: Path, dst: Path, inputs: list[np.ndarray]) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter({"images": x} for x in inputs)

        def get_next(self):  # type: ignore[no-untyped-def]
            return next(self.it, None)

    src, dst = src.resolve(), dst.resolve()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # onnxruntime's shape inference leaves scratch files in the working folder
        try:
            pre = Path(tmp) / "pre.onnx"
            quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
            quantize_static(str(pre), str(dst), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                            nodes_to_exclude=decode_nodes(pre))
        finally:
            os.chdir(here)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--export", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--views", type=Path, default=Path("tmp/eval/hive-shifted-train"))
    ap.add_argument("--calibration", type=int, default=48)
    a = ap.parse_args()
    src = a.export / "hivesight-detector.onnx"
    dst = a.export / "hivesight-detector.int8.onnx"
    quantize(src, dst, calibration_inputs(a.data, a.calibration))
    if not a.views.exists():
        build_shifted(a.data, a.views, split="train", views=1)
    grid = np.round(np.arange(0.1, 0.71, 0.025), 3)
    for path in (src, dst):
        preds = predict_folder(onnx_infer(str(path)), a.views)
        t, err = honeybee_threshold(preds, grid)
        print(f"{path.name}: training views' count error {100 * err:.2f} % (at {t}), "
              f"{bench(path, n=10):.1f} ms at 800x448")


if __name__ == "__main__":
    main()
