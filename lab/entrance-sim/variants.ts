/**
 * Tracker and counting settings the benchmark compares (`--variant`), each over the product's
 * own (`trackerOptionsFor` at the sample rate, the shipped model's thresholds).
 */
import type { TrackerOptions } from '../../engine/tracking/tracker.ts';
import type { TrafficOptions } from '../../engine/traffic/count.ts';

export interface Variant {
  description: string;
  tracker?: (fps: number) => TrackerOptions;
  traffic?: TrafficOptions;
}

export const VARIANTS: Record<string, Variant> = {
  product: { description: 'the product as shipped' },
};
