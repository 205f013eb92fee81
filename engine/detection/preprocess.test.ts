import { describe, expect, it } from 'vitest';
import { fillTensor, makeNormaliser, PAD_PIXEL } from './preprocess.ts';

const input = {
  name: 'images',
  width: 8,
  height: 8,
  dynamic: true,
  stride: 4,
  channels: 'RGB' as const,
  maxUpscale: 1,
};
const normalization = {
  scale: 1 / 255,
  mean: [0, 0, 0] as [number, number, number],
  std: [1, 1, 1] as [number, number, number],
};

describe('fillTensor', () => {
  it('writes HWC RGB as normalised NCHW planes and pads the rest', () => {
    // 2x1 frame: red, then (10, 20, 30).
    const frame = {
      index: 0,
      timeS: 0,
      width: 2,
      height: 1,
      data: Uint8Array.of(255, 0, 0, 10, 20, 30),
    };
    const out = new Float32Array(3 * 4 * 2).fill(-1);
    fillTensor(frame, out, 4, 2, makeNormaliser({ normalization, input }));
    const plane = 8;
    expect(out[0]).toBeCloseTo(1);
    expect(out[1]).toBeCloseTo(10 / 255);
    expect(out[plane + 1]).toBeCloseTo(20 / 255);
    expect(out[2 * plane + 1]).toBeCloseTo(30 / 255);
    for (const i of [2, 3, 4, 5, 6, 7]) expect(out[i]).toBeCloseTo(PAD_PIXEL / 255);
    expect(Array.from(out).every((v) => v >= 0)).toBe(true);
  });

  it('applies mean/std per tensor channel and BGR order', () => {
    const frame = { index: 0, timeS: 0, width: 1, height: 1, data: Uint8Array.of(255, 0, 51) };
    const out = new Float32Array(3);
    const norm = makeNormaliser({
      normalization: { scale: 1 / 255, mean: [0.5, 0, 0], std: [0.5, 1, 2] },
      input: { ...input, channels: 'BGR' },
    });
    fillTensor(frame, out, 1, 1, norm);
    expect(out[0]).toBeCloseTo((0.2 - 0.5) / 0.5); // blue first
    expect(out[1]).toBeCloseTo(0);
    expect(out[2]).toBeCloseTo(1 / 2); // red last
  });
});
