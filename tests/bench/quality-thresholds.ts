/**
 * Chooses the quality grade's thresholds (engine/quality/thresholds.ts) on the hive-entrance
 * TRAINING frames and shifted views of them, never the validation frames
 * (docs/experiments/002-quality-grade.md). Re-run it when the detector changes:
 *
 *   .venv/bin/python -m training.shifted_view --data ../shared/datasets \
 *     --out /tmp/hivesight-shifted-train --split train
 *   node bin/run-ts.mjs tests/bench/quality-thresholds.ts [--data ../shared/datasets]
 *     [--shifted /tmp/hivesight-shifted-train] [--cache /tmp/hivesight-quality.jsonl]
 *     [--every 1] [--no-clips] [--model card.json]
 *
 * 1. Measures: every training frame and every shifted view analysed as a photo by the
 *    production path (`engine.analyse`), its quality signals and its honeybee count error
 *    against the labels; each contiguous run (>= 10 frames) of training frames encoded as a
 *    5 fps clip and analysed as a video, for the track signal. Measurements are appended to the
 *    cache, so a second run only selects.
 * 2. Selects, by the rule fixed before the first run:
 *    - `uncertain`: the least extreme value, past the training frames' 2.5 % tail (97.5 % for
 *      signals where high is bad), beyond which the shifted views (at least 8) have a median
 *      count error of at least max(15 %, twice the training frames' median); none found: the
 *      training tail itself (footage unlike any training frame is at least uncertain).
 *    - `poor`: the same search past `uncertain`, for a median error of 30 %; none: absent.
 *    - the track signal (clips only, no count errors): uncertain at 1.5x the largest training
 *      clip's value, never poor alone.
 *    Values are rounded outwards to two significant figures.
 *    Then, as decided after the first run: size at the card's auto-zoom tolerance (uncertain)
 *    and range (poor), brightness at 0.15 / 0.85 (neither raised the shifted views' error); and,
 *    as decided in experiment 025, sharpness and clipping at the engine's bounds where the
 *    shifted views' error no longer rises with them.
 * 3. Reports the grades of the training frames and the shifted views and the median count error
 *    per grade, with the chosen thresholds and with those in the engine now.
 */
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  DEFAULT_MODEL_PATH,
  gradeQuality,
  loadModelCard,
  QUALITY_THRESHOLDS,
} from '../../engine/index.ts';
import { encodeFrameClip } from '../../lab/index.ts';
import type { QualityBound, QualitySignals, QualityThresholds } from '../../engine/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const data = path.resolve(arg('data', path.join(ROOT, '../shared/datasets')));
const shiftedDir = path.resolve(arg('shifted', '/tmp/hivesight-shifted-train'));
const cachePath = path.resolve(arg('cache', '/tmp/hivesight-quality.jsonl'));
const every = Math.max(1, Number(arg('every', '1')));
const modelPath = arg('model', '');
const hive = path.join(data, 'hive-entrance');

interface Measured {
  set: 'train' | 'shifted' | 'clip';
  name: string;
  labelled: number;
  counted: number;
  signals: QualitySignals;
}

const countError = (m: Measured): number =>
  Math.abs(m.counted - m.labelled) / Math.max(m.labelled, 1);

