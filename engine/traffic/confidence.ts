/**
 * How far a video's in/out count can be trusted, from how crowded its entrance was: the synthetic
 * entrance benchmark (`npm run bench:traffic`, exact truth) measured crossing precision and recall
 * per density and sample rate, and `npm run bench:traffic -- --write-confidence` writes them to
 * `confidence-table.ts`. Its density is the product's own (`entranceDensity` on the feed's
 * boxes), so a video's figure is read against the band it matches.
 *
 * The band is the nearest one, not an interpolation: the benchmark ran at a few densities, and
 * figures between two of them were never measured. Nearness is on a ratio scale (4 bees is
 * nearer 2 than 12), rates first: the bands at the sample rate nearest the video's.
 */
import type { ConfidenceBand, ConfidenceTable, Crowding } from '../types.ts';
import { TRAFFIC_CONFIDENCE } from './confidence-table.ts';

export type { ConfidenceBand, ConfidenceTable, Crowding, PassageScore } from '../types.ts';

/** The benchmark's word for a scene of `sceneBees`. */
export function crowdingOf(sceneBees: number): Crowding {
  return sceneBees <= 8 ? 'quiet' : sceneBees <= 25 ? 'busy' : 'crowded';
}

/** close: every figure at least 0.85 (issue 56's target); fair: at least 0.7; else rough. */
export type CountLevel = 'close' | 'fair' | 'rough';

export interface TrafficConfidence {
  band: ConfidenceBand;
  level: CountLevel;
  /**
   * Which way the count leans at this density: the benchmark counted recall / precision of the
   * true passages (in and out together), under 0.85 of them `under`, over 1.15 `over`.
   */
  leans: 'under' | 'over' | null;
  /** What measured it, for a reader: the benchmark, its feed and its date. */
  source: string;
}

const FEED_WORDS: Record<ConfidenceTable['feed'], string> = {
  noise: 'the detector’s errors simulated',
  detector: 'the real detector',
};

export const CLOSE_COUNT = 0.85;
export const FAIR_COUNT = 0.7;

export function trafficConfidence(
  meanNear: number,
  sampleFps = 5,
  table: ConfidenceTable = TRAFFIC_CONFIDENCE,
): TrafficConfidence | null {
  if (table.bands.length === 0 || !Number.isFinite(meanNear)) return null;
  const fps = nearest(
    table.bands.map((b) => b.sampleFps),
    (f) => Math.abs(Math.log(f / sampleFps)),
  );
  const atRate = table.bands.filter((b) => b.sampleFps === fps);
  const ratio = (v: number) => Math.log(Math.max(v, 0) + 1);
  const band = atRate.reduce((best, b) =>
    Math.abs(ratio(b.meanNear) - ratio(meanNear)) < Math.abs(ratio(best.meanNear) - ratio(meanNear))
      ? b
      : best,
  );
  const figures = [band.in.precision, band.in.recall, band.out.precision, band.out.recall];
  const worst = Math.min(...figures);
  const level: CountLevel = worst >= CLOSE_COUNT ? 'close' : worst >= FAIR_COUNT ? 'fair' : 'rough';
  const counted = (d: ConfidenceBand['in']) => (d.precision > 0 ? d.recall / d.precision : 1);
  const share = (counted(band.in) + counted(band.out)) / 2;
  return {
    band,
    level,
    leans: share < 0.85 ? 'under' : share > 1.15 ? 'over' : null,
    source: `${table.benchmark} (${FEED_WORDS[table.feed]}), ${table.date}`,
  };
}

function nearest(values: number[], distance: (v: number) => number): number {
  return values.reduce((best, v) => (distance(v) < distance(best) ? v : best));
}
