"""Predictions of an exported ONNX in Python, fed the way the engine feeds frames: scaled to fit
NOMINAL (the card's 1152x448) preserving aspect, never enlarged, padded to a multiple of 32.
Used to choose thresholds on training data (`protocol.py`); the figures themselves come from
`hivesight eval`.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from PIL import Image

# The card's input box: a hive clip's 32:9 frame is bound by the width (3840x1080 -> 1152x320),
# a 16:9 frame or a square photo by the height (1920x1080 -> 800x448).
NOMINAL = (1152, 448)


def letterbox_scale(width: int, height: int, max_upscale: float = 1.0, zoom: float = 1.0) -> float:
    # Enlarged no more than the card's input.max_upscale, like the engine; `zoom` scales the
    # nominal size as the engine's auto-zoom does.
    return min(max_upscale, zoom * NOMINAL[0] / width, zoom * NOMINAL[1] / height)


def letterbox(im: Image.Image, max_upscale: float = 1.0, zoom: float = 1.0) -> tuple[np.ndarray, float]:
    r = letterbox_scale(im.width, im.height, max_upscale, zoom)
    w, h = max(1, round(im.width * r)), max(1, round(im.height * r))
    pw, ph = (w + 31) // 32 * 32, (h + 31) // 32 * 32
    canvas = Image.new("RGB", (pw, ph), (114, 114, 114))
    canvas.paste(im.resize((w, h), Image.Resampling.BILINEAR), (0, 0))
    return np.asarray(canvas), r


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> np.ndarray:
    order = scores.argsort()[::-1]
    keep: list[int] = []
    while len(order):
        i = order[0]
        keep.append(int(i))
        rest = order[1:]
        ov = iou_one(boxes[i], boxes[rest])
        order = rest[ov < iou]
    return np.array(keep, np.int64)


def iou_one(b: np.ndarray, bs: np.ndarray) -> np.ndarray:
    x1 = np.maximum(b[0], bs[:, 0]); y1 = np.maximum(b[1], bs[:, 1])
    x2 = np.minimum(b[2], bs[:, 2]); y2 = np.minimum(b[3], bs[:, 3])
    inter = (x2 - x1).clip(0) * (y2 - y1).clip(0)
    a = (b[2] - b[0]) * (b[3] - b[1])
    ab = (bs[:, 2] - bs[:, 0]) * (bs[:, 3] - bs[:, 1])
    return inter / np.maximum(a + ab - inter, 1e-9)


def postprocess(det: np.ndarray, min_score: float = 0.05) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[4+C, N] -> boxes xyxy, score, class (argmax per column, class-wise NMS 0.5) like the engine."""
    scores = det[4:]
    cls = scores.argmax(0)
    sc = scores.max(0)
    m = sc >= min_score
    if m.sum() > 300:  # an untrained net fires everywhere; cap the work like a top-k would
        m &= sc >= np.sort(sc)[-300]
    cx, cy, w, h = det[0, m], det[1, m], det[2, m], det[3, m]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    sc, cls = sc[m], cls[m]
    keep_all = []
    for c in np.unique(cls):
        idx = np.where(cls == c)[0]
        keep_all.append(idx[nms(boxes[idx], sc[idx])])
    k = np.concatenate(keep_all) if keep_all else np.zeros(0, np.int64)
    return boxes[k], sc[k], cls[k]


# An inference function maps an NCHW float32 batch of one image to `detections` [1, 4+C, N].
Infer = Callable[[np.ndarray], np.ndarray]


def onnx_infer(path: str) -> Infer:
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    return lambda x: sess.run(None, {"images": x})[0]
