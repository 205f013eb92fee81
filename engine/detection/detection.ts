/**
 * The only way to make a `Detection`: whatever an adapter decoded is checked here, so a NaN box
 * or an unknown class never reaches tracking or a report.
 */
import { isProductClass } from '../types.ts';
import type { Box, Detection, ProductClass } from '../types.ts';

export function makeDetection(cls: ProductClass, score: number, box: Box): Detection {
  if (!isProductClass(cls)) throw new RangeError(`Unknown detection class: ${String(cls)}`);
  if (!Number.isFinite(score) || score < 0 || score > 1) {
    throw new RangeError(`Detection score must be in [0, 1], got ${score}`);
  }
  const { x, y, width, height } = box;
  if (![x, y, width, height].every(Number.isFinite)) {
    throw new RangeError(`Detection box must be finite, got ${JSON.stringify(box)}`);
  }
  if (width <= 0 || height <= 0) {
    throw new RangeError(`Detection box must have a positive size, got ${width}x${height}`);
  }
  return Object.freeze({ cls, score, box: Object.freeze({ x, y, width, height }) });
}
