/**
 * `hivesight eval DATASET`: scores the model on a labelled folder through the production path
 * (same probe, decode and detector as analyze) and prints AP50, precision, recall, support and
 * count error, or crop accuracy. `--min-ap50 CLASS=X,...` and `--max-count-error PCT` (and
 * `--min-accuracy X` for crop sets) turn it into a CI gate: exit 1 when a gate fails.
 * `--intervals` (or `--block N` for runs of video frames) adds 95 % bootstrap intervals, to tell
 * a real model change from the scatter; `--baseline MODEL` scores a second model on the same
 * images and prints each figure's change with a paired interval (what both models share cancels,
 * so it is far narrower); `--errors` says what the errors are (eval-errors.ts). A dataset with
 * clips and hand-counted crossings files adds the entrance-crossings figure (crossings-eval.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { Change, EvalReport, ScoreThresholds } from '../../../engine/index.ts';
import { isProductClass } from '../../../engine/vocabulary.ts';
import type { ProductClass } from '../../../engine/vocabulary.ts';
import { loadEvalModule, openEngine } from '../engine.ts';
import { EXIT_OK, EXIT_USER, UsageError } from '../errors.ts';
import { modelOption, threadsOption } from '../options.ts';
import type { EngineFlags } from '../options.ts';
import { paint, table } from '../ui/format.ts';
import { formatErrors } from './eval-errors.ts';
import {
  crossingsOnlyEval,
  evaluateCrossings,
  findCrossingClips,
  formatCrossings,
} from '../crossings-eval.ts';
import type { CrossingsReport } from '../crossings-eval.ts';
import { progressFor } from '../ui/progress.tsx';

interface EvalFlags extends EngineFlags {
  json?: boolean;
  minAp50?: Gate[];
  minAccuracy?: number;
  maxCountError?: number;
  map?: string[];
  intervals?: boolean;
  block?: number;
  baseline?: string;
  errors?: boolean;
}

interface Gate {
  cls: ProductClass;
  min: number;
}

interface Outcome {
  actual: number | null;
  ok: boolean;
}

/**
 * A gate's result as `--json` carries it: a floor on a class's AP50 or on accuracy, or a
 * ceiling on the count error.
 */
type GateResult =
  | (Gate & Outcome & { metric: 'ap50' | 'accuracy' })
  | (Outcome & { metric: 'count_error_pct'; max: number });

function unitInterval(name: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`${name} must be between 0 and 1, got "${value}".`);
  }
  return n;
}

/** A percentage, as the count error is one (5.6 means 5.6 %); it may exceed 100. */
function percentage(name: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError(
      `${name} must be a percentage, 0 or more (e.g. 6 for 6 %), got "${value}".`,
    );
  }
  return n;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(
      `--block must be a whole number of images, 1 or more, got "${value}".`,
    );
  }
  return n;
}

/** `bee=0.9,hornet=0.8`, repeatable. */
export function parseGates(value: string, previous: Gate[] = []): Gate[] {
  const gates = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const [cls, min, ...rest] = pair.split('=');
      if (!cls || min === undefined || rest.length > 0) {
        throw new InvalidArgumentError(`"${pair}" is not CLASS=X (e.g. bee=0.9).`);
      }
      const name = cls.trim().toLowerCase();
      if (!isProductClass(name)) {
        throw new InvalidArgumentError(
          `"${cls}" is not a class (bee, pollen, drone, wasp, hornet).`,
        );
      }
      return { cls: name, min: unitInterval(`--min-ap50 ${name}`, min) };
    });
  return [...previous, ...gates];
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description(
      'evaluate the model on a labelled dataset (YOLO images/ + labels/, or one folder of crops per class)',
    )
    .argument(
      '<dataset>',
      'dataset folder: images/ and labels/ (YOLO, names in classes.txt or data.yaml), or one folder of crops per class',
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  hivesight eval my-labelled-photos/valid',
        '  hivesight eval my-labelled-photos/valid --min-ap50 bee=0.8,pollen=0.6 --max-count-error 8',
        '  hivesight eval my-labelled-photos/valid --errors --json > errors.json',
      ].join('\n'),
    )
    .option('--json', 'print the result as one JSON object')
    .option('--min-ap50 <gates>', 'fail (exit 1) below these AP50s: CLASS=X,...', parseGates)
    .option(
      '--max-count-error <pct>',
      'fail (exit 1) above this mean count error per image, in % (e.g. 6)',
      (v) => percentage('--max-count-error', v),
    )
    .option('--min-accuracy <x>', 'crop sets: fail (exit 1) below this accuracy', (v) =>
      unitInterval('--min-accuracy', v),
    )
    .option('--intervals', '95 % bootstrap intervals for AP50, count error and accuracy')
    .option(
      '--block <n>',
      'bootstrap runs of n consecutive images (frames of one video are not independent); implies --intervals',
      positiveInteger,
    )
    .option(
      '--baseline <model>',
      'also score this model (card or .onnx) on the same images and print each change with its 95 % interval',
    )
    .option(
      '--errors',
      'break the errors down: wrong type, scored low, poorly placed box, missed, detections on nothing',
    )
    .option(
      '--map <label=class>',
      'map a dataset label to a class (bee, pollen, drone, wasp, hornet, honeybee); repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(modelOption())
    .addOption(threadsOption())
    .action(async (dataset: string, flags: EvalFlags) => {
      process.exitCode = await runEval(dataset, flags);
    });
}

