/**
 * Synthetic frames on a real camera: the empty scene is the camera's own labelled frames with
 * every labelled bee masked out and the rest averaged (the board as it is, bees gone), and each
 * simulated bee is one of the labelled bees cut from those frames (isolated ones, an elliptic
 * feathered cut so the board shows round it), turned to its heading and scaled to its length,
 * over a soft shadow (further off and fainter in flight), smeared along its motion over the
 * exposure. Nothing rendered is kept: frames go to a temporary folder for one run.
 */
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import { buildLabelMap } from '../../engine/eval/labels.ts';
import { readDataset } from '../../engine/eval/datasets.ts';
import type { LabelledBox } from '../../engine/eval/datasets.ts';
import type { EntranceCamera } from './cameras.ts';
import { BEE_ASPECT } from './simulate.ts';
import type { BeeState } from './simulate.ts';

export interface Scene {
  camera: EntranceCamera;
  background: Canvas;
  /**
   * Labelled bees cut out, turned so that the long side of the labelled box lies along x:
   * elongated boxes only, whose long side is the body's axis (head or tail first, unknown).
   */
  sprites: { canvas: Canvas; lengthPx: number; widthPx: number; cls: string }[];
}

/** Frames averaged into the background (spread over the run), and the most sprites kept. */
const BACKGROUND_FRAMES = 16;
const MOST_SPRITES = 48;

export async function loadScene(camera: EntranceCamera, datasets: string): Promise<Scene> {
  const dataset = await readDataset(path.join(datasets, camera.dataset.root), buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error(`${camera.dataset.root} is not a box dataset`);
  const images = dataset.images
    .filter((i) => camera.dataset.pattern.test(path.basename(i.path)))
    .sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  if (images.length === 0) throw new Error(`no frames of ${camera.name} in ${dataset.root}`);
  const { width, height } = camera;
  const step = Math.max(1, Math.floor(images.length / BACKGROUND_FRAMES));
  const picked = images.filter((_, i) => i % step === 0).slice(0, BACKGROUND_FRAMES);
  const sum = new Float32Array(width * height * 3);
  const count = new Uint16Array(width * height);
  const plain = new Float32Array(width * height * 3);
  const sprites: Scene['sprites'] = [];
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  for (const image of picked) {
    ctx.drawImage(await loadImage(image.path), 0, 0, width, height);
    const data = ctx.getImageData(0, 0, width, height).data;
    const masked = new Uint8Array(width * height);
    for (const g of image.gt) {
      const b = pixelBox(g, width, height, 1.25);
      for (let y = b.y0; y < b.y1; y++) masked.fill(1, y * width + b.x0, y * width + b.x1);
    }
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 3; c++) plain[p * 3 + c]! += data[p * 4 + c]!;
      if (masked[p]) continue;
      count[p]!++;
      for (let c = 0; c < 3; c++) sum[p * 3 + c]! += data[p * 4 + c]!;
    }
    if (sprites.length < MOST_SPRITES) sprites.push(...cutSprites(canvas, image.gt, camera));
  }
  const out = ctx.createImageData(width, height);
  for (let p = 0; p < width * height; p++) {
    const n = count[p]!;
    for (let c = 0; c < 3; c++) {
      out.data[p * 4 + c] = n > 0 ? sum[p * 3 + c]! / n : plain[p * 3 + c]! / picked.length;
    }
    out.data[p * 4 + 3] = 255;
  }
  const background = createCanvas(width, height);
  background.getContext('2d').putImageData(out, 0, 0);
  if (sprites.length === 0) throw new Error(`no isolated labelled bee on ${camera.name}'s frames`);
  return { camera, background, sprites: sprites.slice(0, MOST_SPRITES) };
}

