/**
 * HWC uint8 frames -> NCHW float32 tensors. Normalisation is folded into a 256-entry lookup
 * table per channel, so the hot loop is three table reads and three stores per pixel.
 */
import type { RawFrame } from '../types.ts';
import type { ModelCard } from './model-card.ts';

export interface Normaliser {
  /** lut[c * 256 + v]: tensor channel c's value for pixel value v. */
  lut: Float32Array;
  /** Value of padded pixels per tensor channel (grey 114, as letterboxing usually uses). */
  pad: Float32Array;
  /** Source (RGB) channel feeding each tensor channel. */
  sourceChannel: [number, number, number];
}

export const PAD_PIXEL = 114;

export function makeNormaliser(card: Pick<ModelCard, 'normalization' | 'input'>): Normaliser {
  const { scale, mean, std } = card.normalization;
  const lut = new Float32Array(3 * 256);
  const pad = new Float32Array(3);
  for (let c = 0; c < 3; c++) {
    for (let v = 0; v < 256; v++) lut[c * 256 + v] = (v * scale - mean[c]!) / std[c]!;
    pad[c] = lut[c * 256 + PAD_PIXEL]!;
  }
  const sourceChannel: [number, number, number] =
    card.input.channels === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  return { lut, pad, sourceChannel };
}

/**
 * Writes `frame` into the top-left of a `tensorWidth` x `tensorHeight` NCHW tensor, padding the
 * rest. `out` must hold 3 * tensorWidth * tensorHeight values; it is fully overwritten.
 */
export function fillTensor(
  frame: RawFrame,
  out: Float32Array,
  tensorWidth: number,
  tensorHeight: number,
  norm: Normaliser,
): void {
  const { width: w, height: h, data } = frame;
  const plane = tensorWidth * tensorHeight;
  const { lut, pad, sourceChannel } = norm;
  const s0 = sourceChannel[0];
  const s1 = sourceChannel[1];
  const s2 = sourceChannel[2];
  const p0 = pad[0]!;
  const p1 = pad[1]!;
  const p2 = pad[2]!;
  for (let y = 0; y < tensorHeight; y++) {
    const dstRow = y * tensorWidth;
    let x = 0;
    if (y < h) {
      let s = y * w * 3;
      for (; x < w; x++, s += 3) {
        const d = dstRow + x;
        out[d] = lut[data[s + s0]!]!;
        out[plane + d] = lut[256 + data[s + s1]!]!;
        out[2 * plane + d] = lut[512 + data[s + s2]!]!;
      }
    }
    if (x < tensorWidth) {
      out.fill(p0, dstRow + x, dstRow + tensorWidth);
      out.fill(p1, plane + dstRow + x, plane + dstRow + tensorWidth);
      out.fill(p2, 2 * plane + dstRow + x, 2 * plane + dstRow + tensorWidth);
    }
  }
}
