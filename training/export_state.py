"""Export a run's fp16 averaged weights as they stand: those `device_run.sh` brings back when no
ONNX could (a run stopped at its timeout, or an ONNX over the 16 MiB a returned file may hold),
or the committed `training/weights/RUN.pt` of a run still going.

    python -m training.export_state --state RUN-ema-fp16.pt --out training/runs/RUN-export

Writes what `training.train` writes at its end (ONNX with its parity check, training.json), from
weights rounded to fp16: the ONNX differs from an fp32 export by that rounding alone.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import torch

from .lite_detector import LiteDetector
from .train import export


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    ck = torch.load(a.state, map_location="cpu", weights_only=False)
    net = LiteDetector(imagenet=False)
    net.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in ck["ema"].items()}, strict=True)
    export(net, a.out, {"command": ck["command"], "steps": ck["step"], "train_minutes": round(ck["wall_s"] / 60, 1),
                        "hardware": ck["hardware"], "weights": f"fp16 average from {a.state.name}"})


if __name__ == "__main__":
    main()
