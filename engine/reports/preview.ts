/**
 * Annotated preview JPEG: the frame with one box per detection, a "class score" label beside each
 * box where it fits without covering another label, a legend with the frame's counts and, for a
 * video, the frame's time. Classes differ by colour (Okabe-Ito, told apart with the common colour
 * vision deficiencies too) and by a second cue that needs no colour at all: the outline's style.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { PRODUCT_CLASSES } from '../types.ts';
import type { Detection, ProductClass, RawFrame } from '../types.ts';
import { placeLabels } from './label-placement.ts';
import type { Rect } from './label-placement.ts';

export const CLASS_COLOURS: Readonly<Record<ProductClass, string>> = {
  bee: '#e69f00', // orange
  pollen: '#56b4e9', // sky blue: a yellow would pass for the bee's orange
  drone: '#0072b2', // blue
  wasp: '#cc79a7', // reddish purple
  hornet: '#d55e00', // vermillion
};

/** The cue besides colour: how each class's box is outlined. */
export type OutlineStyle = 'solid' | 'corner' | 'dashed' | 'dash-dot' | 'double';

export const CLASS_OUTLINES: Readonly<Record<ProductClass, OutlineStyle>> = {
  bee: 'solid',
  pollen: 'corner', // solid with a filled corner, as a pollen load is a lump on the leg
  drone: 'dashed',
  wasp: 'dash-dot',
  hornet: 'double', // the class that matters most gets the heaviest outline
};

export const CLASS_LABELS: Readonly<Record<ProductClass, string>> = {
  bee: 'bee',
  pollen: 'pollen bee',
  drone: 'drone',
  wasp: 'wasp',
  hornet: 'hornet',
};

export const PREVIEW_JPEG_QUALITY = 85;

/** Preview width: at least this, or the source's own width when it is narrower. */
export const PREVIEW_MIN_WIDTH = 1600;
/** A very tall source is drawn no taller than this, so one preview frame stays small in memory. */
export const PREVIEW_MAX_HEIGHT = 2400;

/** The size to decode a source at for its preview: never upscaled, at most 1600 x 2400. */
export function previewSize(sourceWidth: number, sourceHeight: number): Rect {
  const scale = Math.min(1, PREVIEW_MIN_WIDTH / sourceWidth, PREVIEW_MAX_HEIGHT / sourceHeight);
  return {
    x: 0,
    y: 0,
    width: Math.max(1, Math.round(sourceWidth * scale)),
    height: Math.max(1, Math.round(sourceHeight * scale)),
  };
}

export interface PreviewOptions {
  /** The frame's time in the video; drawn in the top right corner ("t = 12.4 s"). */
  timeS?: number;
}

export async function renderPreview(
  frame: RawFrame,
  detections: readonly Detection[],
  sourceWidth: number,
  sourceHeight: number,
  options: PreviewOptions = {},
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

  // Text sized to the picture, so that a 1600 px preview shrunk onto a phone stays legible.
  const fontPx = Math.max(12, Math.round(Math.max(w, h) / 80));
  const lineWidth = Math.max(2, Math.round(fontPx / 7));
  ctx.font = `bold ${fontPx}px sans-serif`;
  ctx.textBaseline = 'top';

  // Boxes are in source pixels; the frame is the source scaled.
  const kx = w / sourceWidth;
  const ky = h / sourceHeight;
  const ordered = [...detections].sort((a, b) => importance(b) - importance(a));
  const boxes = ordered.map((d) => ({
    x: d.box.x * kx,
    y: d.box.y * ky,
    width: d.box.width * kx,
    height: d.box.height * ky,
  }));
  boxes.forEach((box, i) => outline(ctx, box, ordered[i]!.cls, lineWidth));

  // The legend's room is kept with a line for the crowding note, which is known only after
  // placement; labels never go there or under the time stamp.
  const entries = legendEntries(detections);
  const crowdNote = (n: number): string => `${n} label${n === 1 ? '' : 's'} left out (crowded)`;
  const reserved = [legendRect(ctx, [...entries, [null, crowdNote(detections.length)]], fontPx)];
  if (options.timeS !== undefined) reserved.push(timeStamp(ctx, options.timeS, fontPx));

  const pad = Math.round(fontPx / 4);
  const texts = ordered.map((d) => `${d.cls} ${d.score.toFixed(2)}`);
  const spots = placeLabels(
    boxes.map((box, i) => ({
      box,
      width: Math.ceil(ctx.measureText(texts[i]!).width) + 2 * pad,
      height: fontPx + 2 * pad,
    })),
    { width: w, height: h },
    reserved,
  );
  spots.forEach((spot, i) => {
    if (spot) label(ctx, texts[i]!, spot, pad, ordered[i]!.cls);
  });
  const dropped = spots.filter((spot) => spot === null).length;
  drawLegend(
    ctx,
    dropped > 0 ? [...entries, [null, crowdNote(dropped)]] : entries,
    fontPx,
    lineWidth,
  );
  return canvas.encode('jpeg', PREVIEW_JPEG_QUALITY);
}

