#!/usr/bin/env bash
# Three fine-tuning runs side by side on one lent GPU machine, from a training.pack copy of the
# data (the machine has no ../shared/datasets) and warm starts rebuilt by training.from_onnx:
#   A  the photos' s4-wide detector, 448 px patches (the "s4-wide photo detector" recipe)
#   B  the hornet specialist (deep-wide), 512 px patches, 80 % bees-hornets (0.9.2's mix)
#   C  the shared detector at its own width (wide), 448 px patches: what video frames run
# The GPU is not the limit for networks this small: the patches' augmentation on the CPU is (a
# 448 px patch about 11 ms on one core, 21 before the one-matrix colour jitter), so the machine's
# 16 cores are split between the runs' loader workers.
# Validation needs the full datasets: the epochs come back (the last ones, tarred under $OUT)
# to be averaged, exported and judged here.
#
#   python -m training.pack --data ../shared/datasets --out .devdata/datasets
#   python -m training.from_onnx --onnx models/hivesight-detector.onnx --out .devdata/init/shipped092.pt --data ../shared/datasets
#   python -m training.from_onnx --onnx models/hivesight-hornet.onnx --out .devdata/init/hornet092.pt --data ../shared/datasets
#   then, there: bash training/gpu_run.sh   (carrying .devdata; BUDGET_MIN, DEVICE, WORKERS to change)
set -u
DATA=${DATA:-.devdata/datasets}
INIT=${INIT:-.devdata/init}
BUDGET_MIN=${BUDGET_MIN:-7.5}
DEVICE=${DEVICE:-cuda}
WORKERS=${WORKERS:-5}
KEEP=${KEEP:-8}
STEPS=${STEPS:-250}
OUT=${OUT:-training/runs/gpu}
mkdir -p "$OUT"
PY=${PY:-python3}

nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
"$PY" -c "import torch, numpy, PIL; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'numpy', numpy.__version__, 'pillow', PIL.__version__)"
echo "cores: $(nproc)"  # before OMP_NUM_THREADS, which nproc also reports
# Each training process's own threads: its loader workers do the CPU work.
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2

limit=$(awk -v m="$BUDGET_MIN" 'BEGIN { print int(m * 60 + 90) }')
run() {
  local name=$1; shift
  timeout "$limit" "$PY" -m training.train --data "$DATA" --out "/tmp/$name-unused" --device "$DEVICE" \
    --no-val --keep-epochs --run "$name" --batch 32 --steps "$STEPS" --epochs 100 --workers "$WORKERS" \
    --budget-min "$BUDGET_MIN" "$@" >"$OUT/$name.log" 2>&1
  echo "$name exited $? after $SECONDS s"
}
run gpuA --arch s4-wide --init "$INIT/shipped092.pt" --size 448 --lr 1.5e-3 --seed 41 &
run gpuB --arch deep-wide --init "$INIT/hornet092.pt" --size 512 --lr 7e-4 --seed 42 \
  --mix bees-hornets=0.8,hive-entrance=0.15,pollen-crops=0.05 &
run gpuC --arch wide --init "$INIT/shipped092.pt" --size 448 --lr 1.5e-3 --seed 43 &
wait

for name in gpuA gpuB gpuC; do
  tail -n 3 "$OUT/$name.log"
  mapfile -t epochs < <(ls training/checkpoints/"$name"-ep*.pt 2>/dev/null | tail -n "$KEEP")
  [ "${#epochs[@]}" -gt 0 ] && tar -cf "$OUT/$name.tar" "${epochs[@]}" "training/runs/$name.csv"
done
ls -la "$OUT"