function labelledHoneybees(labelFile: string): number {
  if (!existsSync(labelFile)) return 0;
  // Every class of these frames (worker, pollen worker, drone) is a honeybee.
  return readFileSync(labelFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
}

async function measure(): Promise<Measured[]> {
  if (!existsSync(hive)) {
    console.log(`SKIP: ${hive} is absent; the thresholds are chosen on the hive-entrance frames.`);
    process.exit(0);
  }
  const cached = existsSync(cachePath)
    ? readFileSync(cachePath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Measured)
    : [];
  const done = new Set(cached.map((m) => `${m.set}/${m.name}`));
  const train = readFileSync(path.join(ROOT, 'training/splits/hive-entrance-train.txt'), 'utf8')
    .split(/\s+/)
    .filter(Boolean);
  const picked = train.filter((_, i) => i % every === 0);
  const stems = new Set(picked.map((n) => n.replace(/\.jpg$/, '')));
  const shifted = existsSync(path.join(shiftedDir, 'images'))
    ? readdirSync(path.join(shiftedDir, 'images'))
        .filter((n) => stems.has(n.replace(/-v\d+\.jpg$/, '')))
        .sort()
    : [];
  if (shifted.length === 0) {
    console.warn(
      `No shifted views in ${shiftedDir}: make them with training/shifted_view.py --split train.`,
    );
  }
  const engine = await createEngine({ threads: 1, ...(modelPath ? { modelPath } : {}) });
  const todo: Array<{ set: Measured['set']; name: string; image: string; labels: string }> = [
    ...picked.map((name) => ({
      set: 'train' as const,
      name,
      image: path.join(hive, 'images', name),
      labels: path.join(hive, 'labels', name.replace(/\.jpg$/, '.txt')),
    })),
    ...shifted.map((name) => ({
      set: 'shifted' as const,
      name,
      image: path.join(shiftedDir, 'images', name),
      labels: path.join(shiftedDir, 'labels', name.replace(/\.jpg$/, '.txt')),
    })),
  ].filter((t) => !done.has(`${t.set}/${t.name}`));
  const out = [...cached];
  const save = (m: Measured): void => {
    out.push(m);
    appendFileSync(cachePath, `${JSON.stringify(m)}\n`);
  };
  for (const [i, t] of todo.entries()) {
    const result = await engine.analyse(t.image);
    const c = result.counts;
    save({
      set: t.set,
      name: t.name,
      labelled: labelledHoneybees(t.labels),
      counted: (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0),
      signals: result.quality!.signals,
    });
    if (i % 20 === 0) console.error(`measured ${i + 1} / ${todo.length}`);
  }
  if (!args.includes('--no-clips')) {
    for (const run of contiguousRuns(train).filter((r) => r.length >= 10)) {
      const name = `${run[0]}..${run.at(-1)}`;
      if (done.has(`clip/${name}`)) continue;
      const clip = await encodeFrameClip(
        run.map((n) => path.join(hive, 'images', n)),
        engine,
        { fps: 5 },
      );
      try {
        const result = await engine.analyse(clip.file, { sampleFps: 5 });
        save({
          set: 'clip',
          name,
          labelled: 0,
          counted: 0,
          signals: result.quality!.signals,
        });
        console.error(`clip ${name}: ${JSON.stringify(result.quality)}`);
      } finally {
        await clip.remove();
      }
    }
  }
  return out;
}

/** Runs of consecutive frame numbers (`..._frame_N.jpg`), in order. */
function contiguousRuns(names: readonly string[]): string[][] {
  const num = (n: string) => Number(/frame_(\d+)/.exec(n)?.[1] ?? NaN);
  const sorted = [...names].sort((a, b) => num(a) - num(b));
  const runs: string[][] = [];
  for (const n of sorted) {
    const last = runs.at(-1);
    if (last && num(n) === num(last.at(-1)!) + 1) last.push(n);
    else runs.push([n]);
  }
  return runs;
}

type Signal = Exclude<keyof QualityThresholds, 'shortTrackShare'>;
const SIGNALS: Record<
  Signal,
  { direction: 'above' | 'below'; value: (s: QualitySignals) => number | null }
> = {
  sizeOff: {
    direction: 'above',
    value: (s) => (s.sizeRatio ? Math.abs(Math.log(s.sizeRatio)) : null),
  },
  scoreRatio: { direction: 'below', value: (s) => s.scoreRatio },
  weakShare: { direction: 'above', value: (s) => s.weakShare },
  sharpness: { direction: 'below', value: (s) => s.sharpness },
  darkness: { direction: 'below', value: (s) => s.brightness },
  brightness: { direction: 'above', value: (s) => s.brightness },
  clippedShare: { direction: 'above', value: (s) => s.clippedShare },
};

const MIN_TAIL = 8;

function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(s.length - 1, lo + 1)]! - s[lo]!) * (at - lo);
}

const median = (values: readonly number[]): number =>
  values.length === 0 ? NaN : quantile(values, 0.5);

/** `value` to two significant figures, rounded away from the good side. */
function roundOut(value: number, direction: 'above' | 'below'): number {
  if (value === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1);
  const f = direction === 'above' ? Math.ceil : Math.floor;
  return Number((f(value / step) * step).toPrecision(2));
}

/** The least extreme value from `start` outwards past which the shifted views err >= `error`. */
function searchBound(
  shifted: readonly Measured[],
  signal: Signal,
  start: number,
  error: number,
): number | undefined {
  const { direction, value } = SIGNALS[signal];
  const past = (v: number, limit: number) => (direction === 'above' ? v > limit : v < limit);
  const points = shifted
    .map((m) => ({ v: value(m.signals), e: countError(m) }))
    .filter((p): p is { v: number; e: number } => p.v !== null && past(p.v, start))
    .sort((a, b) => (direction === 'above' ? a.v - b.v : b.v - a.v));
  for (const [i, p] of points.entries()) {
    const tail = points.slice(i + 1);
    if (tail.length < MIN_TAIL) break;
    if (median(tail.map((t) => t.e)) >= error) return p.v;
  }
  return undefined;
}

