/**
 * The frame editor's box arithmetic, in the still's pixels: moving, resizing by a corner,
 * nudging, adding, drawing by a drag, all kept inside the picture and never under the server's
 * 4 px floor.
 */
import { PRODUCT_CLASSES } from '../../../contract/classes.ts';
import type { ProductClass } from '../../../contract/classes.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type EditClass = ProductClass;

export interface EditBox {
  /** Local id for React keys and selection (not stored). */
  id: number;
  cls: EditClass;
  box: Box;
}

export const MIN_SIDE = 4;

/** Class names as beekeepers say them, with their shortcut digit and the preview's colour. */
const EDIT_LOOK: Record<EditClass, { label: string; key: string; color: string }> = {
  bee: { label: 'Worker', key: '1', color: '#e69f00' },
  pollen: { label: 'Pollen', key: '2', color: '#56b4e9' },
  drone: { label: 'Drone', key: '3', color: '#0072b2' },
  wasp: { label: 'Wasp', key: '4', color: '#cc79a7' },
  hornet: { label: 'Hornet', key: '5', color: '#d55e00' },
};

/** Every class of the contract, in report order, as the editor offers it. */
export const EDIT_CLASSES = PRODUCT_CLASSES.map((cls) => ({ cls, ...EDIT_LOOK[cls] }));

export const classLabel = (cls: string): string =>
  EDIT_CLASSES.find((c) => c.cls === cls)?.label ?? cls;

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** The box moved by (dx, dy), kept whole inside a `w` x `h` picture. */
export function moveBox(b: Box, dx: number, dy: number, w: number, h: number): Box {
  return {
    ...b,
    x: clamp(b.x + dx, 0, Math.max(0, w - b.width)),
    y: clamp(b.y + dy, 0, Math.max(0, h - b.height)),
  };
}

export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** The box with one corner dragged by (dx, dy); the opposite corner stays put. */
export function resizeBox(
  b: Box,
  corner: Corner,
  dx: number,
  dy: number,
  w: number,
  h: number,
): Box {
  let x0 = b.x;
  let y0 = b.y;
  let x1 = b.x + b.width;
  let y1 = b.y + b.height;
  if (corner === 'nw' || corner === 'sw') x0 = clamp(x0 + dx, 0, x1 - MIN_SIDE);
  else x1 = clamp(x1 + dx, x0 + MIN_SIDE, w);
  if (corner === 'nw' || corner === 'ne') y0 = clamp(y0 + dy, 0, y1 - MIN_SIDE);
  else y1 = clamp(y1 + dy, y0 + MIN_SIDE, h);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** A new box centred on (cx, cy), sized like the frame's typical box (or 1/10 of its width). */
export function newBoxAt(
  cx: number,
  cy: number,
  boxes: readonly EditBox[],
  w: number,
  h: number,
): Box {
  const sides = boxes.map((b) => (b.box.width + b.box.height) / 2).sort((a, b) => a - b);
  const side = Math.round(sides.length > 0 ? sides[Math.floor(sides.length / 2)]! : w / 10);
  const s = clamp(side, MIN_SIDE * 4, Math.min(w, h));
  return moveBox({ x: cx - s / 2, y: cy - s / 2, width: s, height: s }, 0, 0, w, h);
}

/**
 * How far (screen pixels) a pointer may wander and still count as a tap: a finger or a mouse
 * that slips a little when selecting must not move a box nor draw one.
 */
export const TAP_SLOP = 6;

export const isTap = (dx: number, dy: number): boolean => Math.hypot(dx, dy) < TAP_SLOP;

/**
 * The box spanned by a drag from (x0, y0) to (x1, y1), in either direction, cut to the picture
 * and at least MIN_SIDE a side (grown the way the drag went, kept inside).
 */
export function boxFromDrag(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  w: number,
  h: number,
): Box {
  const side = (a: number, b: number, limit: number): [number, number] => {
    const lo = clamp(Math.min(a, b), 0, limit);
    const hi = clamp(Math.max(a, b), 0, limit);
    if (hi - lo >= MIN_SIDE) return [lo, hi - lo];
    // Too thin: extend from the start point towards where the drag went.
    const start = clamp(b >= a ? lo : hi - MIN_SIDE, 0, limit - MIN_SIDE);
    return [start, MIN_SIDE];
  };
  const [x, width] = side(x0, x1, w);
  const [y, height] = side(y0, y1, h);
  return { x, y, width, height };
}

/** Whole pixels, as the server compares them. */
export function rounded(b: Box): Box {
  return {
    x: Math.round(b.x),
    y: Math.round(b.y),
    width: Math.round(b.width),
    height: Math.round(b.height),
  };
}

/** Whether two label sets differ (class or box to the whole pixel; order ignored). */
export function changed(a: readonly EditBox[], b: readonly EditBox[]): boolean {
  const key = (e: EditBox) => {
    const r = rounded(e.box);
    return `${e.cls}:${r.x}:${r.y}:${r.width}:${r.height}`;
  };
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length !== right.length || left.some((k, i) => k !== right[i]);
}
