import { describe, expect, it } from 'vitest';
import { ModelError } from '../../errors.ts';
import { adapterFor, OUTPUT_FORMATS } from './index.ts';
import { decodeYolo } from './yolo.ts';

/** Builds a [1, 4 + C, N] tensor from per-candidate rows [cx, cy, w, h, ...scores]. */
function tensor(rows: number[][], classes: number) {
  const n = rows.length;
  const data = new Float32Array((4 + classes) * n);
  rows.forEach((row, i) => row.forEach((v, k) => (data[k * n + i] = v)));
  return { data, dims: [1, 4 + classes, n] };
}

describe('yolo adapter', () => {
  it('is registered under its format', () => {
    expect(OUTPUT_FORMATS).toContain('yolo');
    expect(adapterFor('yolo')?.format).toBe('yolo');
    expect(adapterFor('nope')).toBeUndefined();
  });

  it('decodes centre boxes to corners with the best class, dropping low scores', () => {
    const out = decodeYolo(
      tensor(
        [
          [50, 40, 20, 10, 0.1, 0.9], // channel 1
          [10, 10, 4, 4, 0.2, 0.1], // below threshold
          [100, 80, 10, 20, 0.6, 0.5], // channel 0
        ],
        2,
      ),
      { numChannels: 2, channelThresholds: Float32Array.of(0.3, 0.3) },
    );
    expect(out.count).toBe(2);
    expect(Array.from(out.boxes)).toEqual([40, 35, 60, 45, 95, 70, 105, 90]);
    expect(Array.from(out.scores)).toEqual([Math.fround(0.9), Math.fround(0.6)]);
    expect(Array.from(out.channels)).toEqual([1, 0]);
  });

  it('applies per-channel thresholds and ignores null channels', () => {
    const rows = [
      [5, 5, 2, 2, 0.35, 0, 0], // ch0 at 0.35 < its 0.5 threshold
      [5, 5, 2, 2, 0, 0.35, 0], // ch1 threshold 0.3: kept
      [5, 5, 2, 2, 0.2, 0, 0.99], // ch2 ignored (null class): best real is ch0 0.2
    ];
    const out = decodeYolo(tensor(rows, 3), {
      numChannels: 3,
      channelThresholds: Float32Array.of(0.5, 0.3, Infinity),
    });
    expect(out.count).toBe(1);
    expect(Array.from(out.channels)).toEqual([1]);
  });

  it('refuses an output whose shape does not match the card', () => {
    expect(() =>
      decodeYolo(tensor([[1, 1, 1, 1, 1]], 1), {
        numChannels: 2,
        channelThresholds: Float32Array.of(0.1, 0.1),
      }),
    ).toThrow(ModelError);
  });

  it('decodes 33k anchors quickly and grows past its initial capacity', () => {
    const n = 33_660;
    const c = 4;
    const data = new Float32Array((4 + c) * n);
    for (let i = 0; i < n; i++) {
      data[i] = i % 960;
      data[n + i] = (i * 7) % 544;
      data[2 * n + i] = 20;
      data[3 * n + i] = 20;
      data[(4 + (i % c)) * n + i] = i % 10 === 0 ? 0.8 : 0.05;
    }
    const started = performance.now();
    const out = decodeYolo(
      { data, dims: [1, 4 + c, n] },
      { numChannels: c, channelThresholds: new Float32Array(c).fill(0.3) },
    );
    expect(performance.now() - started).toBeLessThan(100);
    expect(out.count).toBe(Math.ceil(n / 10));
  });
});