export async function runEval(dataset: string, flags: EvalFlags): Promise<number> {
  const { engine } = await openEngine(flags);
  const clips = await findCrossingClips(dataset);
  if (clips.length > 0 && !existsSync(path.join(dataset, 'images'))) {
    await crossingsOnlyEval(dataset, clips, engine, Boolean(flags.json));
    return EXIT_OK;
  }
  const base = flags.baseline
    ? (await openEngine({ ...flags, model: flags.baseline })).engine
    : undefined;
  const ev = await loadEvalModule();
  const labelMappings = ev.parseLabelMappings(flags.map ?? []);
  // Eval's images are photos: precision, recall and count error at the thresholds photos get.
  const thresholds: ScoreThresholds = engine.detector.scoreThresholds();
  const identity = engine.detector.identity;

  const label = path.basename(path.resolve(dataset));
  const progress = await progressFor([label], { plain: Boolean(flags.json), unit: 'images' });
  const started = Date.now();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let report: EvalReport;
  try {
    progress.start(label);
    report = await ev.evaluateDataset(dataset, {
      predict: ev.createEvalPredictor(engine),
      thresholds,
      modelClasses: identity.classes,
      labelMappings,
      ...((flags.intervals || flags.block !== undefined) && {
        intervals: { block: flags.block ?? 1 },
      }),
      ...(base && {
        baseline: {
          predict: ev.createEvalPredictor(base),
          thresholds: base.detector.scoreThresholds(),
          modelClasses: base.detector.identity.classes,
        },
      }),
      ...(flags.errors && { errors: true }),
      signal: controller.signal,
      onProgress: (done, total) => progress.update(label, done, total, Date.now() - started),
    });
    progress.succeed(label, `${report.images} images`);
  } catch (error) {
    progress.fail(label, error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    process.removeListener('SIGINT', onSigint);
    progress.close();
  }

  const gates = checkGates(report, flags);
  const model = (id: typeof identity) => ({
    name: id.name,
    version: id.version,
    classes: id.classes,
  });
  if (report.baseline && base) {
    // Which model the baseline figures are of, beside them in the JSON.
    Object.assign(report.baseline, {
      model: model(base.detector.identity),
      thresholds: base.detector.scoreThresholds(),
    });
  }
  const crossings = clips.length > 0 ? await evaluateCrossings(engine, clips) : undefined;
  const output: EvalOutput = {
    ...report,
    model: model(identity),
    thresholds,
    gates,
    ...(crossings && { crossings }),
  };
  if (flags.json) process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  else process.stdout.write(formatReport(output));

  const failedGates = gates.filter((g) => !g.ok);
  for (const g of failedGates) {
    process.stderr.write(`${paint.red(`gate failed: ${describeFailure(g)}`)}\n`);
  }
  return failedGates.length > 0 ? EXIT_USER : EXIT_OK;
}

function describeFailure(g: GateResult): string {
  if (g.metric === 'count_error_pct') {
    const actual = g.actual === null ? 'not measured (no labels)' : `${g.actual.toFixed(2)} %`;
    return `count error ${actual} > ${g.max} %`;
  }
  const what = g.metric === 'ap50' ? `AP50 of ${g.cls}` : 'accuracy';
  const actual =
    g.actual === null ? 'not measured (no labels or not detectable)' : g.actual.toFixed(3);
  return `${what} ${actual} < ${g.min}`;
}

function checkGates(report: EvalReport, flags: EvalFlags): GateResult[] {
  const results: GateResult[] = [];
  if (report.kind === 'crops') {
    if (flags.minAp50?.length || flags.maxCountError !== undefined) {
      throw new UsageError(
        `${report.dataset} is a crop set: it has accuracy, not AP50 or a count error.`,
        'Use --min-accuracy X for crop sets.',
      );
    }
    if (flags.minAccuracy !== undefined) {
      const ok = report.accuracy >= flags.minAccuracy;
      results.push({
        metric: 'accuracy',
        cls: 'pollen',
        min: flags.minAccuracy,
        actual: report.accuracy,
        ok,
      });
    }
    return results;
  }
  if (flags.minAccuracy !== undefined) {
    throw new UsageError(
      `${report.dataset} is a box set: it has AP50, not accuracy.`,
      'Use --min-ap50 CLASS=X for box sets.',
    );
  }
  for (const gate of flags.minAp50 ?? []) {
    const actual = report.classes[gate.cls]?.ap50 ?? null;
    results.push({ ...gate, metric: 'ap50', actual, ok: actual !== null && actual >= gate.min });
  }
  if (flags.maxCountError !== undefined) {
    const actual = report.count_error_pct;
    const max = flags.maxCountError;
    results.push({ metric: 'count_error_pct', max, actual, ok: actual !== null && actual <= max });
  }
  return results;
}

const fmt = (n: number | null | undefined, digits = 3) =>
  n === null || n === undefined ? 'n/a' : n.toFixed(digits);

const span = (i: { low: number; high: number } | null | undefined, digits = 3) =>
  i ? `${i.low.toFixed(digits)}-${i.high.toFixed(digits)}` : 'n/a';

type Named = { model: { name: string; version: string } };
type EvalOutput = EvalReport &
  Named & { thresholds: ScoreThresholds; gates: GateResult[]; crossings?: CrossingsReport };

const signed = (n: number, digits: number) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;
/** A change and its interval; "to" because either end may be negative. */
const changeSpan = (c: Change | null | undefined, digits = 3) =>
  c ? `${signed(c.value, digits)} (${signed(c.low, digits)} to ${signed(c.high, digits)})` : 'n/a';

function formatReport(output: EvalOutput): string {
  const baseModel = (output.baseline as Partial<Named> | undefined)?.model;
  const against = baseModel ? `, against ${baseModel.name} ${baseModel.version}` : '';
  const lines = [
    `${output.model.name} ${output.model.version} on ${output.dataset} (${output.images} images)${against}`,
    '',
  ];
  if (output.kind === 'boxes') {
    const { intervals, baseline } = output;
    const rows = Object.entries(output.classes).map(([cls, m]) => [
      cls,
      fmt(m.ap50),
      ...(intervals ? [span(intervals.ap50[cls as ProductClass])] : []),
      ...(baseline
        ? [
            fmt(baseline.classes[cls as ProductClass]?.ap50),
            changeSpan(baseline.change.ap50[cls as ProductClass]),
          ]
        : []),
      fmt(m.precision),
      fmt(m.recall),
      String(m.support),
    ]);
    const level = intervals ? [`${Math.round(intervals.level * 100)} % interval`] : [];
    const versus = baseline
      ? ['baseline', `change (${Math.round(baseline.change.level * 100)} % interval)`]
      : [];
    lines.push(
      table(['class', 'AP50', ...level, ...versus, 'precision', 'recall', 'support'], rows),
    );
    const countSpan = intervals ? ` (${level[0]} ${span(intervals.count_error_pct, 1)} %)` : '';
    lines.push('', `count error: ${fmt(output.count_error_pct, 1)} %${countSpan}`);
    if (baseline) {
      lines.push(
        `baseline count error: ${fmt(baseline.count_error_pct, 1)} %, change ${changeSpan(baseline.change.count_error_pct, 1)} points`,
      );
    }
  } else {
    const rows = Object.entries(output.classes).map(([cls, m]) => [
      cls === 'bee' ? 'bee (no pollen)' : cls,
      fmt(m.precision),
      fmt(m.recall),
      String(m.support),
    ]);
    lines.push(table(['class', 'precision', 'recall', 'support'], rows));
    const accSpan = output.intervals
      ? ` (${Math.round(output.intervals.level * 100)} % interval ${span(output.intervals.accuracy)})`
      : '';
    lines.push('', `accuracy: ${fmt(output.accuracy)}${accSpan}`);
    if (output.baseline) {
      lines.push(
        `baseline accuracy: ${fmt(output.baseline.accuracy)}, change ${changeSpan(output.baseline.change.accuracy)}`,
      );
    }
  }
  const settings = output.intervals ?? output.baseline?.change;
  if (settings) {
    const { resamples, block } = settings;
    lines.push(
      `intervals: bootstrap over ${block > 1 ? `runs of ${block} consecutive images` : 'images'}, ${resamples} resamples${output.baseline ? ' (changes: both models on the same resamples)' : ''}`,
    );
  }
  if (output.errors) lines.push('', ...formatErrors(output));
  if (output.crossings) lines.push('', ...formatCrossings(output.crossings));
  for (const note of output.notes) lines.push(`note: ${note}`);
  for (const g of output.gates) {
    const verdict = g.ok ? 'ok' : 'FAILED';
    if (g.metric === 'count_error_pct') {
      lines.push(`gate count error <= ${g.max} %: ${verdict} (${fmt(g.actual, 2)} %)`);
    } else {
      const what = g.metric === 'ap50' ? `AP50 ${g.cls}` : 'accuracy';
      lines.push(`gate ${what} >= ${g.min}: ${verdict} (${fmt(g.actual)})`);
    }
  }
  return `${lines.join('\n')}\n`;
}
