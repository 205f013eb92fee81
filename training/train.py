"""Train the hivesight detector (EfficientNet-Lite0 trunk, `lite_detector.py`) on every source.

    nice -n 19 .venv/bin/python -m training.train --run lite --budget-min 150
    .venv/bin/python -m training.train --run lite --resume      # after an interruption
    .venv/bin/python -m training.train --device cuda --batch 64 --steps 4000
    .venv/bin/python -m training.train --exclude hive-entrance  # protocol (a)
    .venv/bin/python -m training.train --extra ../export --leave-out-site SITE  # one site held out

The schedule is fixed by steps (or cut short by --budget-min); nothing is chosen on validation
frames: the exported weights are the exponential moving average at the last step. A checkpoint
with the optimiser, the average and the step is written every --save-every steps, so --resume
continues where the run stopped.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import DataLoader

from .augment import WorldPatches, insect_bank
from .data import (BACKYARD, BH, CROPS, EXTRA, HIVE, crop_split, hive_split, load_backyard, load_bh, load_crops,
                   load_extra, load_hive)
from .effnet import WHEEL
from .export import bench, export_decoding
from .lite_detector import Exported, LiteDetector
from .loss import detection_loss
from .model import CLASSES

HERE = Path(__file__).resolve().parent
# Outside the work tree, which a new working day lays anew on the same machine: the full
# checkpoint (optimiser included) lives here, and the weights alone in WEIGHTS_DIR (committed),
# from which a new machine warm-starts.
CKPT_DIR = Path(os.environ.get("HIVESIGHT_CHECKPOINTS", Path.home() / ".cache" / "hivesight" / "checkpoints"))
WEIGHTS_DIR = HERE / "weights"
RUNS_DIR = HERE / "runs"
SPLITS_DIR = HERE / "splits"
MIX = {HIVE: 0.33, BACKYARD: 0.27, BH: 0.3, CROPS: 0.1}
EXTRA_SHARE = 0.25  # of the draws, shared equally by the --extra folders (other cameras: the lever)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--extra", type=Path, nargs="*", default=[],
                    help="more YOLO dataset folders (images/, labels/, classes.txt), e.g. hivesight dataset export")
    ap.add_argument("--exclude", choices=[HIVE, BACKYARD, BH, CROPS], action="append", default=[],
                    help="train without this source (the generalisation protocol)")
    ap.add_argument("--leave-out-site", default=None,
                    help="train without this site's frames of the --extra folders (manifest.json's site)")
    ap.add_argument("--out", type=Path, default=None, help="export the ONNX and card here at the end")
    ap.add_argument("--run", default="lite")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--size", type=int, default=320)
    ap.add_argument("--lr", type=float, default=2e-3, help="neck and head; the trunk gets --trunk-lr-scale of it")
    ap.add_argument("--trunk-lr-scale", type=float, default=0.2)
    ap.add_argument("--freeze-steps", type=int, default=300, help="steps with the stem and stride-4 blocks frozen")
    ap.add_argument("--ema", type=float, default=0.999)
    ap.add_argument("--budget-min", type=float, default=0.0, help="stop (cosine schedule compressed) after this long")
    ap.add_argument("--stop-after-min", type=float, default=0.0,
                    help="end this process after this long, schedule unchanged: --resume continues it")
    ap.add_argument("--bf16", action="store_true", help="forward pass under CPU/CUDA bfloat16 autocast")
    ap.add_argument("--save-every", type=int, default=100)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2,
                    help="torch threads on cpu; 1 where other work shares the cores (idle threads spin)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="a few steps on a few images, exported to runs/<run>-export")
    return ap.parse_args(argv)


def write_splits(data: Path) -> None:
    """The held-out frames and crops, listed for `hivesight eval` views and the accuracy tests."""
    train, val = hive_split(data)
    SPLITS_DIR.mkdir(exist_ok=True)
    (SPLITS_DIR / "hive-entrance-train.txt").write_text("\n".join(train) + "\n")
    (SPLITS_DIR / "hive-entrance-val.txt").write_text("\n".join(val) + "\n")
    _, cval = crop_split(data)
    (SPLITS_DIR / "pollen-crops-val.txt").write_text("\n".join(f"{p.parent.name}/{p.name}" for p in cval) + "\n")


def collate(batch: list[dict[str, np.ndarray]]) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(np.stack([b[k] for b in batch])) for k in batch[0]}


def load_sources(a: argparse.Namespace) -> dict[str, list]:
    write_splits(a.data)
    hive_train, _ = hive_split(a.data)
    crop_train, _ = crop_split(a.data)
    if a.smoke:
        hive_train, crop_train = hive_train[:3], crop_train[:4]
    sources: dict[str, list] = {}
    if HIVE not in a.exclude:
        sources[HIVE] = load_hive(a.data, hive_train)
    if BACKYARD not in a.exclude:
        sources[BACKYARD] = load_backyard(a.data, "train")[: 3 if a.smoke else None]
    if BH not in a.exclude:
        sources[BH] = load_bh(a.data, "train")[: 6 if a.smoke else None]
    if CROPS not in a.exclude:
        sources[CROPS] = load_crops(crop_train)
    for folder in a.extra:
        if not (folder / "classes.txt").exists():
            raise SystemExit(f"--extra {folder}: no classes.txt there (expected images/, labels/, classes.txt)")
        sources[f"{EXTRA}:{folder.name}"] = load_extra(folder, a.leave_out_site)
    return sources


def source_mix(sources: dict[str, list]) -> dict[str, float]:
    """The built-in sources at MIX; the extra folders share EXTRA_SHARE of the draws equally."""
    extras = [k for k in sources if k.startswith(EXTRA)]
    built_in = {k: v for k, v in MIX.items() if k in sources}
    scale = (1.0 - EXTRA_SHARE) / sum(built_in.values()) if extras and built_in else 1.0
    mix = {k: v * scale for k, v in built_in.items()}
    return mix | {k: (EXTRA_SHARE if built_in else 1.0) / len(extras) for k in extras}


class Ema:
    """Exponential moving average of the weights (and a copy of the batch statistics)."""

    def __init__(self, net: torch.nn.Module, decay: float) -> None:
        self.net = copy.deepcopy(net).eval().requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def update(self, net: torch.nn.Module, step: int) -> None:
        d = min(self.decay, (1 + step) / (10 + step))  # short runs: the average warms up
        for e, p in zip(self.net.state_dict().values(), net.state_dict().values()):
            if e.dtype.is_floating_point:
                e.mul_(d).add_(p.detach(), alpha=1 - d)
            else:
                e.copy_(p)


def save_atomic(obj: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)  # an interruption mid-write keeps the previous file whole


def slim(ck: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint without the optimiser, its floats in fp16: small enough to commit."""
    def half(sd: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        return {k: v.half() if v.dtype == torch.float32 else v for k, v in sd.items()}
    return {k: v for k, v in ck.items() if k not in ("model", "ema", "opt")} | {
        "model": half(ck["model"]), "ema": half(ck["ema"])}


def warm_start(path: Path, net: torch.nn.Module, ema: torch.nn.Module) -> tuple[int, float]:
    ck = torch.load(path, map_location="cpu", weights_only=False)
    net.load_state_dict({k: v.float() if v.dtype == torch.float16 else v for k, v in ck["model"].items()})
    ema.load_state_dict({k: v.float() if v.dtype == torch.float16 else v for k, v in ck["ema"].items()})
    return int(ck["step"]), float(ck["wall_s"])


def main(argv: list[str] | None = None) -> None:
    a = parse_args(argv)
    command = "python -m training.train " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:]))
    if a.smoke:
        a.steps, a.batch, a.size, a.workers, a.save_every, a.freeze_steps = 4, 2, 192, 0, 2, 2
        a.run = f"{a.run}-smoke"
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    if a.device == "cpu":
        torch.set_num_threads(a.threads)
    else:
        torch.backends.cudnn.benchmark = True
    device = torch.device(a.device)

    t0 = time.time()
    sources = load_sources(a)
    bank = insect_bank(sources, per_source=400, rng=random.Random(a.seed))
    print(f"loaded in {time.time() - t0:.0f}s: " + ", ".join(f"{k}={len(v)}" for k, v in sources.items())
          + f", {len(bank)} insects to paste ({sum(i.heat_cls == 1 for i in bank)} hornets)", flush=True)
    mix = source_mix(sources)
    ds = WorldPatches(sources, mix, a.size, a.save_every * a.batch, a.seed, bank)

    # Channels-last: PyTorch's CPU depthwise convolutions run their backward pass 1.5x faster so.
    net = LiteDetector(imagenet=True).to(device, memory_format=torch.channels_last)
    trunk = {id(p) for p in net.trunk_parameters()}
    groups = []
    for is_trunk in (True, False):
        ps = [p for p in net.parameters() if (id(p) in trunk) == is_trunk]
        groups.append({"params": [p for p in ps if p.ndim > 1], "weight_decay": 5e-4, "trunk": is_trunk})
        groups.append({"params": [p for p in ps if p.ndim <= 1], "weight_decay": 0.0, "trunk": is_trunk})
    opt = torch.optim.AdamW(groups, lr=a.lr)
    ema = Ema(net, a.ema)
    step, wall = 0, 0.0
    CKPT_DIR.mkdir(parents=True, exist_ok=True)
    RUNS_DIR.mkdir(exist_ok=True)
    last = CKPT_DIR / f"{a.run}-last.pt"
    weights = WEIGHTS_DIR / f"{a.run}.pt"
    if a.resume and last.exists():
        ck = torch.load(last, map_location="cpu", weights_only=False)
        net.load_state_dict(ck["model"])
        ema.net.load_state_dict(ck["ema"])
        opt.load_state_dict(ck["opt"])
        step, wall = ck["step"], ck["wall_s"]
        print(f"resumed {last} at step {step} ({wall / 60:.1f} min in)", flush=True)
    elif a.resume and weights.exists():
        step, wall = warm_start(weights, net, ema.net)
        print(f"warm-started from {weights} at step {step} ({wall / 60:.1f} min in); the optimiser starts afresh",
              flush=True)
    warm = min(200, a.steps // 10 + 1)

    def progress(s: int, w: float) -> float:
        p = s / a.steps
        if a.budget_min > 0:
            p = max(p, w / (a.budget_min * 60.0))
        return min(p, 1.0)

    def lr_at(s: int, w: float) -> float:
        if s < warm:
            return a.lr * (s + 1) / warm
        return a.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress(s, w))))

    hardware = "CPU, 2 cores" if a.device == "cpu" else torch.cuda.get_device_name(0)
    log = (RUNS_DIR / f"{a.run}.log").open("a")
    autocast = torch.autocast(a.device, dtype=torch.bfloat16, enabled=a.bf16)
    started = time.time()
    while progress(step, wall) < 1.0:
        if a.stop_after_min > 0 and time.time() - started >= a.stop_after_min * 60.0:
            print(f"stopped after {a.stop_after_min} min at step {step}: --resume continues", flush=True)
            return
        ds.epoch = step // a.save_every
        dl = DataLoader(ds, batch_size=a.batch, num_workers=a.workers, collate_fn=collate,
                        pin_memory=a.device == "cuda", persistent_workers=False)
        te = time.time()
        sums: dict[str, float] = {}
        n = 0
        for batch in dl:
            net.freeze_early(step < a.freeze_steps)
            net.train()
            lr = lr_at(step, wall + time.time() - te)
            for g in opt.param_groups:
                g["lr"] = lr * (a.trunk_lr_scale if g["trunk"] else 1.0)
            t = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            x = (t.pop("image").float() / 255.0).contiguous(memory_format=torch.channels_last)
            with autocast:
                raw = net(x)
            losses = detection_loss(raw.float(), t)
            opt.zero_grad(set_to_none=True)
            losses["total"].backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
            opt.step()
            ema.update(net, step)
            step += 1
            n += 1
            for k, v in losses.items():
                sums[k] = sums.get(k, 0.0) + float(v.detach())
            if progress(step, wall + time.time() - te) >= 1.0:
                break
        wall += time.time() - te
        line = f"step {step}/{a.steps} lr {lr:.2e} " + " ".join(f"{k} {v / max(n, 1):.3f}" for k, v in sums.items()) \
            + f" ({wall / 60:.1f} min, {(time.time() - te) / max(n, 1):.2f} s/step)"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()
        ck = {"model": net.state_dict(), "ema": ema.net.state_dict(), "opt": opt.state_dict(), "step": step,
              "wall_s": wall, "command": command, "args": {k: str(v) for k, v in vars(a).items()},
              "hardware": hardware}
        save_atomic(ck, last)
        if not a.smoke:
            save_atomic(slim(ck), weights)
    print(f"done: {step} steps in {wall / 60:.1f} min", flush=True)
    out = a.out or (RUNS_DIR / f"{a.run}-export")
    export(ema.net.cpu(), out, {"command": command, "steps": step, "train_minutes": round(wall / 60, 1),
                                "excluded": a.exclude, "hardware": hardware})


def export(net: LiteDetector, out: Path, training: dict[str, Any]) -> Path:
    """The ONNX file (decoding baked in, parity with torch checked) and a draft card beside it;
    the shipped card's thresholds are set by `training.protocol`, not here."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "hivesight-detector.onnx"
    net = net.eval().to(memory_format=torch.contiguous_format)
    export_decoding(Exported(net).eval(), Exported(copy.deepcopy(net)).eval(), path)
    ms = bench(path, 448, 800, 10)
    (out / "training.json").write_text(json.dumps(training | {"ms_800x448": round(ms, 1), "trunk": WHEEL,
                                                               "classes": CLASSES}, indent=2) + "\n")
    print(f"exported {path} ({path.stat().st_size / 1e6:.1f} MB), {ms:.1f} ms at 800x448 on 2 threads", flush=True)
    return path


if __name__ == "__main__":
    main()
