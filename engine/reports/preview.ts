/**
 * Annotated preview JPEG: the analysed frame with one box per detection, coloured by class, a
 * small "class score" label, and a legend with the frame's counts.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { PRODUCT_CLASSES } from '../types.ts';
import type { Detection, ProductClass, RawFrame } from '../types.ts';

export const CLASS_COLOURS: Readonly<Record<ProductClass, string>> = {
  bee: '#f2a900', // amber
  pollen: '#ffe03a', // pollen yellow
  drone: '#2f7bff', // blue
  wasp: '#a040ff', // purple
  hornet: '#ff2d2d', // red
};

export const CLASS_LABELS: Readonly<Record<ProductClass, string>> = {
  bee: 'bee',
  pollen: 'pollen bee',
  drone: 'drone',
  wasp: 'wasp',
  hornet: 'hornet',
};

export const PREVIEW_JPEG_QUALITY = 85;

export async function renderPreview(
  frame: RawFrame,
  detections: readonly Detection[],
  sourceWidth: number,
  sourceHeight: number,
): Promise<Buffer> {
  const { width: w, height: h, data } = frame;
  if (data.length !== w * h * 3) {
    throw new RangeError(`Frame ${w}x${h} must carry ${w * h * 3} RGB bytes, got ${data.length}`);
  }
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(w, h);
  const rgba = image.data;
  for (let s = 0, d = 0; s < data.length; s += 3, d += 4) {
    rgba[d] = data[s]!;
    rgba[d + 1] = data[s + 1]!;
    rgba[d + 2] = data[s + 2]!;
    rgba[d + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);

  // Boxes are in source pixels; the frame is the (scaled) analysed image.
  const kx = w / sourceWidth;
  const ky = h / sourceHeight;
  const unit = Math.max(1, Math.min(w, h) / 360);
  const fontPx = Math.max(9, Math.round(11 * unit));
  ctx.font = `${fontPx}px sans-serif`;
  ctx.textBaseline = 'top';
  ctx.lineWidth = Math.max(1.5, 2 * unit);
  for (const d of detections) {
    const x = d.box.x * kx;
    const y = d.box.y * ky;
    ctx.strokeStyle = CLASS_COLOURS[d.cls];
    ctx.strokeRect(x, y, d.box.width * kx, d.box.height * ky);
    label(ctx, `${d.cls} ${d.score.toFixed(2)}`, x, Math.max(0, y - fontPx - 4), fontPx, d.cls);
  }
  legend(ctx, detections, fontPx);
  return canvas.encode('jpeg', PREVIEW_JPEG_QUALITY);
}

function label(
  ctx: SKRSContext2D,
  text: string,
  x: number,
  y: number,
  fontPx: number,
  cls: ProductClass,
): void {
  const width = ctx.measureText(text).width + 6;
  ctx.fillStyle = CLASS_COLOURS[cls];
  ctx.fillRect(x, y, width, fontPx + 4);
  ctx.fillStyle = cls === 'drone' || cls === 'wasp' || cls === 'hornet' ? '#ffffff' : '#1a1a1a';
  ctx.fillText(text, x + 3, y + 2);
}

function legend(ctx: SKRSContext2D, detections: readonly Detection[], fontPx: number): void {
  const counts = new Map<ProductClass, number>();
  for (const d of detections) counts.set(d.cls, (counts.get(d.cls) ?? 0) + 1);
  const lines: [ProductClass, string][] = PRODUCT_CLASSES.filter((c) => counts.has(c)).map((c) => [
    c,
    `${CLASS_LABELS[c]}: ${counts.get(c) ?? 0}`,
  ]);
  if (lines.length === 0) lines.push(['bee', 'no insects detected']);
  const lineH = fontPx + 6;
  const width = Math.max(...lines.map(([, t]) => ctx.measureText(t).width)) + fontPx + 16;
  const x = 6;
  const y = ctx.canvas.height - lines.length * lineH - 10;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.fillRect(x, y, width, lines.length * lineH + 6);
  lines.forEach(([cls, text], i) => {
    const ly = y + 4 + i * lineH;
    ctx.fillStyle = counts.has(cls) ? CLASS_COLOURS[cls] : '#888888';
    ctx.fillRect(x + 5, ly + 1, fontPx, fontPx);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, x + fontPx + 10, ly);
  });
}
