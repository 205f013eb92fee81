export { DEFAULT_TRACKER_OPTIONS, TRACK_MAX_GAP_S, Tracker, trackerOptionsFor } from './tracker.ts';
export type { TrackerOptions } from './tracker.ts';
