/**
 * The `yolo` output layout: [1, 4 + C, N], rows 0-3 = cx, cy, w, h in model-input pixels,
 * rows 4.. = per-class scores in [0, 1] (already sigmoid). Ultralytics YOLOv8 exports use it too.
 * One pass over the typed array; nothing is allocated for a candidate below threshold.
 */
import { ModelError } from '../../errors.ts';
import { CandidateBuffer } from './candidates.ts';
import type { Candidates, DecodeOptions, OutputAdapter, OutputTensor } from './types.ts';

export function decodeYolo(output: OutputTensor, options: DecodeOptions): Candidates {
  const { data, dims } = output;
  const { numChannels, channelThresholds } = options;
  if (dims.length !== 3 || dims[0] !== 1 || dims[1] !== 4 + numChannels) {
    throw new ModelError(
      `The model output has shape [${dims.join(', ')}], but the card's yolo format with ` +
        `${numChannels} classes needs [1, ${4 + numChannels}, N].`,
    );
  }
  const n = dims[2]!;
  if (data.length !== (4 + numChannels) * n) {
    throw new ModelError(
      `The model output holds ${data.length} values, not ${(4 + numChannels) * n}.`,
    );
  }
  let minThreshold = Infinity;
  for (let c = 0; c < numChannels; c++)
    minThreshold = Math.min(minThreshold, channelThresholds[c]!);
  const out = new CandidateBuffer(256);
  if (minThreshold === Infinity) return out.result();

  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let c = 0; c < numChannels; c++) {
      const s = data[(4 + c) * n + i]!;
      if (s > bestScore && channelThresholds[c]! !== Infinity) {
        bestScore = s;
        best = c;
      }
    }
    const threshold = best >= 0 ? channelThresholds[best]! : Infinity;
    if (bestScore < minThreshold || bestScore < threshold) continue;
    const cx = data[i]!;
    const cy = data[n + i]!;
    const hw = data[2 * n + i]! / 2;
    const hh = data[3 * n + i]! / 2;
    out.push(cx - hw, cy - hh, cx + hw, cy + hh, bestScore, best);
  }
  return out.result();
}

export const yoloAdapter: OutputAdapter = { format: 'yolo', decode: decodeYolo };
