export { DEFAULT_TRACKER_OPTIONS, Tracker } from './tracker.ts';
export type { TrackerOptions } from './tracker.ts';
