export {
  beeCoverage,
  countFrame,
  countTracks,
  honeybeesOnScreen,
  unionArea,
  uniqueCounts,
} from './counts.ts';
export type { OnScreen } from './counts.ts';
export {
  COUNT_COLUMNS,
  FRAME_CSV_COLUMNS,
  frameCsv,
  frameCsvColumns,
  RESEARCH_COLUMNS,
  TRAFFIC_FRAME_COLUMNS,
} from './frame-csv.ts';
export type { FrameCsvOptions, FrameCsvRow } from './frame-csv.ts';
export { csvFixed, csvText, writeCsv } from './csv.ts';
export type { CsvCell, CsvFixed } from './csv.ts';
export { honeybeeShare, SUMMARY_CSV_COLUMNS, summaryCsv } from './summary-csv.ts';
export type { SummaryCsvInput } from './summary-csv.ts';
export { motTracks } from './mot.ts';
export { CLASS_COLOURS, CLASS_LABELS, renderPreview } from './preview.ts';
