"""Rebuild a trainable `Detector` checkpoint from an exported ONNX file (BatchNorm already folded).

    python -m training.from_onnx --onnx models/hivesight-detector.onnx --out training/checkpoints/shipped.pt
                                 [--data ../shared/datasets] [--no-calibrate]

The export folds every BatchNorm into the conv before it, so the ONNX holds, per conv_bn,
a conv weight W' and bias b'. The rebuilt module keeps the torch layout (conv without bias,
then BatchNorm) and puts W' into the conv. The BatchNorm is then set so that the eval-mode
output is exactly W'x + b':

- plain:      weight 1, bias b', running_mean 0, running_var 1 - eps.
- calibrated (default, when the --data folder exists): the per-channel mean m and std s of W'x are
  measured on a batch of real training patches, and the BatchNorm gets running_mean m,
  running_var s^2 - eps (the measured variance), weight s, bias b' + m. Eval output is the same function
  ((W'x - m) / s * s + b' + m), but in *train* mode, where BatchNorm normalises with batch
  statistics, the network now also computes (almost) the same function. With the plain
  setting every channel would be rescaled to unit variance in the first training step, which
  throws most of the warm start away.

Initializers are matched to modules by name (the exporter keeps `net.<module>.0.weight`), in
graph order, and every shape is checked. The result is verified: ExportModel(torch) vs
onnxruntime on a random 544x960 input (box rows within 1e-3, score rows reported).
The checkpoint has the keys train.py's --init and export.py read: model, epoch, command, val.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from .model import Detector, ExportModel, arch_of


def conv_bn_pairs(net: Detector) -> dict[str, tuple[nn.Conv2d, nn.BatchNorm2d | None]]:
    """Module path of every conv (as the exporter names it, minus 'net.') -> (conv, its BN or None)."""
    out: dict[str, tuple[nn.Conv2d, nn.BatchNorm2d | None]] = {}
    for name, mod in net.named_modules():
        if isinstance(mod, nn.Sequential) and len(mod) >= 2 and isinstance(mod[0], nn.Conv2d) \
                and isinstance(mod[1], nn.BatchNorm2d):
            out[f"{name}.0"] = (mod[0], mod[1])
    for name, mod in net.named_modules():
        if isinstance(mod, nn.Conv2d) and name not in out:
            out[name] = (mod, None)  # the final head conv has its own bias and no BN
    return out


def onnx_convs(path: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(module path, weight, bias) for every Conv node, in graph order."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    convs = []
    for node in m.graph.node:
        if node.op_type != "Conv":
            continue
        wname, bname = node.input[1], node.input[2] if len(node.input) > 2 else ""
        if wname not in inits:
            raise ValueError(f"conv {node.name}: weight {wname} is not an initializer")
        w = inits[wname]
        b = inits[bname] if bname in inits else np.zeros(w.shape[0], np.float32)
        mod = wname[len("net."):] if wname.startswith("net.") else wname
        mod = mod[: -len(".weight")] if mod.endswith(".weight") else mod
        convs.append((mod, w, b))
    return convs


def rebuild(onnx_path: Path) -> Detector:
    convs = onnx_convs(onnx_path)
    net = Detector(**arch_of({f"{mod}.weight": torch.from_numpy(np.array(w)) for mod, w, _ in convs})).eval()
    pairs = conv_bn_pairs(net)
    if len(convs) != len(pairs):
        raise ValueError(f"ONNX has {len(convs)} convs, Detector has {len(pairs)}")
    seen = set()
    with torch.no_grad():
        for mod, w, b in convs:
            if mod not in pairs:
                raise ValueError(f"ONNX conv {mod} has no matching module in Detector")
            conv, bn = pairs[mod]
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"{mod}: shape {w.shape} != {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            if bn is None:
                assert conv.bias is not None and conv.bias.shape[0] == b.shape[0]
                conv.bias.copy_(torch.from_numpy(np.array(b)))
            else:
                bn.weight.fill_(1.0)
                bn.bias.copy_(torch.from_numpy(np.array(b)))
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
            seen.add(mod)
    missing = set(pairs) - seen
    if missing:
        raise ValueError(f"modules without ONNX weights: {sorted(missing)}")
    return net


def calibration_batch(data: Path, n: int, size: int, seed: int) -> torch.Tensor:
    """A batch of training patches drawn like train.py draws them (same source mix)."""
    from .data import BH, CROPS, HIVE, PatchDataset, crop_split, hive_split, load_bh, load_crops, load_hive
    from .train import WEIGHTS
    rng = random.Random(seed)
    hive = hive_split(data)[0]
    crops = crop_split(data)[0]
    bh = sorted((data / BH / "train" / "images").glob("*.jpg"))
    sources = {HIVE: load_hive(data, rng.sample(hive, min(12, len(hive)))),
               BH: [s for s in load_bh(data, "train") if s.path in set(rng.sample(bh, min(24, len(bh))))],
               CROPS: load_crops(rng.sample(crops, min(24, len(crops))))}
    ds = PatchDataset(sources, WEIGHTS, size, n, seed)
    return torch.stack([torch.from_numpy(ds[i]["image"]) for i in range(n)]).float() / 255.0


@torch.no_grad()
def calibrate(net: Detector, x: torch.Tensor) -> None:
    """Re-parametrise every BN (plain setting above) so batch statistics reproduce the function."""
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    stats: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}

    def hook(mod: nn.Module, inp: tuple[torch.Tensor, ...], _out: torch.Tensor) -> None:
        t = inp[0]
        # batch statistics as BatchNorm computes them in train mode (biased var for normalising)
        stats[id(mod)] = (t.mean((0, 2, 3)), t.var((0, 2, 3), unbiased=False))

    hs = [b.register_forward_hook(hook) for b in bns]
    net.eval()(x)  # eval mode with the plain setting == the ONNX function, so inputs are exact
    for h in hs:
        h.remove()
    for bn in bns:
        m, v = stats[id(bn)]
        s = torch.sqrt(v + bn.eps)
        bn.running_mean.copy_(m)
        bn.running_var.copy_(v)
        bn.weight.copy_(s)
        bn.bias.add_(m)


def max_box_err(net: Detector, onnx_path: Path, x: np.ndarray) -> tuple[float, float]:
    import onnxruntime as ort
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    ref = sess.run(None, {"images": x})[0]
    with torch.no_grad():
        out = ExportModel(net.eval())(torch.from_numpy(x)).numpy()
    return float(np.abs(out[:, :4] - ref[:, :4]).max()), float(np.abs(out[:, 4:] - ref[:, 4:]).max())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnx", type=Path, default=Path("models/hivesight-detector.onnx"))
    ap.add_argument("--out", type=Path, default=Path("training/checkpoints/shipped.pt"))
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"),
                    help="datasets folder: calibrate BN on real training patches (skipped when absent)")
    ap.add_argument("--no-calibrate", action="store_true")
    ap.add_argument("--calib-n", type=int, default=48)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    torch.manual_seed(a.seed)

    net = rebuild(a.onnx)
    x = np.random.default_rng(a.seed).random((1, 3, 544, 960), dtype=np.float32)
    box_err, score_err = max_box_err(net, a.onnx, x)
    print(f"plain rebuild vs onnxruntime: box rows max |diff| {box_err:.2e}, score rows {score_err:.2e}")
    if box_err > 1e-3:
        raise SystemExit(f"rebuilt model differs from the ONNX (box rows {box_err})")

    calibrated = False
    if a.data is not None and a.data.exists() and not a.no_calibrate:
        xb = calibration_batch(a.data, a.calib_n, 320, a.seed)
        with torch.no_grad():
            before = net.eval()(xb)
        calibrate(net, xb)
        with torch.no_grad():
            after_eval = net.eval()(xb)
            train_mode = net.train()(xb)  # note: updates running stats; restored below
        net.eval()
        calibrate_check = float((after_eval - before).abs().max())
        drift = float((train_mode - after_eval).abs().mean() / after_eval.abs().mean())
        print(f"calibrated BN on {a.calib_n} patches: eval-mode change {calibrate_check:.2e}, "
              f"train-mode vs eval-mode relative mean |diff| {drift:.3f}")
        # the train-mode forward above moved the running stats by momentum; recalibrate exactly
        net = rebuild(a.onnx)
        calibrate(net, xb)
        box_err, score_err = max_box_err(net, a.onnx, x)
        print(f"calibrated rebuild vs onnxruntime: box rows max |diff| {box_err:.2e}, score rows {score_err:.2e}")
        if box_err > 1e-3:
            raise SystemExit(f"calibrated model differs from the ONNX (box rows {box_err})")
        calibrated = True

    card_path = a.onnx.with_suffix("").with_suffix(".card.json")
    card: dict[str, Any] = json.loads(card_path.read_text()) if card_path.exists() else {}
    training = card.get("training", {})
    ck = {
        "model": net.state_dict(),
        "epoch": int(training.get("epochs", 1)) - 1,
        "command": training.get("command", f"rebuilt from {a.onnx}"),
        "val": card.get("metrics", {}).get("training_val", {}),
        "train_time_s": float(training.get("train_time_s", 0.0)),
        "source": {"onnx": str(a.onnx), "bn": "calibrated" if calibrated else "plain"},
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(ck, a.out)
    print(f"wrote {a.out} (epoch {ck['epoch']}, BN {ck['source']['bn']})")


if __name__ == "__main__":
    main()
