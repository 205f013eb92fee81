"""Train the hivesight detector from scratch.

    python -m training.train --data ../shared/datasets --out models/ [--epochs N] [--device cpu|cuda]
                             [--seed 0] [--resume] [--smoke]
"""
from __future__ import annotations

import argparse
import csv
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

from .data import (BH, CROPS, HIVE, PatchDataset, crop_split, hive_split, load_bh, load_crops, load_hive)
from .evaluate import evaluate
from .export import export_checkpoint
from .loss import detection_loss, distill_loss
from .model import ARCHS, Detector, branch_only, detector_from, subtype_only, widen

HERE = Path(__file__).resolve().parent
CKPT_DIR = HERE / "checkpoints"
RUNS_DIR = HERE / "runs"
SPLITS_DIR = HERE / "splits"
# Source mix per batch: the hive clip is the deployment domain; bees-hornets carries the hornets.
WEIGHTS = {HIVE: 0.5, BH: 0.35, CROPS: 0.15}


def parse_mix(text: str) -> dict[str, float]:
    """`--mix hive-entrance=0.35,bees-hornets=0.55`: those sources' shares; others keep theirs."""
    mix = dict(WEIGHTS)
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in mix:
            raise SystemExit(f"--mix: unknown source {name!r} (sources: {', '.join(mix)})")
        try:
            mix[name] = float(value)
        except ValueError:
            raise SystemExit(f"--mix: {part!r} is not SOURCE=SHARE") from None
        if mix[name] < 0:
            raise SystemExit(f"--mix: {name} has a negative share")
    if sum(mix.values()) <= 0:
        raise SystemExit("--mix: every share is zero")
    return mix


def write_splits(data: Path) -> None:
    train, val = hive_split(data)
    SPLITS_DIR.mkdir(exist_ok=True)
    (SPLITS_DIR / "hive-entrance-train.txt").write_text("\n".join(train) + "\n")
    (SPLITS_DIR / "hive-entrance-val.txt").write_text("\n".join(val) + "\n")
    ctrain, cval = crop_split(data)
    (SPLITS_DIR / "pollen-crops-val.txt").write_text("\n".join(f"{p.parent.name}/{p.name}" for p in cval) + "\n")


def collate(batch: list[dict[str, np.ndarray]]) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(np.stack([b[k] for b in batch])) for k in batch[0]}


