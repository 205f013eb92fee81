/**
 * The entrance-crossings figure of `hivesight eval` (issue 43): a dataset folder may hold clips
 * with hand-counted crossings, each video `<clip>.mp4` (or `.avi`) beside `<clip>.crossings.csv`
 * (`time_s,direction,class`; readCrossings) and the entrance it was counted against,
 * `<clip>.entrance.json` (`{ "kind": "line"|"polygon", "points": [[x, y], ...] }`, or a bare
 * polygon array). Each clip is analysed with its entrance through the production path and its
 * counted passages matched to the labelled ones per direction within `toleranceS`
 * (scoreCrossings); the report gives, per direction, precision, recall and the count error.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../../engine/index.ts';
import {
  parseEntranceLine,
  parseEntrancePolygon,
  readCrossings,
  scoreCrossings,
} from '../../engine/vocabulary.ts';
import type { CrossingScore, Entrance } from '../../engine/vocabulary.ts';
import { UserError } from './errors.ts';
import { table } from './ui/format.ts';

export const CROSSINGS_SUFFIX = '.crossings.csv';
export const CROSSING_TOLERANCE_S = 1;
const DIRECTIONS = ['in', 'out', 'loop'] as const;
type Direction = (typeof DIRECTIONS)[number];

export interface CrossingClip {
  name: string;
  video: string;
  crossings: string;
  entrance: string;
}

export interface DirectionFigures extends CrossingScore {
  /** matched / counted; null when nothing was counted. */
  precision: number | null;
  /** matched / labelled; null when nothing was labelled. */
  recall: number | null;
  /** |counted - labelled| / labelled, percent; null when nothing was labelled. */
  count_error_pct: number | null;
}

export interface CrossingsReport {
  tolerance_s: number;
  clips: Array<{ clip: string } & Record<Direction, CrossingScore>>;
  total: Record<Direction, DirectionFigures>;
}

/** The clips of a dataset folder (top level and a `crossings/` folder) with crossings files. */
export async function findCrossingClips(dataset: string): Promise<CrossingClip[]> {
  const clips: CrossingClip[] = [];
  for (const dir of [dataset, path.join(dataset, 'crossings')]) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const file of names.filter((n) => n.endsWith(CROSSINGS_SUFFIX)).sort()) {
      const stem = file.slice(0, -CROSSINGS_SUFFIX.length);
      const video = ['.mp4', '.avi', '.MP4', '.AVI']
        .map((ext) => path.join(dir, stem + ext))
        .find((p) => existsSync(p));
      const entrance = path.join(dir, `${stem}.entrance.json`);
      if (!video) {
        throw new UserError(
          `${path.join(dir, file)} has no clip beside it.`,
          `Put ${stem}.mp4 (or .avi) next to it.`,
        );
      }
      if (!existsSync(entrance)) {
        throw new UserError(
          `${path.join(dir, file)} has no entrance beside it.`,
          `Save the entrance it was counted against as ${stem}.entrance.json.`,
        );
      }
      clips.push({
        name: path.relative(dataset, video),
        video,
        crossings: path.join(dir, file),
        entrance,
      });
    }
  }
  return clips;
}

async function readEntranceFile(file: string): Promise<Entrance> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    if (Array.isArray(value)) return parseEntrancePolygon(value);
    const { kind, points } = (value ?? {}) as { kind?: unknown; points?: unknown };
    if (kind === 'line' && Array.isArray(points)) return parseEntranceLine(points.flat().join(','));
    if (kind === 'polygon') return parseEntrancePolygon(points);
    throw new RangeError('expected { "kind": "line" or "polygon", "points": [[x, y], ...] }');
  } catch (error) {
    throw new UserError(`${file}: ${(error as Error).message}`, 'Fix the entrance file.', {
      cause: error,
    });
  }
}

/** Sums clip scores per direction and turns them into precision, recall and count error. */
export function crossingFigures(
  clips: ReadonlyArray<Record<Direction, CrossingScore>>,
): Record<Direction, DirectionFigures> {
  const figures = (d: Direction): DirectionFigures => {
    const sum = (key: keyof CrossingScore) => clips.reduce((s, c) => s + c[d][key], 0);
    const [labelled, counted, matched] = [sum('labelled'), sum('counted'), sum('matched')];
    return {
      labelled,
      counted,
      matched,
      missed: sum('missed'),
      extra: sum('extra'),
      precision: counted > 0 ? matched / counted : null,
      recall: labelled > 0 ? matched / labelled : null,
      count_error_pct: labelled > 0 ? (Math.abs(counted - labelled) / labelled) * 100 : null,
    };
  };
  return { in: figures('in'), out: figures('out'), loop: figures('loop') };
}

export async function evaluateCrossings(
  engine: Pick<Engine, 'analyse'>,
  clips: readonly CrossingClip[],
  options: { signal?: AbortSignal; onClip?: (done: number, total: number) => void } = {},
): Promise<CrossingsReport> {
  const scored: CrossingsReport['clips'] = [];
  for (const clip of clips) {
    let labels;
    try {
      labels = readCrossings(await fs.readFile(clip.crossings, 'utf8'));
    } catch (error) {
      throw new UserError(
        `${clip.crossings}: ${(error as Error).message}`,
        'Fix the crossings file.',
        {
          cause: error,
        },
      );
    }
    const entrance = await readEntranceFile(clip.entrance);
    const result = await engine.analyse(clip.video, { entrance, signal: options.signal });
    const events = result.traffic?.events ?? [];
    scored.push({ clip: clip.name, ...scoreCrossings(events, labels, CROSSING_TOLERANCE_S) });
    options.onClip?.(scored.length, clips.length);
  }
  return { tolerance_s: CROSSING_TOLERANCE_S, clips: scored, total: crossingFigures(scored) };
}

const fmt = (n: number | null, digits = 3) => (n === null ? 'n/a' : n.toFixed(digits));

export function formatCrossings(report: CrossingsReport): string[] {
  const clips = report.clips.length === 1 ? '1 clip' : `${report.clips.length} clips`;
  const rows = DIRECTIONS.map((d) => {
    const f = report.total[d];
    return [
      d,
      String(f.labelled),
      String(f.counted),
      String(f.matched),
      fmt(f.precision),
      fmt(f.recall),
      f.count_error_pct === null ? 'n/a' : `${f.count_error_pct.toFixed(1)} %`,
    ];
  });
  return [
    `entrance crossings (${clips}, matched within ${report.tolerance_s} s):`,
    table(
      ['direction', 'labelled', 'counted', 'matched', 'precision', 'recall', 'count error'],
      rows,
    ),
  ];
}

/** `hivesight eval` on a folder of clips with crossings files and no images: that figure alone. */
export async function crossingsOnlyEval(
  dataset: string,
  clips: readonly CrossingClip[],
  engine: Pick<Engine, 'analyse' | 'detector'>,
  json: boolean,
): Promise<void> {
  const identity = engine.detector.identity;
  const report = await evaluateCrossings(engine, clips);
  const model = { name: identity.name, version: identity.version, classes: identity.classes };
  if (json) {
    const output = { kind: 'crossings', dataset, model, crossings: report };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return;
  }
  const lines = [`${model.name} ${model.version} on ${dataset}`, '', ...formatCrossings(report)];
  process.stdout.write(`${lines.join('\n')}\n`);
}
