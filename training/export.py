"""The ONNX export with its parity check, and the latency of an exported file."""
from __future__ import annotations

import copy
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn


def export_decoding(model: nn.Module, reference: nn.Module, path: Path) -> None:
    """Export `model` (images -> the card's `detections` layout) with dynamic H/W, checked
    against what `reference` answers in torch."""
    x = torch.rand(1, 3, 544, 960)
    with torch.no_grad():
        ref = reference(x).numpy()
    # The legacy exporter mutates modules it traces, so export a throwaway copy.
    torch.onnx.export(copy.deepcopy(model), (x,), str(path), input_names=["images"], output_names=["detections"],
                      opset_version=17, dynamo=False,
                      dynamic_axes={"images": {0: "batch", 2: "height", 3: "width"},
                                    "detections": {0: "batch", 2: "anchors"}})
    import onnxruntime as ort
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    out = sess.run(None, {"images": x.numpy()})[0]
    # Peak selection (==) can flip on float noise, so compare the box rows only.
    # Folding BN reorders float sums; where a layer's statistics are small (weights averaged by
    # training.average and BN re-measured, say) the noise input here amplifies that rounding. A
    # twentieth of a pixel per thousand pixels of box coordinate is far below what a box needs.
    err = float(np.abs(out[:, :4] - ref[:, :4]).max())
    tol = 5e-5 * max(1000.0, float(np.abs(ref[:, :4]).max()))
    if err > tol:
        raise RuntimeError(f"ONNX output differs from torch by {err} (tolerance {tol:.3f})")


def bench(path: Path, h: int = 448, w: int = 800, n: int = 30) -> float:
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    x = np.random.rand(1, 3, h, w).astype(np.float32)
    for _ in range(5):
        sess.run(None, {"images": x})
    times = []
    for _ in range(n):
        t = time.perf_counter()
        sess.run(None, {"images": x})
        times.append((time.perf_counter() - t) * 1000)
    return float(np.median(times))