/** One frame with `bees` drawn on the empty scene, as a JPEG. */
export async function renderFrame(scene: Scene, bees: readonly BeeState[]): Promise<Buffer> {
  const { width, height } = scene.camera;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(scene.background, 0, 0);
  for (const bee of bees) {
    const L = bee.lengthPx;
    // Shadow: the sun's offset; a flying bee's falls further off, softer.
    const off = bee.flying ? 0.8 * L : 0.12 * L;
    ctx.save();
    ctx.translate(bee.cx + off * 0.6, bee.cy + off);
    ctx.rotate(bee.angle);
    // A soft edge by a radial fade (a blur filter costs seconds on a 4K frame).
    ctx.scale(1, 0.45);
    const shade = ctx.createRadialGradient(0, 0, 0, 0, 0, 0.5 * L);
    shade.addColorStop(0, `rgba(0,0,0,${bee.flying ? 0.12 : 0.3})`);
    shade.addColorStop(1, 'rgba(0,0,0,0)');
    ctx.fillStyle = shade;
    ctx.beginPath();
    ctx.arc(0, 0, 0.5 * L, 0, 2 * Math.PI);
    ctx.fill();
    ctx.restore();
    const sprite = scene.sprites[bee.sprite % scene.sprites.length]!;
    // The labelled box drawn to the bee's own L x W box (BeeState.box is that, turned).
    const sx = L / sprite.lengthPx;
    const sy = (BEE_ASPECT * L) / sprite.widthPx;
    // Exposure of half a render frame: copies along the motion, each faint.
    const smear = bee.speed / 2;
    const copies = Math.min(8, Math.max(1, Math.ceil(smear / (0.08 * L))));
    const dx = Math.cos(bee.angle) * smear;
    const dy = Math.sin(bee.angle) * smear;
    ctx.save();
    ctx.globalAlpha = copies > 1 ? 1.6 / copies : 1;
    for (let i = 0; i < copies; i++) {
      const f = copies > 1 ? i / (copies - 1) - 0.5 : 0;
      ctx.save();
      ctx.translate(bee.cx + f * dx, bee.cy + f * dy);
      ctx.rotate(bee.angle + bee.spriteTurn);
      ctx.scale(sx, sy);
      ctx.drawImage(sprite.canvas, -sprite.canvas.width / 2, -sprite.canvas.height / 2);
      ctx.restore();
    }
    ctx.restore();
  }
  return canvas.encode('jpeg', 92);
}

function pixelBox(g: LabelledBox, width: number, height: number, grow: number) {
  const cx = (g.box.x + g.box.width / 2) * width;
  const cy = (g.box.y + g.box.height / 2) * height;
  const w = g.box.width * width * grow;
  const h = g.box.height * height * grow;
  const clamp = (v: number, most: number) => Math.max(0, Math.min(most, Math.round(v)));
  return {
    x0: clamp(cx - w / 2, width),
    x1: clamp(cx + w / 2, width),
    y0: clamp(cy - h / 2, height),
    y1: clamp(cy + h / 2, height),
  };
}

/** Labelled bees with no other box near them, cut with a feathered ellipse. */
function cutSprites(frame: Canvas, gt: readonly LabelledBox[], camera: EntranceCamera) {
  const { width, height } = camera;
  const sprites: Scene['sprites'] = [];
  gt.forEach((g, i) => {
    const b = pixelBox(g, width, height, 1.1);
    const w = b.x1 - b.x0;
    const h = b.y1 - b.y0;
    if (w < 8 || h < 8 || b.x0 === 0 || b.y0 === 0 || b.x1 === width || b.y1 === height) return;
    // Only a clearly long box tells the body's axis.
    if (Math.max(w, h) < 1.5 * Math.min(w, h)) return;
    const clear = gt.every((o, j) => {
      if (j === i) return true;
      const ob = pixelBox(o, width, height, 1.3);
      return ob.x1 <= b.x0 || ob.x0 >= b.x1 || ob.y1 <= b.y0 || ob.y0 >= b.y1;
    });
    if (!clear) return;
    const canvas = createCanvas(Math.max(w, h), Math.min(w, h));
    const ctx = canvas.getContext('2d');
    if (w >= h) ctx.drawImage(frame, b.x0, b.y0, w, h, 0, 0, w, h);
    else {
      // Standing: turned a quarter so that its long side lies along x.
      ctx.translate(h, 0);
      ctx.rotate(Math.PI / 2);
      ctx.drawImage(frame, b.x0, b.y0, w, h, 0, 0, w, h);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    }
    const [cw, ch] = [canvas.width, canvas.height];
    const mask = createCanvas(cw, ch);
    const m = mask.getContext('2d');
    // A circle squeezed to the crop: the fade reaches every edge.
    const r = Math.max(cw, ch) / 2;
    m.scale(cw / (2 * r), ch / (2 * r));
    const grad = m.createRadialGradient(r, r, 0, r, r, r);
    grad.addColorStop(0, 'rgba(0,0,0,1)');
    grad.addColorStop(0.7, 'rgba(0,0,0,1)');
    grad.addColorStop(1, 'rgba(0,0,0,0)');
    m.fillStyle = grad;
    m.fillRect(0, 0, 2 * r, 2 * r);
    ctx.globalCompositeOperation = 'destination-in';
    ctx.drawImage(mask, 0, 0);
    sprites.push({ canvas, lengthPx: cw / 1.1, widthPx: ch / 1.1, cls: g.cls });
  });
  return sprites;
}
