import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import { renderPreview } from './preview.ts';

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

    const image = await loadImage(jpeg);
    expect([image.width, image.height]).toEqual([width, height]);
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    // Left edge of the hornet box at x=100, mid-height: red.
    const [r, g, b] = ctx.getImageData(100, 75, 1, 1).data;
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(100);
    expect(b).toBeLessThan(100);
    // Background far from boxes keeps the frame's grey.
    const [br, bg] = ctx.getImageData(250, 20, 1, 1).data;
    expect(Math.abs(br! - 40)).toBeLessThan(15);
    expect(Math.abs(bg! - 40)).toBeLessThan(15);
  });

  it('refuses a frame whose bytes do not match its size', async () => {
    await expect(
      renderPreview({ index: 0, timeS: 0, width: 4, height: 4, data: new Uint8Array(3) }, [], 4, 4),
    ).rejects.toThrow(RangeError);
  });
});
