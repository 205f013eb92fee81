import { describe, expect, it } from 'vitest';
import type { RawFrame } from '../types.ts';
import { sampleCrop, viewCrop } from './crop-model.ts';
import { VIEWS, viewAxes, viewFrame } from './test-time.ts';
import type { View } from './test-time.ts';

/** R = 3x, G = 5y, B = 7: bilinear sampling of a linear ramp is exact, so samples are known. */
function ramp(width: number, height: number): RawFrame {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      data[o] = 3 * x;
      data[o + 1] = 5 * y;
      data[o + 2] = 7;
    }
  }
  return { index: 0, timeS: 0, width, height, data };
}

describe('sampleCrop', () => {
  it('samples a square of context x the longer side at step centres', () => {
    const out = new Float32Array(2 + 3 * 36);
    // Box 8x4 centred on (20, 10): side 12, step 2, samples at x = 14.5, 16.5, ... 24.5.
    sampleCrop(ramp(64, 32), { x1: 16, y1: 8, x2: 24, y2: 12 }, 6, 1.5, 'square', out, 2);
    const plane = 36;
    const at = (ch: number, row: number, col: number) => out[2 + ch * plane + row * 6 + col]!;
    expect(out[0]).toBe(0);
    for (let col = 0; col < 6; col++) expect(at(0, 3, col)).toBeCloseTo(3 * (14.5 + 2 * col), 4);
    for (let row = 0; row < 6; row++) expect(at(1, row, 2)).toBeCloseTo(5 * (4.5 + 2 * row), 4);
    expect(at(2, 5, 5)).toBeCloseTo(7, 5);
  });

  it('clamps samples that fall outside the frame to its edge', () => {
    const out = new Float32Array(3 * 16);
    sampleCrop(ramp(10, 10), { x1: 8, y1: -2, x2: 12, y2: 2 }, 4, 2, 'square', out, 0);
    // Side 8 centred on (10, 0): x from 6.5 to 12.5 (clamped to 9), y from -3.5 to 2.5.
    expect(Array.from(out.subarray(0, 4))).toEqual([19.5, 25.5, 27, 27]);
    expect(Array.from(out.subarray(16, 32)).map((v) => Math.round(v))).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 13, 13, 13, 13,
    ]);
  });

  it('stretches a box crop: context x each side of the box', () => {
    const out = new Float32Array(3 * 16);
    // Box 8x4 centred on (20, 10), context 2: 16 x 8, steps 4 and 2.
    sampleCrop(ramp(64, 32), { x1: 16, y1: 8, x2: 24, y2: 12 }, 4, 2, 'box', out, 0);
    expect(Array.from(out.subarray(0, 4))).toEqual([3 * 13.5, 3 * 17.5, 3 * 21.5, 3 * 25.5]);
    expect([0, 1, 2, 3].map((row) => out[16 + row * 4])).toEqual([
      5 * 6.5,
      5 * 8.5,
      5 * 10.5,
      5 * 12.5,
    ]);
  });
});

describe('viewCrop', () => {
  /** A frame with no symmetry: every pixel's colour says where it is. */
  function noise(width: number, height: number): RawFrame {
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919 + ((i * i) % 251)) % 256;
    return { index: 0, timeS: 0, width, height, data };
  }
  /** `b` in a `w` x `h` frame as `v` shows it: transposed, then mirrored (test-time.ts). */
  const mirrorBox = (
    b: { x1: number; y1: number; x2: number; y2: number },
    v: View,
    w: number,
    h: number,
  ) => {
    const { t, h: mh, v: mv } = viewAxes(v);
    const [tb, tw, th] = t ? [{ x1: b.y1, x2: b.y2, y1: b.x1, y2: b.x2 }, h, w] : [b, w, h];
    return {
      x1: mh ? tw - tb.x2 : tb.x1,
      x2: mh ? tw - tb.x1 : tb.x2,
      y1: mv ? th - tb.y2 : tb.y1,
      y2: mv ? th - tb.y1 : tb.y2,
    };
  };

  it.each(VIEWS)('%s: is the crop cut from the viewed frame around the viewed box', (view) => {
    const frame = noise(40, 30);
    const per = 3 * 8 * 8;
    // One box inside the frame, one hanging over its corner (clamped samples mirror too), cut
    // both as the classifier's square and as the refiner's stretched box (turns swap its sides).
    for (const [box, shape] of [
      [{ x1: 9.3, y1: 5.1, x2: 21.7, y2: 13.9 }, 'square'],
      [{ x1: 34, y1: -3, x2: 44, y2: 6 }, 'square'],
      [{ x1: 9.3, y1: 5.1, x2: 21.7, y2: 13.9 }, 'box'],
    ] as const) {
      const out = new Float32Array(2 * per);
      sampleCrop(frame, box, 8, 1.5, shape, out, 0);
      viewCrop(out, 0, per, 8, view);
      const expected = new Float32Array(per);
      sampleCrop(viewFrame(frame, view), mirrorBox(box, view, 40, 30), 8, 1.5, shape, expected, 0);
      Array.from(out.subarray(per)).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 3));
    }
  });
});
