"""A YOLOv8n-architecture ONNX with random weights, as a yardstick for the detector's CPU cost in
`npm run bench:engine`. Nothing is downloaded and nothing ships: the network is built from
ultralytics' own yolov8n.yaml and exported with its decoding, at a dynamic input size.

    .venv/bin/pip install --no-deps ultralytics && \\
      .venv/bin/pip install opencv-python-headless pyyaml psutil requests tqdm pandas matplotlib
    .venv/bin/python -m training.yolov8n_reference [--out tmp/bench/yolov8n.onnx]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import torch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("tmp/bench/yolov8n.onnx"))
    ap.add_argument("--classes", type=int, default=4, help="as many classes as the detector")
    a = ap.parse_args()
    # ultralytics reads torchvision's version at import, but building and exporting a network
    # needs none of it (and torchvision does not install here): answer for it.
    import importlib.metadata as metadata
    real_version = metadata.version
    metadata.version = lambda name: "0.0.0" if name == "torchvision" else real_version(name)
    from ultralytics.nn.tasks import DetectionModel  # only here: not a training requirement

    torch.manual_seed(0)
    net = DetectionModel("yolov8n.yaml", nc=a.classes, verbose=False).eval()
    for m in net.modules():
        if hasattr(m, "export"):
            m.export = True  # the head returns the decoded [1, 4 + C, N] tensor, as ours does
    a.out.parent.mkdir(parents=True, exist_ok=True)
    x = torch.rand(1, 3, 448, 800)
    with torch.no_grad():
        net(x)
        torch.onnx.export(net, (x,), str(a.out), input_names=["images"], output_names=["detections"],
                          opset_version=17, dynamo=False,
                          dynamic_axes={"images": {2: "height", 3: "width"}, "detections": {2: "anchors"}})
    params = sum(p.numel() for p in net.parameters())
    print(f"{a.out}: YOLOv8n architecture, {params:,} parameters, random weights")


if __name__ == "__main__":
    main()
