import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { CAMERAS } from './cameras.ts';
import { renderFrame } from './render.ts';
import type { Scene } from './render.ts';
import type { BeeState } from './simulate.ts';

/** A grey board and one black "bee" sprite: where the bee is drawn is plain to read back. */
function plainScene(): Scene {
  const camera = CAMERAS['backyard-entrance'];
  const background = createCanvas(camera.width, camera.height);
  const bg = background.getContext('2d');
  bg.fillStyle = 'rgb(200,200,200)';
  bg.fillRect(0, 0, camera.width, camera.height);
  const sprite = createCanvas(40, 20);
  const s = sprite.getContext('2d');
  s.fillStyle = 'rgb(0,0,0)';
  s.fillRect(0, 0, 40, 20);
  return {
    camera,
    background,
    sprites: [{ canvas: sprite, lengthPx: 40, widthPx: 20, cls: 'bee' }],
  };
}

const bee = (over: Partial<BeeState>): BeeState => ({
  id: 1,
  cls: 'bee',
  cx: 400,
  cy: 500,
  angle: 0,
  speed: 0,
  flying: false,
  lengthPx: 56,
  box: { x: 372, y: 486, width: 56, height: 28 },
  sprite: 0,
  spriteTurn: 0,
  ...over,
});

async function luma(jpeg: Buffer, x: number, y: number): Promise<number> {
  const image = await loadImage(jpeg);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
  return (r! + g! + b!) / 3;
}

describe('renderFrame', () => {
  it("draws a bee at its place, at the camera's size, and leaves the board elsewhere", async () => {
    const jpeg = await renderFrame(plainScene(), [bee({})]);
    const image = await loadImage(jpeg);
    expect([image.width, image.height]).toEqual([1920, 1080]);
    expect(await luma(jpeg, 400, 500)).toBeLessThan(60);
    // Scaled to 56 px long: 25 px along its body is still the bee, 40 px is the board.
    expect(await luma(jpeg, 425, 500)).toBeLessThan(100);
    expect(await luma(jpeg, 1200, 200)).toBeGreaterThan(190);
  });

  it('smears a fast bee along its motion, so its centre is no longer solid', async () => {
    const still = await luma(await renderFrame(plainScene(), [bee({})]), 400, 500);
    const fast = await luma(await renderFrame(plainScene(), [bee({ speed: 150 })]), 400, 500);
    expect(fast).toBeGreaterThan(still + 20);
  });
});