/** Hornets and wasps first, then by score: when labels crowd, a bee's label is the one dropped. */
function importance(d: Detection): number {
  const rank = d.cls === 'hornet' ? 2 : d.cls === 'wasp' ? 1 : 0;
  return rank * 10 + d.score;
}

function outline(ctx: SKRSContext2D, box: Rect, cls: ProductClass, lineWidth: number): void {
  const style = CLASS_OUTLINES[cls];
  const dash =
    style === 'dashed'
      ? [lineWidth * 4, lineWidth * 2]
      : style === 'dash-dot'
        ? [lineWidth * 4, lineWidth * 1.5, lineWidth, lineWidth * 1.5]
        : [];
  const stroke = (r: Rect, width: number): void => {
    // A dark halo under the colour keeps the box visible on pale comb and sky.
    ctx.setLineDash(dash);
    ctx.lineWidth = width + 2;
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.55)';
    ctx.strokeRect(r.x, r.y, r.width, r.height);
    ctx.lineWidth = width;
    ctx.strokeStyle = CLASS_COLOURS[cls];
    ctx.strokeRect(r.x, r.y, r.width, r.height);
  };
  stroke(box, lineWidth);
  if (style === 'double') {
    const gap = lineWidth * 2;
    if (box.width > 2 * gap && box.height > 2 * gap) {
      stroke(
        {
          x: box.x + gap,
          y: box.y + gap,
          width: box.width - 2 * gap,
          height: box.height - 2 * gap,
        },
        lineWidth,
      );
    }
  }
  if (style === 'corner') {
    const size = Math.max(lineWidth * 3, Math.min(box.width, box.height) * 0.3);
    ctx.beginPath();
    ctx.moveTo(box.x + box.width, box.y);
    ctx.lineTo(box.x + box.width - size, box.y);
    ctx.lineTo(box.x + box.width, box.y + size);
    ctx.closePath();
    ctx.fillStyle = CLASS_COLOURS[cls];
    ctx.fill();
  }
  ctx.setLineDash([]);
}

function label(ctx: SKRSContext2D, text: string, at: Rect, pad: number, cls: ProductClass): void {
  ctx.fillStyle = CLASS_COLOURS[cls];
  ctx.fillRect(at.x, at.y, at.width, at.height);
  // Dark text on the light colours, white on the dark ones: contrast ratio above 4.5 for each.
  ctx.fillStyle = cls === 'drone' || cls === 'hornet' ? '#ffffff' : '#000000';
  ctx.fillText(text, at.x + pad, at.y + pad);
}

function timeStamp(ctx: SKRSContext2D, timeS: number, fontPx: number): Rect {
  const text = `t = ${timeS.toFixed(1)} s`;
  const pad = Math.round(fontPx / 3);
  const width = Math.ceil(ctx.measureText(text).width) + 2 * pad;
  const rect = { x: ctx.canvas.width - width - 6, y: 6, width, height: fontPx + 2 * pad };
  ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
  ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
  ctx.fillStyle = '#ffffff';
  ctx.fillText(text, rect.x + pad, rect.y + pad);
  return rect;
}

type LegendEntry = readonly [ProductClass | null, string];

/** Counts per class, or a line saying there are none. */
function legendEntries(detections: readonly Detection[]): LegendEntry[] {
  const counts = new Map<ProductClass, number>();
  for (const d of detections) counts.set(d.cls, (counts.get(d.cls) ?? 0) + 1);
  const entries: LegendEntry[] = PRODUCT_CLASSES.filter((c) => counts.has(c)).map((c) => [
    c,
    `${CLASS_LABELS[c]}: ${counts.get(c) ?? 0}`,
  ]);
  return entries.length > 0 ? entries : [[null, 'no insects detected']];
}

/** Where the legend goes: the bottom left corner. */
function legendRect(ctx: SKRSContext2D, entries: readonly LegendEntry[], fontPx: number): Rect {
  const lineH = Math.round(fontPx * 1.5);
  const swatch = Math.round(fontPx * 1.2);
  const width =
    Math.max(...entries.map(([, t]) => ctx.measureText(t).width)) + swatch + fontPx * 1.5;
  const height = entries.length * lineH + fontPx / 2;
  return { x: 6, y: ctx.canvas.height - height - 6, width: Math.ceil(width), height };
}

/** The legend: each class with a sample of its outline, and any note, on a dark panel. */
function drawLegend(
  ctx: SKRSContext2D,
  entries: readonly LegendEntry[],
  fontPx: number,
  lineWidth: number,
): void {
  const rect = legendRect(ctx, entries, fontPx);
  const lineH = Math.round(fontPx * 1.5);
  const swatch = Math.round(fontPx * 1.2);
  ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
  ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
  entries.forEach(([cls, text], i) => {
    const ly = rect.y + fontPx / 4 + i * lineH + (lineH - fontPx) / 2;
    if (cls) {
      outline(
        ctx,
        { x: rect.x + fontPx / 2, y: ly - 1, width: swatch, height: fontPx + 2 },
        cls,
        lineWidth,
      );
    }
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, rect.x + swatch + fontPx, ly);
  });
}
