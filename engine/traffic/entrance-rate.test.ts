import { describe, expect, it } from 'vitest';
import type { Detection, Entrance, RawFrame } from '../types.ts';
import {
  entranceCrop,
  entranceFpsFor,
  entranceStep,
  EntranceRate,
  fromCrop,
  learntBeeLengthPx,
  onSampleFrames,
  withinCrop,
} from './entrance-rate.ts';

const SLOT: Entrance = {
  kind: 'polygon',
  points: [
    [0.4, 0.5],
    [0.6, 0.5],
    [0.6, 0.55],
    [0.4, 0.55],
  ],
};
const FRAME = { width: 1920, height: 1080 };
const bee = (x: number, y: number, w = 40, h = 60): Detection => ({
  cls: 'bee',
  score: 0.9,
  box: { x, y, width: w, height: h },
});

describe('entranceCrop', () => {
  it('pads the entrance box by bee lengths on every side, on whole pixels', () => {
    // Box 768..1152 x 540..594; 4 bee lengths of 30 px = 120 px.
    expect(entranceCrop(SLOT, FRAME, 30)).toEqual({ x: 648, y: 420, width: 624, height: 294 });
    expect(entranceCrop(SLOT, FRAME, 30, 2)).toEqual({ x: 708, y: 480, width: 504, height: 174 });
    // 4 x 30.7 = 122.8 px: widened outwards.
    expect(entranceCrop(SLOT, FRAME, 30.7)).toEqual({ x: 645, y: 417, width: 630, height: 300 });
  });

  it('clamps to the frame, and takes a line entrance by its two ends', () => {
    const line: Entrance = {
      kind: 'line',
      points: [
        [0, 0.1],
        [0.3, 0.1],
      ],
    };
    expect(entranceCrop(line, FRAME, 100)).toEqual({ x: 0, y: 0, width: 976, height: 508 });
    expect(entranceCrop(SLOT, FRAME, 1000)).toEqual({ x: 0, y: 0, ...FRAME });
  });
});

describe('mapping crop detections back', () => {
  const crop = { x: 648, y: 420, width: 624, height: 294 };

  it('moves boxes by the crop offset', () => {
    expect(fromCrop([bee(10, 20)], crop)).toEqual([bee(658, 440)]);
  });

  it('keeps the boxes the crop sees whole, and those cut by the frame edge only', () => {
    const inside = bee(700, 500);
    const cutLeft = bee(640, 500);
    const cutBottom = bee(700, 700);
    expect(withinCrop([inside, cutLeft, cutBottom], crop, FRAME)).toEqual([inside]);
    const corner = { x: 0, y: 0, width: 500, height: 400 };
    const atFrameEdge = bee(0, 0);
    const atCropEdge = bee(470, 0);
    expect(withinCrop([atFrameEdge, atCropEdge], corner, FRAME)).toEqual([atFrameEdge]);
  });
});

describe('entranceStep and the sample-rate frames', () => {
  it('runs the entrance at the least multiple of the sample rate that reaches the rate asked', () => {
    expect(entranceFpsFor(5, 30, 10)).toBe(10);
    expect(entranceFpsFor(3, 30, 10)).toBe(12);
    expect(entranceFpsFor(2.5, 25, 10)).toBe(10);
    expect(entranceFpsFor(10, 30, 10)).toBeUndefined();
    expect(entranceFpsFor(12, 30, 10)).toBeUndefined();
    expect(entranceFpsFor(5, 30, 15)).toBe(15);
  });

  it('runs none faster than the source has frames', () => {
    expect(entranceFpsFor(5, 10, 10)).toBe(10);
    expect(entranceFpsFor(5, 9.99, 10)).toBeUndefined();
    expect(entranceFpsFor(5, 5, 10)).toBeUndefined();
  });

  it('needs a whole multiple of the sample rate', () => {
    expect(entranceStep(5, 10)).toBe(2);
    expect(entranceStep(5, 15)).toBe(3);
    expect(entranceStep(5, 5)).toBe(1);
    expect(() => entranceStep(5, 12)).toThrow(RangeError);
  });

  it('tells a passage on the first sample-rate frame at or after it', () => {
    const event = { kind: 'in' as const, cls: 'bee' as const, timeS: 0.7, trackIds: [1] };
    expect(onSampleFrames([{ ...event, frame: 7 }], 2)[0]).toMatchObject({ frame: 4, timeS: 0.7 });
    expect(onSampleFrames([{ ...event, frame: 8 }], 2)[0]!.frame).toBe(4);
  });

  it('takes the learnt insect size as three quarters of a bee, at the decode scale', () => {
    expect(learntBeeLengthPx(30, 0.5, 1080)).toBeCloseTo(80, 9);
    expect(learntBeeLengthPx(undefined, 0.5, 1080)).toBe(54);
  });
});

describe('EntranceRate', () => {
  /** A decoded frame at half the source's size, each pixel's red its column / 4. */
  const decoded = (index: number): RawFrame => {
    const width = 960;
    const height = 540;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data[(y * width + x) * 3] = x >> 2;
    return { index, timeS: index / 10, width, height, data };
  };

  it('cuts the crop out of the scaled frame and maps what is found there to source pixels', async () => {
    const rate = new EntranceRate(SLOT, FRAME, 5, 10, { maxAge: 10 }, 30);
    expect(rate.isWhole(decoded(0))).toBe(true);
    expect(rate.isWhole(decoded(1))).toBe(false);
    expect(rate.asSample(decoded(4))).toMatchObject({ index: 2, timeS: 0.4 });
    const { cut, rect } = rate.cut(decoded(1));
    expect(rect).toEqual({ x: 648, y: 420, width: 624, height: 294 });
    expect([cut.width, cut.height]).toEqual([312, 147]);
    expect(cut.data[0]).toBe(324 >> 2);
    expect(cut.data[(cut.width - 1) * 3]).toBe((324 + 311) >> 2);

    // One bee (30 px long, the padding's bee) walking right, seen on whole frames 0 and 2 and on
    // the crop at 1 and 3; the crop's other box is cut by its edge.
    const walker = (x: number, y: number) => bee(x, y, 20, 30);
    rate.whole(decoded(0), [walker(800, 500)]);
    await rate.crop(decoded(1), (crop, w, h) => {
      expect([crop.width, w, h]).toEqual([312, 624, 294]);
      return Promise.resolve([walker(810 - 648, 500 - 420), walker(0, 0)]);
    });
    rate.whole(decoded(2), [walker(820, 500)]);
    await rate.crop(decoded(3), () => Promise.resolve([walker(830 - 648, 80)]));
    const { tracks, sampleFps, frames } = rate.finish();
    expect(sampleFps).toBe(10);
    expect(frames).toEqual({ first: 0, last: 3 });
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.boxes.map((b) => [b.frame, b.box.x])).toEqual([
      [0, 800],
      [1, 810],
      [2, 820],
      [3, 830],
    ]);
  });

  it('pads by the bees it has seen on whole frames once it has seen some', () => {
    const rate = new EntranceRate(SLOT, FRAME, 5, 10, {}, 30);
    rate.whole(decoded(0), [bee(100, 100, 20, 50), bee(300, 100, 20, 50), bee(500, 100, 10, 10)]);
    // Median longer side 50 px: 200 px of padding.
    expect(rate.cut(decoded(1)).rect).toEqual({ x: 568, y: 340, width: 784, height: 454 });
    rate.reset();
    expect(rate.cut(decoded(1)).rect).toEqual({ x: 648, y: 420, width: 624, height: 294 });
  });
});