/** The rule's bounds, and the signals whose shifted views' count error never rose past their tail. */
function select(all: readonly Measured[]): { byRule: QualityThresholds; noRise: Set<Signal> } {
  const train = all.filter((m) => m.set === 'train');
  const shifted = all.filter((m) => m.set === 'shifted');
  const clips = all.filter((m) => m.set === 'clip');
  const trainError = median(train.map(countError));
  const uncertainError = Math.max(0.15, 2 * trainError);
  console.log(
    `training frames ${train.length} (median count error ${(100 * trainError).toFixed(1)} %), shifted views ${shifted.length} (${(100 * median(shifted.map(countError))).toFixed(1)} %), clips ${clips.length}; uncertain at >= ${(100 * uncertainError).toFixed(1)} %, poor at >= 30 %`,
  );
  const chosen = {} as Record<keyof QualityThresholds, QualityBound>;
  const noRise = new Set<Signal>();
  for (const signal of Object.keys(SIGNALS) as Signal[]) {
    const { direction, value } = SIGNALS[signal];
    const values = train.map((m) => value(m.signals)).filter((v): v is number => v !== null);
    const tail = values.length ? quantile(values, direction === 'above' ? 0.975 : 0.025) : 0;
    const found = searchBound(shifted, signal, tail, uncertainError);
    if (found === undefined) noRise.add(signal);
    const uncertain = found ?? tail;
    const poor = searchBound(shifted, signal, uncertain, 0.3);
    chosen[signal] = {
      direction,
      uncertain: roundOut(uncertain, direction),
      ...(poor !== undefined ? { poor: roundOut(poor, direction) } : {}),
    };
    console.log(
      `${signal}: training ${direction === 'above' ? '97.5' : '2.5'} % ${tail.toFixed(3)}, uncertain ${uncertain.toFixed(3)}, poor ${poor?.toFixed(3) ?? '-'}`,
    );
  }
  const shares = clips.map((m) => m.signals.shortTrackShare).filter((v): v is number => v !== null);
  chosen.shortTrackShare = {
    direction: 'above',
    uncertain: shares.length ? Math.min(0.95, roundOut(1.5 * Math.max(...shares), 'above')) : 0.5,
  };
  console.log(
    `shortTrackShare: training clips ${shares.map((s) => s.toFixed(3)).join(', ') || 'none'}`,
  );
  return { byRule: chosen, noRise };
}

function report(all: readonly Measured[], thresholds: QualityThresholds, title: string): void {
  console.log(`\n${title}`);
  for (const set of ['train', 'shifted', 'clip'] as const) {
    const items = all.filter((m) => m.set === set);
    if (items.length === 0) continue;
    const graded = items.map((m) => ({
      m,
      q: gradeQuality(m.signals, thresholds),
    }));
    const line = (['good', 'uncertain', 'poor'] as const).map((g) => {
      const of = graded.filter((x) => x.q.grade === g);
      const err =
        set === 'clip'
          ? ''
          : `, median error ${(100 * median(of.map((x) => countError(x.m)))).toFixed(1)} %`;
      return `${g} ${of.length}${of.length ? err : ''}`;
    });
    console.log(`  ${set} (${items.length}): ${line.join('; ')}`);
    const reasons = new Map<string, number>();
    for (const x of graded)
      if (x.q.grade !== 'good') reasons.set(x.q.reason, (reasons.get(x.q.reason) ?? 0) + 1);
    for (const [r, n] of reasons) console.log(`    ${n} x ${r}`);
  }
}

/**
 * The decisions after the rule's runs. Experiment 002: the shifted views' count error rose with
 * neither size nor brightness, and one clip's training tail is too narrow to stand for every
 * camera, so size is graded at the card's auto-zoom tolerance and range, brightness at fixed
 * extremes. Experiment 025: a footage signal (sharpness, clipping) whose shifted views no longer
 * err more past the tail, because the detector copes better, keeps the engine's bound (found
 * where an earlier detector's error rose) instead of that narrow tail. The model-relative
 * signals (scores, weak share) and the track signal keep the rule's bounds.
 */
async function decide(
  byRule: QualityThresholds,
  noRise: ReadonlySet<Signal>,
): Promise<QualityThresholds> {
  const kept = (signal: 'sharpness' | 'clippedShare'): QualityBound =>
    noRise.has(signal) ? QUALITY_THRESHOLDS[signal] : byRule[signal];
  const card = await loadModelCard(path.resolve(modelPath || DEFAULT_MODEL_PATH));
  const zoom = card.input.autoZoom;
  return {
    ...byRule,
    sizeOff: zoom
      ? {
          direction: 'above',
          uncertain: roundOut(Math.log(zoom.tolerance), 'above'),
          poor: roundOut(Math.log(Math.max(zoom.max, 1 / zoom.min)), 'above'),
        }
      : byRule.sizeOff,
    darkness: { direction: 'below', uncertain: 0.15 },
    brightness: { direction: 'above', uncertain: 0.85 },
    sharpness: kept('sharpness'),
    clippedShare: kept('clippedShare'),
  };
}

const measured = await measure();
const { byRule, noRise } = select(measured);
console.log(`\nthresholds by the rule fixed before the run:\n${JSON.stringify(byRule, null, 2)}`);
report(measured, byRule, 'grades with the thresholds by the rule');
const chosen = await decide(byRule, noRise);
console.log(
  `\nthresholds as decided (engine/quality/thresholds.ts):\n${JSON.stringify(chosen, null, 2)}`,
);
report(measured, chosen, 'grades with the chosen thresholds');
report(measured, QUALITY_THRESHOLDS, "grades with the engine's thresholds now");
