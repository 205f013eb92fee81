export {
  DEFAULT_TRACKER_OPTIONS,
  TRACK_MAX_GAP_S,
  Tracker,
  trackerOptionsFor,
  WEAK_TRACK_MIN_S,
} from './tracker.ts';
export type { TrackerOptions } from './tracker.ts';
