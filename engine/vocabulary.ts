/**
 * The engine's light entry: the words the CLI, the server and the console share with the engine
 * (types, product classes, typed errors and their metadata, count and CSV helpers). It loads
 * neither onnxruntime nor ffmpeg nor a canvas, so importing it costs milliseconds; the engine
 * itself is `engine/index.ts`. Nothing outside engine/ imports any other engine module.
 */
export * from './types.ts';
export * from './errors.ts';
export { seededRandom } from './random.ts';
export {
  beeCoverage,
  countFrame,
  countTracks,
  honeybeesOnScreen,
  unionArea,
} from './reports/counts.ts';
export type { OnScreen } from './reports/counts.ts';
export {
  COUNT_COLUMNS,
  FRAME_CSV_COLUMNS,
  frameCsv,
  frameCsvColumns,
  RESEARCH_COLUMNS,
  TRAFFIC_FRAME_COLUMNS,
} from './reports/frame-csv.ts';
export type { FrameCsvOptions, FrameCsvRow } from './reports/frame-csv.ts';
export { csvFixed, csvText, writeCsv } from './reports/csv.ts';
export type { CsvCell, CsvFixed } from './reports/csv.ts';
export { honeybeeShare, SUMMARY_CSV_COLUMNS, summaryCsv } from './reports/summary-csv.ts';
export type { SummaryCsvInput } from './reports/summary-csv.ts';
export { motTracks } from './reports/mot.ts';
export { MAX_POLYGON_POINTS, parseEntranceLine, parseEntrancePolygon } from './traffic/entrance.ts';
export { readCrossings, scoreCrossings } from './traffic/crossings.ts';
export type { CrossingScore, LabelledCrossing } from './traffic/crossings.ts';
export { trafficConfidence } from './traffic/confidence.ts';
export type {
  ConfidenceBand,
  CountLevel,
  Crowding,
  TrafficConfidence,
} from './traffic/confidence.ts';
export * from './calibration/index.ts';