def score(val: dict[str, float]) -> float:
    """Checkpoint selection: mean AP50 over bee/pollen/drone/hornet plus crop accuracy."""
    return float(val.get("map50", 0.0)) + 0.25 * float(val.get("crop_acc", 0.0))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--steps", type=int, default=200, help="batches per epoch")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--size", type=int, default=320, help="square training patch size")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--run", default="main", help="name of checkpoints/<run>-*.pt and runs/<run>.csv")
    ap.add_argument("--budget-min", type=float, default=0.0,
                    help="wall-clock budget (train+val minutes): the cosine LR follows whichever of step "
                         "progress and time progress is further, and training stops when either completes; "
                         "0 = pure step schedule (fully reproducible)")
    ap.add_argument("--init", type=Path, default=None,
                    help="warm start: load only the weights of this checkpoint (fresh optimizer and schedule)")
    ap.add_argument("--arch", default="small", choices=sorted(ARCHS),
                    help="channel widths (model.py); --init from a smaller checkpoint widens it function-preservingly")
    ap.add_argument("--keep-epochs", action="store_true",
                    help="also keep every epoch's weights as checkpoints/<run>-epNNN.pt (for training.average)")
    ap.add_argument("--iou-loss", type=float, default=0.0,
                    help="weight of a GIoU loss on the boxes beside smooth-L1 (0 = off, as every shipped run)")
    ap.add_argument("--mix", type=parse_mix, default=dict(WEIGHTS),
                    help="source shares of the patches, e.g. bees-hornets=0.55,hive-entrance=0.35 "
                         f"(default {','.join(f'{k}={v}' for k, v in WEIGHTS.items())})")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="checkpoint of a larger detector (e.g. from_onnx of the photos' detector) whose raw head "
                         "the net also learns from on every patch (knowledge distillation, loss.distill_loss)")
    ap.add_argument("--distill", type=float, default=1.0, help="weight of the distillation loss with --teacher")
    ap.add_argument("--subtype-only", action="store_true",
                    help="train only the subtype rows of the head's last conv (BatchNorm frozen too): the heatmaps "
                         "and boxes, hence finding and boxing insects, stay exactly as --init left them")
    ap.add_argument("--sub-branch", type=int, default=0,
                    help="give the net a subtype branch of this width (model.SubtypeBranch: a read-out of the "
                         "stride-8 features added to the head's subtype rows; it starts at zero, so --init's "
                         "output is unchanged); 0 = none, as every shipped detector")
    ap.add_argument("--branch-only", action="store_true",
                    help="train only the subtype branch (BatchNorm frozen too): like --subtype-only, finding "
                         "and boxing insects stay exactly as --init left them")
    ap.add_argument("--no-val", action="store_true",
                    help="skip the per-epoch validation (a machine without the validation sets, e.g. a "
                         "training.pack copy on a lent GPU): every epoch counts as the best, so the last is exported")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="one tiny epoch on a few images, then export to training/runs/smoke-export/")
    a = ap.parse_args(argv)
    if a.branch_only and (a.subtype_only or not a.sub_branch):
        ap.error("--branch-only needs --sub-branch N and excludes --subtype-only")
    command = "python -m training.train " + " ".join(shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:]))

    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    if a.device == "cpu":
        torch.set_num_threads(2)
    else:
        torch.backends.cudnn.benchmark = True  # fixed patch size: let cuDNN pick its kernels once
    device = torch.device(a.device)
    # For the model card: the figures of a run are only comparable with the machine named.
    hardware = ("CPU, 2 cores (shared)" if a.device == "cpu"
                else f"{torch.cuda.get_device_name(0)}, {os.cpu_count()} CPU cores for the patches")

    write_splits(a.data)
    hive_train_names, hive_val_names = hive_split(a.data)
    crop_train, crop_val = crop_split(a.data)
    if a.smoke:
        a.epochs, a.steps, a.batch, a.size, a.workers = 1, 3, 4, 192, 0
        a.run = "smoke"
        hive_train_names, hive_val_names = hive_train_names[:3], hive_val_names[:2]
        crop_train, crop_val = crop_train[:4], crop_val[:4]
    t0 = time.time()
    sources = {HIVE: load_hive(a.data, hive_train_names), BH: load_bh(a.data, "train"), CROPS: load_crops(crop_train)}
    if a.smoke:
        sources[BH] = sources[BH][:4]
    hive_val = [] if a.no_val else load_hive(a.data, hive_val_names)
    bh_val = [] if a.no_val else load_bh(a.data, "valid")[: 4 if a.smoke else None]
    crops_val = [] if a.no_val else load_crops(crop_val)
    print(f"loaded data in {time.time() - t0:.0f}s: " + ", ".join(f"{k}={len(v)}" for k, v in sources.items()), flush=True)

    ds = PatchDataset(sources, a.mix, a.size, a.steps * a.batch, a.seed)
    net = Detector(**ARCHS[a.arch], branch=(a.sub_branch,) if a.sub_branch else ())
    if a.init is not None and not a.resume:
        # Before the optimizer exists: a widened net has new parameters.
        init = torch.load(a.init, map_location="cpu", weights_only=False)
        small = detector_from(init["model"])
        net = widen(small, net.arch) if small.arch != net.arch else small
        print(f"warm start from {a.init} ({init.get('command', '')}, epoch {init.get('epoch')}, "
              f"{small.arch} -> {net.arch})", flush=True)
    net = net.to(device)
    teacher = None
    if a.teacher is not None:
        tk = torch.load(a.teacher, map_location="cpu", weights_only=False)
        # Eval mode: the teacher's BatchNorm keeps its own statistics, as in the engine.
        teacher = detector_from(tk["model"]).to(device).eval().requires_grad_(False)
        print(f"distilling from {a.teacher} ({teacher.arch}) at weight {a.distill}", flush=True)
    if a.subtype_only:
        # No weight decay: with their gradients zeroed, the other rows then stay exactly as they are.
        opt = torch.optim.AdamW(subtype_only(net), lr=a.lr, weight_decay=0.0)
    elif a.branch_only:
        opt = torch.optim.AdamW(branch_only(net), lr=a.lr, weight_decay=5e-4)
    else:
        decay = [p for n, p in net.named_parameters() if p.ndim > 1]
        no_decay = [p for n, p in net.named_parameters() if p.ndim <= 1]
        opt = torch.optim.AdamW([{"params": decay, "weight_decay": 5e-4}, {"params": no_decay, "weight_decay": 0}],
                                lr=a.lr)
    total = a.epochs * a.steps
    warm = min(300, total // 10 + 1)

    def progress(step: int, wall: float) -> float:
        p = (step - warm) / max(1, total - warm)
        if a.budget_min > 0:
            # Shared CPUs make step time unpredictable; a time budget keeps the run inside its slot.
            p = max(p, wall / (a.budget_min * 60.0))
        return min(max(p, 0.0), 1.0)

    def lr_at(step: int, wall: float) -> float:
        if step < warm:
            return a.lr * (step + 1) / warm
        return a.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress(step, wall))))

    CKPT_DIR.mkdir(exist_ok=True)
    RUNS_DIR.mkdir(exist_ok=True)
    last_path, best_path = CKPT_DIR / f"{a.run}-last.pt", CKPT_DIR / f"{a.run}-best.pt"
    log_path = RUNS_DIR / f"{a.run}.csv"
    start_epoch, best, train_time, wall = 0, -1.0, 0.0, 0.0
    if a.resume and last_path.exists():
        ck = torch.load(last_path, map_location="cpu", weights_only=False)
        net.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        start_epoch, best, train_time = ck["epoch"] + 1, ck.get("best", -1.0), ck.get("train_time_s", 0.0)
        wall = ck.get("wall_s", train_time)
        print(f"resumed from {last_path} at epoch {start_epoch}", flush=True)
    else:
        if log_path.exists():
            log_path.unlink()

    for epoch in range(start_epoch, a.epochs):
        ds.epoch = epoch
        dl = DataLoader(ds, batch_size=a.batch, shuffle=False, num_workers=a.workers, collate_fn=collate,
                        pin_memory=a.device == "cuda")
        net.train(not (a.subtype_only or a.branch_only))
        te = time.time()
        sums: dict[str, float] = {}
        for i, batch in enumerate(dl):
            step = epoch * a.steps + i
            for g in opt.param_groups:
                g["lr"] = lr_at(step, wall + time.time() - te)
            t = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            x = t.pop("image").float() / 255.0
            raw = net(x)
            losses = detection_loss(raw, t, a.iou_loss)
            if teacher is not None:
                with torch.no_grad():
                    teacher_raw = teacher(x)
                kd = distill_loss(raw, teacher_raw, t)
                losses = losses | kd | {"total": losses["total"] + a.distill * kd["kd_total"]}
            opt.zero_grad(set_to_none=True)
            losses["total"].backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
            opt.step()
            for k, v in losses.items():
                sums[k] = sums.get(k, 0.0) + float(v.detach())
            if i % 25 == 0:
                print(f"ep {epoch} it {i}/{a.steps} loss {float(losses['total'].detach()):.3f} "
                      f"({time.time() - te:.0f}s)", flush=True)
        train_time += time.time() - te
        lr_now = lr_at(step, wall + time.time() - te)
        tv = time.time()
        val = {} if a.no_val else evaluate(net.cpu(), hive_val, bh_val, crops_val)
        net.to(device)
        wall += time.time() - te
        row: dict[str, Any] = {"epoch": epoch, "lr": lr_now, "train_time_s": round(train_time, 1), "wall_s": round(wall, 1)}
        row.update({f"loss_{k}": round(v / max(1, i + 1), 4) for k, v in sums.items()})
        row.update({k: round(v, 4) for k, v in val.items()})
        new = not log_path.exists()
        with log_path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
        print(f"epoch {epoch}: " + " ".join(f"{k}={v}" for k, v in row.items()) + f" (val {time.time() - tv:.0f}s)", flush=True)
        ck = {"model": net.state_dict(), "arch": net.arch, "opt": opt.state_dict(), "epoch": epoch, "val": val,
              "train_time_s": train_time, "wall_s": wall, "command": command, "hardware": hardware, "best": best, "args": vars(a) | {"data": str(a.data), "out": str(a.out)}}
        s = score(val)
        if s > best or a.no_val:
            best = s
            ck["best"] = best
            torch.save(ck, best_path)
        torch.save(ck, last_path)
        if a.keep_epochs:
            torch.save({k: v for k, v in ck.items() if k != "opt"}, CKPT_DIR / f"{a.run}-ep{epoch:03d}.pt")
        epoch_len = time.time() - te
        # Stop when the schedule is done, or when half another epoch would already overrun the budget.
        over = a.budget_min > 0 and wall + 0.5 * epoch_len >= a.budget_min * 60.0
        if progress((epoch + 1) * a.steps, wall) >= 1.0 or over:
            print(f"schedule complete after epoch {epoch} ({wall / 60:.1f} min)", flush=True)
            break

    # The smoke export goes to an ignored folder so CI never replaces the shipped model.
    if a.no_val:
        print(f"--no-val: {best_path} holds the last epoch; export it where the validation sets are", flush=True)
        return
    export_checkpoint(best_path, RUNS_DIR / "smoke-export" if a.smoke else a.out, None if a.smoke else a.data)


if __name__ == "__main__":
    main()
