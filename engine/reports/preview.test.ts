import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import { PRODUCT_CLASSES } from '../types.ts';
import { CLASS_COLOURS, CLASS_OUTLINES, previewSize, renderPreview } from './preview.ts';

async function pixels(
  jpeg: Buffer,
): Promise<{ width: number; height: number; at: (x: number, y: number) => number[] }> {
  const image = await loadImage(jpeg);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return {
    width: image.width,
    height: image.height,
    at: (x, y) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)],
  };
}

// Colour vision deficiency simulation (Machado et al. 2009, severity 1) on linear RGB, then
// CIELAB distance: how far apart two colours look to someone with that deficiency.
const DEFICIENCIES: Record<string, number[][]> = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
}; // prettier-ignore

function lab(hex: string, matrix: number[][]): number[] {
  const linear = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const [r, g, b] = matrix.map((row) =>
    Math.min(1, Math.max(0, row[0]! * linear[0]! + row[1]! * linear[1]! + row[2]! * linear[2]!)),
  ) as [number, number, number];
  const f = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

describe('preview palette', () => {
  it('keeps the five classes apart in colour, with normal vision and each colour blindness', () => {
    for (const [name, matrix] of Object.entries(DEFICIENCIES)) {
      for (const [i, a] of PRODUCT_CLASSES.entries()) {
        for (const b of PRODUCT_CLASSES.slice(i + 1)) {
          const [la, lb] = [lab(CLASS_COLOURS[a], matrix), lab(CLASS_COLOURS[b], matrix)];
          const distance = Math.hypot(la[0]! - lb[0]!, la[1]! - lb[1]!, la[2]! - lb[2]!);
          expect(distance, `${a} vs ${b}, ${name}`).toBeGreaterThan(15);
        }
      }
    }
  });

  it('gives every class its own outline style as a second cue', () => {
    expect(new Set(PRODUCT_CLASSES.map((c) => CLASS_OUTLINES[c])).size).toBe(
      PRODUCT_CLASSES.length,
    );
  });
});

describe('previewSize', () => {
  it('is 1600 px wide for a wider source and never upscales a narrower one', () => {
    expect(previewSize(3840, 1080)).toMatchObject({ width: 1600, height: 450 });
    expect(previewSize(1280, 720)).toMatchObject({ width: 1280, height: 720 });
    // A very tall source is bounded in height, so one frame stays small in memory.
    expect(previewSize(2000, 8000)).toMatchObject({ width: 600, height: 2400 });
  });
});

describe('renderPreview', () => {
  it('draws the frame with class-coloured boxes scaled from source pixels into a JPEG', async () => {
    const width = 320;
    const height = 180;
    const data = new Uint8Array(width * height * 3).fill(40);
    // Source is 4x the frame: a hornet box at (400, 200) source is at (100, 50) in the frame.
    const detections = [
      makeDetection('hornet', 0.91, { x: 400, y: 200, width: 200, height: 200 }),
      makeDetection('bee', 0.5, { x: 40, y: 40, width: 80, height: 60 }),
    ];
    const jpeg = await renderPreview(
      { index: 0, timeS: 0, width, height, data },
      detections,
      1280,
      720,
    );
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const image = await pixels(jpeg);
    expect([image.width, image.height]).toEqual([width, height]);
    // Left edge of the hornet box at x=100, mid-height: vermillion (#d55e00; JPEG softens a thin
    // line's colour), red well above blue.
    const [r, g, b] = image.at(100, 75);
    expect(r).toBeGreaterThan(140);
    expect(r! - b!).toBeGreaterThan(80);
    expect(r! - g!).toBeGreaterThan(30);
    // A second outline two line widths inside, a dark halo between: the hornet's double cue.
    expect(image.at(102, 75)[0]).toBeLessThan(100);
    expect(image.at(104, 75)[0]).toBeGreaterThan(140);
    // Background far from boxes keeps the frame's grey.
    const [br, bg] = image.at(250, 150);
    expect(Math.abs(br! - 40)).toBeLessThan(15);
    expect(Math.abs(bg! - 40)).toBeLessThan(15);
  });

  it("states a video frame's time in the top right corner", async () => {
    const width = 400;
    const height = 200;
    const data = new Uint8Array(width * height * 3).fill(200);
    const frame = { index: 62, timeS: 12.4, width, height, data };
    const plain = await pixels(await renderPreview(frame, [], width, height));
    const timed = await pixels(await renderPreview(frame, [], width, height, { timeS: 12.4 }));
    // The stamp's dark panel sits at the top right; without a time that corner stays pale.
    expect(plain.at(width - 12, 10)[0]).toBeGreaterThan(180);
    expect(timed.at(width - 12, 10)[0]).toBeLessThan(120);
  });

  it('adds a line to the legend when labels had to be left out', async () => {
    const width = 400;
    const height = 240;
    const data = new Uint8Array(width * height * 3).fill(220);
    const frame = { index: 0, timeS: 0, width, height, data };
    const row = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        makeDetection('bee', 0.8, { x: 150 + i * 12, y: 40, width: 12, height: 12 }),
      );
    // Top of the legend's dark panel, scanning up its left edge from the bottom.
    const legendTop = async (detections: ReturnType<typeof row>): Promise<number> => {
      const image = await pixels(await renderPreview(frame, detections, width, height));
      let y = height - 8;
      while (y > 0 && image.at(8, y - 1)[0]! < 120) y -= 1;
      return y;
    };
    const roomy = await legendTop(row(2));
    // Twenty bees side by side, a label a bee: most labels find no free spot.
    const crowded = await legendTop(row(20));
    expect(roomy - crowded).toBeGreaterThan(12);
  });

  it('refuses a frame whose bytes do not match its size', async () => {
    await expect(
      renderPreview({ index: 0, timeS: 0, width: 4, height: 4, data: new Uint8Array(3) }, [], 4, 4),
    ).rejects.toThrow(RangeError);
  });
});
