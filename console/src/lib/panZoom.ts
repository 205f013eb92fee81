/**
 * The frame editor's view of its picture: a scale and an offset that place the picture in the
 * viewport (screen = picture * scale + offset, in CSS pixels from the viewport's top-left).
 * Zooming keeps the point under the pointer (or between two fingers) where it is; the picture
 * never shrinks below fitting the viewport nor drifts away from its edges.
 */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** How far in one can zoom, as a multiple of the whole picture fitting the viewport. */
export const MAX_ZOOM = 8;

/** The zoom steps of the + and − buttons, as multiples of the fitting scale. */
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4, 6, 8];

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** The scale at which the whole picture just fits the viewport. */
export const fitScale = (img: Size, vp: Size): number =>
  Math.max(Number.MIN_VALUE, Math.min(vp.width / img.width, vp.height / img.height));

/** Along one axis: the picture centred when it is narrower than the viewport, else edge to edge. */
function clampOffset(offset: number, shown: number, room: number): number {
  if (shown <= room) return (room - shown) / 2;
  return clamp(offset, room - shown, 0);
}

/** The view brought back inside its limits: scale between fitting and MAX_ZOOM, no empty edge. */
export function clampView(v: View, img: Size, vp: Size): View {
  const fit = fitScale(img, vp);
  const scale = clamp(v.scale, fit, fit * MAX_ZOOM);
  return {
    scale,
    x: clampOffset(v.x, img.width * scale, vp.width),
    y: clampOffset(v.y, img.height * scale, vp.height),
  };
}

/** The whole picture, centred. */
export const fitView = (img: Size, vp: Size): View =>
  clampView({ scale: fitScale(img, vp), x: 0, y: 0 }, img, vp);

/** How far the view is zoomed, in per cent of the fitting scale. */
export const zoomPercent = (v: View, img: Size, vp: Size): number =>
  Math.round((100 * v.scale) / fitScale(img, vp));

/** The picture point shown at a viewport point. */
export const toPicture = (v: View, p: Point): Point => ({
  x: (p.x - v.x) / v.scale,
  y: (p.y - v.y) / v.scale,
});

/** The view scaled to `scale`, with the picture point under viewport point `at` kept there. */
export function zoomTo(v: View, scale: number, at: Point, img: Size, vp: Size): View {
  const under = toPicture(v, at);
  const fit = fitScale(img, vp);
  const s = clamp(scale, fit, fit * MAX_ZOOM);
  return clampView({ scale: s, x: at.x - under.x * s, y: at.y - under.y * s }, img, vp);
}

/** The view moved by (dx, dy) screen pixels. */
export const panBy = (v: View, dx: number, dy: number, img: Size, vp: Size): View =>
  clampView({ ...v, x: v.x + dx, y: v.y + dy }, img, vp);

/** The view at its scale with picture point `p` in the middle of the viewport (as near as fits). */
export const centreOn = (v: View, p: Point, img: Size, vp: Size): View =>
  clampView({ ...v, x: vp.width / 2 - p.x * v.scale, y: vp.height / 2 - p.y * v.scale }, img, vp);

/** The next zoom step in (`step` 1) or out (-1) from the view's zoom; null past the last. */
export function nextZoomStep(v: View, step: 1 | -1, img: Size, vp: Size): number | null {
  const relative = v.scale / fitScale(img, vp);
  const steps = step > 0 ? ZOOM_STEPS : [...ZOOM_STEPS].reverse();
  const next = steps.find((z) => (step > 0 ? z > relative * 1.01 : z < relative / 1.01));
  return next === undefined ? null : next * fitScale(img, vp);
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * Two fingers: the view when they went down (`start`, at a0 and b0) followed to where they are
 * (a1, b1). Spreading scales by the ratio of the distances; the picture point between the fingers
 * at the start stays between them, so moving both pans.
 */
export function pinchView(
  start: View,
  a0: Point,
  b0: Point,
  a1: Point,
  b1: Point,
  img: Size,
  vp: Size,
): View {
  const ratio = distance(a1, b1) / Math.max(1, distance(a0, b0));
  const fit = fitScale(img, vp);
  const scale = clamp(start.scale * ratio, fit, fit * MAX_ZOOM);
  const under = toPicture(start, middle(a0, b0));
  const now = middle(a1, b1);
  return clampView({ scale, x: now.x - under.x * scale, y: now.y - under.y * scale }, img, vp);
}
