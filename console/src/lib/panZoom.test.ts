import { describe, expect, it } from 'vitest';
import {
  MAX_ZOOM,
  centreOn,
  clampView,
  fitView,
  nextZoomStep,
  panBy,
  pinchView,
  toPicture,
  zoomPercent,
  zoomTo,
} from './panZoom.ts';

// A wide still (4:1) in a phone's tall viewport: it fits by width, centred vertically.
const img = { width: 800, height: 200 };
const vp = { width: 400, height: 600 };

describe('frame editor view: screen and picture coordinates under zoom and pan', () => {
  it('fits the whole picture, centred, and maps the screen back to the picture', () => {
    const v = fitView(img, vp);
    expect(v).toEqual({ scale: 0.5, x: 0, y: 250 });
    expect(toPicture(v, { x: 200, y: 300 })).toEqual({ x: 400, y: 100 });
    expect(zoomPercent(v, img, vp)).toBe(100);
  });

  it('zooms about a point, which stays under the pointer', () => {
    const v = zoomTo(fitView(img, vp), 1, { x: 100, y: 300 }, img, vp);
    expect(v.scale).toBe(1);
    expect(toPicture(v, { x: 100, y: 300 })).toEqual({ x: 200, y: 100 });
    expect(zoomPercent(v, img, vp)).toBe(200);
  });

  it('never zooms out past fitting nor in past MAX_ZOOM, nor shows an empty edge', () => {
    const fit = fitView(img, vp);
    expect(zoomTo(fit, 0.01, { x: 0, y: 0 }, img, vp)).toEqual(fit);
    expect(zoomTo(fit, 100, { x: 0, y: 0 }, img, vp).scale).toBe(0.5 * MAX_ZOOM);
    // Zoomed to 4x (2 picture px a screen px): the picture is 1600 x 400 on screen.
    const big = clampView({ scale: 2, x: 50, y: 0 }, img, vp);
    expect(big).toEqual({ scale: 2, x: 0, y: 100 });
    expect(panBy(big, -5000, 0, img, vp).x).toBe(400 - 1600);
  });

  it('centres a picture point as far as the edges allow', () => {
    const v = { scale: 2, x: 0, y: 100 };
    expect(centreOn(v, { x: 400, y: 100 }, img, vp)).toEqual({ scale: 2, x: -600, y: 100 });
    expect(centreOn(v, { x: 10, y: 100 }, img, vp).x).toBe(0);
  });

  it('steps the zoom buttons through their levels from wherever a pinch left it', () => {
    const fit = fitView(img, vp);
    expect(nextZoomStep(fit, 1, img, vp)).toBe(0.75);
    expect(nextZoomStep(fit, -1, img, vp)).toBeNull();
    expect(nextZoomStep({ ...fit, scale: 1.1 }, -1, img, vp)).toBe(1);
    expect(nextZoomStep({ ...fit, scale: 4 }, 1, img, vp)).toBeNull();
  });

  it('pinches: spreading two fingers zooms about their middle, moving both pans', () => {
    const start = { scale: 1, x: -200, y: 200 };
    const a = { x: 150, y: 300 };
    const b = { x: 250, y: 300 };
    const under = toPicture(start, { x: 200, y: 300 });
    // Twice as far apart, about the same middle: twice the scale, same point in the middle.
    const spread = pinchView(start, a, b, { x: 100, y: 300 }, { x: 300, y: 300 }, img, vp);
    expect(spread.scale).toBe(2);
    expect(toPicture(spread, { x: 200, y: 300 })).toEqual(under);
    // Same distance, both 30 px left: a pan.
    const pan = pinchView(start, a, b, { x: 120, y: 300 }, { x: 220, y: 300 }, img, vp);
    expect(pan).toEqual({ scale: 1, x: -230, y: 200 });
  });
});
