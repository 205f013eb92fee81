"""What the crop models' training scripts share (beetype.py, refiner.py): their common options,
seeding, the epoch loop with its log and best checkpoint, and the ONNX export check.

Both train a small network on crops drawn afresh each epoch (reproducible from seed, epoch and
index), validate after every epoch, keep the best epoch by a score of the caller's, and reload
it at the end.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
SMOKE_CARD = HERE / "runs" / "smoke-export" / "hivesight-detector.card.json"


def common_args(what: str, run: str, epochs: int) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    ap.add_argument("--card", type=Path, default=Path("models/hivesight-detector.card.json"),
                    help=f"detector card to add the {what} to; the ONNX is written beside it")
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--per-epoch", type=int, default=8192, help="crops per epoch")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--run", default=run)
    ap.add_argument("--smoke", action="store_true",
                    help="one tiny epoch, added to the smoke detector in training/runs/smoke-export/")
    return ap


def start(module: str, a: argparse.Namespace, argv: list[str] | None) -> str:
    """Seeds every generator, fixes the thread count, applies --smoke; returns the command line."""
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    torch.set_num_threads(2)
    if a.smoke:
        # Adds to the smoke detector (training.train --smoke), never to the shipped card.
        a.card = SMOKE_CARD
        a.epochs, a.per_epoch, a.batch, a.workers, a.run = 1, 64, 16, 0, f"{a.run}-smoke"
    return f"python -m training.{module} " + " ".join(shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:]))


def fit(net: nn.Module, ds: Any, a: argparse.Namespace, command: str,
        loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
        evaluate: Callable[[], dict[str, float]], score: Callable[[dict[str, float]], float]) -> dict[str, Any]:
    """AdamW + one-cycle over `a.epochs` epochs of `ds` (crops scaled by 1/255 for the net); returns
    the best epoch's checkpoint (model state, its validation, epoch, total training time, command),
    already loaded into `net`. Each epoch appends a JSON row to training/runs/<run>.csv."""
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-3)
    steps = a.epochs * math.ceil(a.per_epoch / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps, pct_start=0.1)
    ckpt_dir = HERE / "checkpoints"
    ckpt_dir.mkdir(exist_ok=True)
    best_path = ckpt_dir / f"{a.run}-best.pt"
    best, train_time = -1.0, 0.0
    log = HERE / "runs" / f"{a.run}.csv"
    log.parent.mkdir(exist_ok=True)
    log.write_text("")
    for epoch in range(a.epochs):
        ds.epoch = epoch
        dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, num_workers=a.workers)
        net.train()
        te, total, n = time.time(), 0.0, 0
        for x, y in dl:
            loss = loss_fn(net(x.float() / 255.0), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total, n = total + float(loss.detach()), n + 1
        train_time += time.time() - te
        val = evaluate()
        row = {"epoch": epoch, "loss": round(total / max(1, n), 4), **{k: round(v, 4) for k, v in val.items()}}
        with log.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"epoch {epoch} ({time.time() - te:.0f}s): " + " ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        if score(val) > best:
            best = score(val)
            torch.save({"model": net.state_dict(), "val": val, "epoch": epoch, "train_time_s": train_time,
                        "command": command}, best_path)
    ckpt: dict[str, Any] = torch.load(best_path, weights_only=False)
    net.load_state_dict(ckpt["model"])
    ckpt["train_time_s"] = train_time
    return ckpt


def check_export(path: Path, x: torch.Tensor, ref: np.ndarray, input_name: str = "crops") -> None:
    """The exported ONNX must answer as torch did on `x`."""
    import onnxruntime as ort
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {input_name: x.numpy()})[0]
    err = float(np.abs(got - ref).max())
    if err > 1e-4:
        raise RuntimeError(f"ONNX output differs from torch by {err}")
