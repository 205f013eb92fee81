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
  const mergedChannels = options.mergedChannels ?? [];
  const out = new CandidateBuffer(256, mergedChannels.length);
  if (minThreshold === Infinity) return out.result();
  const merged = new Uint8Array(numChannels);
  const leader = mergedChannels[0] ?? -1;
  let mergedThreshold = Infinity;
  for (const c of mergedChannels) {
    if (!(Number.isInteger(c) && c >= 0 && c < numChannels)) {
      throw new RangeError(`Merged channel ${c} is not one of the ${numChannels} channels.`);
    }
    merged[c] = 1;
    mergedThreshold = Math.min(mergedThreshold, channelThresholds[c]!);
  }

  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestScore = -Infinity;
    let sum = 0;
    for (let c = 0; c < numChannels; c++) {
      const s = data[(4 + c) * n + i]!;
      if (merged[c]) sum += s;
      else if (s > bestScore && channelThresholds[c]! !== Infinity) {
        bestScore = s;
        best = c;
      }
    }
    let threshold = best >= 0 ? channelThresholds[best]! : Infinity;
    if (leader >= 0 && sum > bestScore) {
      bestScore = sum;
      best = leader;
      threshold = mergedThreshold;
    }
    if (bestScore < minThreshold || bestScore < threshold) continue;
    const cx = data[i]!;
    const cy = data[n + i]!;
    const hw = data[2 * n + i]! / 2;
    const hh = data[3 * n + i]! / 2;
    out.push(cx - hw, cy - hh, cx + hw, cy + hh, bestScore, best);
    if (best === leader) {
      const group = out.groupOfLast();
      for (let k = 0; k < mergedChannels.length; k++) {
        group[k] = data[(4 + mergedChannels[k]!) * n + i]!;
      }
    }
  }
  return out.result();
}

export const yoloAdapter: OutputAdapter = { format: 'yolo', decode: decodeYolo };
