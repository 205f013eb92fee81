#!/usr/bin/env bash
# Fine-tuning runs side by side on one lent GPU machine, from a training.pack copy of the data
# (the machine has no ../shared/datasets) and warm starts rebuilt by training.from_onnx. The first
# argument picks the set (training/README.md has each one's section and rule):
#   0.10.0 (the first loan): from 0.9.2's networks, LR 1.5e-3 / 7e-4, 250 batches an epoch
#     gpuA  the photos' s4-wide detector, 448 px patches
#     gpuB  the hornet specialist (deep-wide), 512 px patches, 80 % bees-hornets
#     gpuC  the shared detector at its own width (wide), 448 px patches: what video frames run
#   0.12 (the second loan): from 0.11.0's shipped networks, a third of the LR, about three times
#   the patches (the colour jitter is one matrix now)
#     gpu2A  the photos' s4-wide detector from hivesight-detector-photo.onnx, 448 px, LR 5e-4
#     gpu2C  the video network (wide) from hivesight-detector.onnx, 448 px, LR 5e-4
#     gpu2D  the same with hive frames drawn more often (drones live only there), LR 5e-4
# The GPU is not the limit for networks this small: the patches' augmentation on the CPU is (a
# 448 px patch about 11 ms on one core), so the machine's 16 cores are split between the runs'
# loader workers. Validation needs the full datasets: the epochs come back (the last ones, tarred
# under $OUT) to be averaged, exported and judged here.
#
#   python -m training.pack --data ../shared/datasets --out .devdata/datasets
#   0.10.0: python -m training.from_onnx --onnx (0.9.2's) models/hivesight-detector.onnx --out .devdata/init/shipped092.pt --data ../shared/datasets
#           python -m training.from_onnx --onnx (0.9.2's) models/hivesight-hornet.onnx --out .devdata/init/hornet092.pt --data ../shared/datasets
#   0.12:   python -m training.from_onnx --onnx models/hivesight-detector.onnx --out .devdata/init/detector.pt --data ../shared/datasets
#           python -m training.from_onnx --onnx models/hivesight-detector-photo.onnx --out .devdata/init/detector-photo.pt --data ../shared/datasets
#   then, there: bash training/gpu_run.sh SET   (carrying .devdata; BUDGET_MIN, DEVICE, WORKERS to change)
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
case ${1:-} in
  0.10.0)
    names=(gpuA gpuB gpuC)
    run gpuA --arch s4-wide --init "$INIT/shipped092.pt" --size 448 --lr 1.5e-3 --seed 41 &
    run gpuB --arch deep-wide --init "$INIT/hornet092.pt" --size 512 --lr 7e-4 --seed 42 \
      --mix bees-hornets=0.8,hive-entrance=0.15,pollen-crops=0.05 &
    run gpuC --arch wide --init "$INIT/shipped092.pt" --size 448 --lr 1.5e-3 --seed 43 &
    ;;
  0.12)
    names=(gpu2A gpu2C gpu2D)
    run gpu2A --arch s4-wide --init "$INIT/detector-photo.pt" --size 448 --lr 5e-4 --seed 51 &
    run gpu2C --arch wide --init "$INIT/detector.pt" --size 448 --lr 5e-4 --seed 53 &
    run gpu2D --arch wide --init "$INIT/detector.pt" --size 448 --lr 5e-4 --seed 54 \
      --mix hive-entrance=0.65,bees-hornets=0.25,pollen-crops=0.1 &
    ;;
  *) echo "usage: bash training/gpu_run.sh 0.10.0|0.12" >&2; exit 2 ;;
esac
wait

for name in "${names[@]}"; do
  tail -n 3 "$OUT/$name.log"
  mapfile -t epochs < <(ls training/checkpoints/"$name"-ep*.pt 2>/dev/null | tail -n "$KEEP")
  [ "${#epochs[@]}" -gt 0 ] && tar -cf "$OUT/$name.tar" "${epochs[@]}" "training/runs/$name.csv"
done
ls -la "$OUT"
