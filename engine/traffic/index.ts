export {
  entranceDistance,
  entranceSide,
  MAX_POLYGON_POINTS,
  parseEntranceLine,
  parseEntrancePolygon,
} from './entrance.ts';
export type { EntranceSide } from './entrance.ts';
export { centreOf, countTraffic, DEFAULT_TRAFFIC_OPTIONS } from './count.ts';
export type { TrafficOptions, TrafficVideo } from './count.ts';
export { proposeEntrance } from './propose.ts';
export type { EntranceProposal, ProposeOptions } from './propose.ts';
export { readCrossings, scoreCrossings } from './crossings.ts';
export type { CrossingScore, LabelledCrossing } from './crossings.ts';
export { ENTRANCE_NEAR_BEE_LENGTHS, entranceDensity } from './density.ts';
export { crowdingOf, trafficConfidence } from './confidence.ts';
export type {
  ConfidenceBand,
  ConfidenceTable,
  CountLevel,
  Crowding,
  PassageScore,
  TrafficConfidence,
} from './confidence.ts';
