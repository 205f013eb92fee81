/**
 * The real `hivesight` CLI (node bin/hivesight.mjs) on media made here with ffmpeg: exit codes,
 * outputs (per-file CSV, preview JPEG, summary.csv), --json, and eval with its gates.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const MODEL_CARD = path.join(ROOT, 'models/hivesight-detector.card.json');
const hasModel = existsSync(MODEL_CARD);
if (!hasModel) console.warn(`cli.test: ${MODEL_CARD} is missing; analysis and eval tests skip.`);

const FRAME_HEADER = 'frame,time_s,bees,pollen_bees,drones,wasps,hornets,bee_coverage_pct';

let dir: string;

function hivesight(args: string[], env: Record<string, string> = {}) {
  return execa('node', [CLI, ...args], {
    cwd: dir,
    reject: false,
    env: { NO_COLOR: '1', ...env },
    extendEnv: true,
    timeout: 180_000,
  });
}

async function ffmpeg(args: string[]): Promise<void> {
  await execa('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** A short synthetic clip (testsrc pattern). */
async function makeClip(file: string, seconds = 2, size = '320x240'): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=10`,
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
}

async function makeImage(file: string, size = '320x240', colour = 'olive'): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=${colour}:size=${size}`, '-frames:v', '1', file]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hivesight-cli-'));
  await makeClip(path.join(dir, 'clip.mp4'));
  await makeClip(path.join(dir, 'one/a.mp4'), 1);
  await makeClip(path.join(dir, 'two/a.mp4'), 1);
  await makeImage(path.join(dir, 'photo.jpg'));
  await makeImage(path.join(dir, 'photo.png'));
  // Named like a video, but text: must be refused by content and skipped.
  await writeFile(path.join(dir, 'bad.mp4'), 'this is not a video\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The tests of each block are independent (their own outputs, read-only inputs): each CLI run is
// mostly one core's work, so two at a time use both.
describe('usage', { concurrent: true }, () => {
  it('prints the version and help with exit 0', async ({ expect }) => {
    const version = await hivesight(['--version']);
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await hivesight(['--help']);
    expect(help.exitCode).toBe(0);
    for (const cmd of ['analyze', 'watch', 'eval']) expect(help.stdout).toContain(cmd);
    // eval's examples name a user's own folder, not this project's dataset layout.
    const evalHelp = await hivesight(['eval', '--help']);
    expect(evalHelp.stdout).toContain('Examples:');
    expect(evalHelp.stdout).not.toMatch(/shared\/datasets/);
    const analyzeHelp = await hivesight(['analyze', '--help']);
    expect(analyzeHelp.stdout).toMatch(/--out <dir>.*default:\s+"\.\/hivesight-results"/s);
  });

  it('exits 2 on usage errors, before any work', async ({ expect }) => {
    expect((await hivesight(['analyze'])).exitCode).toBe(2);
    expect((await hivesight(['frobnicate'])).exitCode).toBe(2);
    const badFps = await hivesight(['analyze', 'clip.mp4', '--out', 'o', '--fps', 'fast']);
    expect(badFps.exitCode).toBe(2);
    expect(badFps.stderr).toMatch(/--fps/);
    const envFps = await hivesight(['analyze', 'clip.mp4', '--out', 'o'], { HIVESIGHT_FPS: '-3' });
    expect(envFps.exitCode).toBe(2);
    expect(envFps.stderr).toMatch(/HIVESIGHT_FPS/);
    const badThreads = await hivesight(['eval', 'x', '--threads', '1.5']);
    expect(badThreads.exitCode).toBe(2);
    const badGate = await hivesight(['eval', 'x', '--min-ap50', 'bee=2']);
    expect(badGate.exitCode).toBe(2);
    const badCountGate = await hivesight(['eval', 'x', '--max-count-error', '-1']);
    expect(badCountGate.exitCode).toBe(2);
    expect(badCountGate.stderr).toMatch(/--max-count-error must be a percentage/);
    const badBlock = await hivesight(['eval', 'x', '--block', '0']);
    expect(badBlock.exitCode).toBe(2);
    expect(badBlock.stderr).toMatch(/--block must be a whole number/);
    // Boxes go only into --json: alone, the flag would silently do nothing.
    const boxesAlone = await hivesight([
      'analyze',
      'photo.jpg',
      '--out',
      'boxes-alone',
      '--detections',
    ]);
    expect(boxesAlone.exitCode).toBe(2);
    expect(boxesAlone.stderr).toMatch(/--detections.*--json/);
    expect(existsSync(path.join(dir, 'boxes-alone'))).toBe(false);
  });

  it('exits 1 with a hint for a missing model', async ({ expect }) => {
    const result = await hivesight([
      'analyze',
      'photo.jpg',
      '--out',
      'o',
      '--model',
      'nope.card.json',
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/hint:/);
  });
});

describe.skipIf(!hasModel)('analyze', { concurrent: true }, () => {
  it('writes per-file CSV, preview JPEG and summary.csv', async ({ expect }) => {
    const result = await hivesight(['analyze', 'clip.mp4', 'photo.jpg', '--out', 'out1']);
    expect(result.exitCode, result.stderr).toBe(0);
    // The shipped model has no wasp class: each result line says so instead of "wasps n/a".
    const resultLines = result.stderr
      .split('\n')
      .filter((l) => /detected:|unique insects:/.test(l));
    expect(resultLines.length).toBeGreaterThanOrEqual(2);
    for (const line of resultLines) expect(line).toContain('(this model has no wasp class)');
    expect(result.stderr).not.toContain('n/a');

    const clipCsv = (await readFile(path.join(dir, 'out1/clip.csv'), 'utf8')).trim().split(/\r?\n/);
    expect(clipCsv[0]).toBe(FRAME_HEADER);
    // 2 s at the default 5 analysed frames per second.
    expect(clipCsv.length - 1).toBeGreaterThanOrEqual(9);
    expect(clipCsv.length - 1).toBeLessThanOrEqual(11);
    expect(clipCsv[1]).toMatch(/^0,0(\.0+)?,/);

    const photoCsv = (await readFile(path.join(dir, 'out1/photo.csv'), 'utf8'))
      .trim()
      .split(/\r?\n/);
    expect(photoCsv).toHaveLength(2);
    expect(photoCsv[1]).toMatch(/^0,/);

    for (const name of ['clip', 'photo']) {
      const jpeg = await readFile(path.join(dir, `out1/${name}.preview.jpg`));
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }

    const summary = (await readFile(path.join(dir, 'out1/summary.csv'), 'utf8'))
      .trim()
      .split(/\r?\n/);
    expect(summary[0]).toMatch(
      /^file,kind,duration_s,frames_analysed,bees,pollen_bees,drones,wasps,hornets,pollen_pct,drones_pct,bee_coverage_pct,model,analysed_at/,
    );
    expect(summary.slice(1).map((l) => l.split(',')[0])).toEqual(['clip.mp4', 'photo.jpg']);
  });

  it('skips a bad file, keeps the others, and exits 1', async ({ expect }) => {
    const result = await hivesight([
      'analyze',
      'bad.mp4',
      'missing.mp4',
      'photo.png',
      '--out',
      'out2',
      '--fps',
      '2',
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/bad\.mp4/);
    expect(result.stderr).toMatch(/missing\.mp4.*no such file/);
    expect(result.stderr).toContain('2 of 3 files failed; the other one is in out2/');
    expect(existsSync(path.join(dir, 'out2/photo.csv'))).toBe(true);
    expect(existsSync(path.join(dir, 'out2/photo.preview.jpg'))).toBe(true);
    expect(existsSync(path.join(dir, 'out2/bad.csv'))).toBe(false);
    const summary = (await readFile(path.join(dir, 'out2/summary.csv'), 'utf8'))
      .trim()
      .split(/\r?\n/);
    expect(summary).toHaveLength(2);
  });

  it('writes to ./hivesight-results without --out; a run where every file failed writes no summary', async ({
    expect,
  }) => {
    const plain = await hivesight(['analyze', 'photo.jpg']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('Wrote 1 report to hivesight-results/');
    expect(existsSync(path.join(dir, 'hivesight-results/photo.csv'))).toBe(true);

    const one = await hivesight(['analyze', 'bad.mp4', '--out', 'all-failed']);
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toMatch(/\nThe file failed\.$/);
    expect(existsSync(path.join(dir, 'all-failed/summary.csv'))).toBe(false);
    const two = await hivesight(['analyze', 'bad.mp4', 'missing.mp4', '--out', 'all-failed']);
    expect(two.stderr).toMatch(/\nAll 2 files failed\.$/);
    expect(existsSync(path.join(dir, 'all-failed/summary.csv'))).toBe(false);
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    'on an 80-column terminal: one line per file, the name cut in its middle, frames as in summary.csv',
    async ({ expect }) => {
      const name = '2026-06-01-apiary-north-hive-3-morning-flight-after-rain.mp4';
      // 3.1 s at 2 frames a second: the duration promises 7 frames, the decoder gives 6.
      await makeClip(path.join(dir, name), 3.1);
      // `script` gives the CLI a real terminal (so it draws with Ink), 80 columns wide.
      const tty = await execa(
        'script',
        [
          '-qfec',
          `stty cols 80 rows 24; node ${CLI} analyze ${name} --fps 2 --out tty-out`,
          '/dev/null',
        ],
        { cwd: dir, reject: false, env: { NO_COLOR: '1' }, extendEnv: true, timeout: 180_000 },
      );
      expect(tty.exitCode, tty.stdout).toBe(0);
      // eslint-disable-next-line no-control-regex
      const text = tty.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      const lines = text.split(/\r?\n|\r/).filter((l) => l.trim() !== '');
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
      expect(text).toMatch(/2026-06-01-apia\S*…\S*-rain\.mp4 /);
      const done = /✓ (\d+) frames, unique insects/.exec(text);
      expect(done, text).not.toBeNull();
      const summary = (await readFile(path.join(dir, 'tty-out/summary.csv'), 'utf8')).split(
        /\r?\n/,
      );
      const header = summary[0]!.split(',');
      const row = summary[1]!.split(',');
      expect(row[header.indexOf('frames_analysed')]).toBe(done![1]);
      // While it ran (if Ink drew a progress line before the end), the total was marked as the
      // estimate it is: never a bare 'N/7 frames'.
      expect(text).not.toMatch(/\d+\/[1-9]\d* frames/);
    },
  );

  it('prints JSON and never overwrites files with the same name', async ({ expect }) => {
    const result = await hivesight(
      ['analyze', 'one/a.mp4', 'two/a.mp4', '--out', 'out3', '--json'],
      {
        HIVESIGHT_FPS: '2',
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      results: {
        file: string;
        counts: Record<string, number | null>;
        frames: unknown[];
        sampleFps: number;
        model: { name: string };
        timing: unknown;
        outputs: { csv: string };
      }[];
      failed: unknown[];
    };
    expect(parsed.failed).toEqual([]);
    expect(parsed.results).toHaveLength(2);
    expect(parsed.results.map((r) => r.file)).toEqual(['one/a.mp4', 'two/a.mp4']);
    expect(parsed.results[0]!.sampleFps).toBe(2);
    expect(parsed.results[0]!.model.name).toBeTruthy();
    expect(parsed.results[0]!.counts).toHaveProperty('bee');
    // No pixels: neither the preview JPEG nor decoded frames.
    expect(parsed.results[0]).not.toHaveProperty('preview');
    expect(result.stdout).not.toMatch(/"type": "Buffer"|"data": \[/);
    expect(new Set(parsed.results.map((r) => path.basename(r.outputs.csv)))).toEqual(
      new Set(['a.csv', 'a-2.csv']),
    );
    expect(existsSync(path.join(dir, 'out3/a.preview.jpg'))).toBe(true);
    expect(existsSync(path.join(dir, 'out3/a-2.preview.jpg'))).toBe(true);
  });
});

describe.skipIf(!hasModel)('eval', { concurrent: true }, () => {
  const yolo = () => path.join(dir, 'yolo');
  const crops = () => path.join(dir, 'crops');

  beforeAll(async () => {
    // Three plain pictures labelled with one generic "Bees" box and one hornet each: the model
    // finds nothing like them, so AP is low and a demanding gate must fail.
    await writeFile(path.join(dir, 'data.yaml'), 'names: [Bees, Hornets]\n');
    for (const name of ['i1', 'i2', 'i3']) {
      await makeImage(
        path.join(yolo(), `images/${name}.jpg`),
        '320x320',
        name === 'i2' ? 'gray' : 'olive',
      );
      await mkdir(path.join(yolo(), 'labels'), { recursive: true });
      await writeFile(
        path.join(yolo(), `labels/${name}.txt`),
        '0 0.3 0.3 0.2 0.2\n1 0.7 0.7 0.2 0.2\n',
      );
    }
    await makeImage(path.join(crops(), 'pollen/p1.jpg'), '180x300', 'yellow');
    await makeImage(path.join(crops(), 'no_pollen/n1.jpg'), '180x300', 'brown');
  });

  it('prints one JSON object for a YOLO folder (class names from the parent data.yaml)', async ({
    expect,
  }) => {
    const result = await hivesight(['eval', yolo(), '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      classes: Record<
        string,
        { ap50: number | null; precision: number | null; recall: number | null; support: number }
      >;
      count_error_pct: number | null;
      images: number;
      notes: string[];
    };
    expect(report.images).toBe(3);
    expect(Object.keys(report.classes).sort()).toEqual(['bee', 'hornet']);
    expect(report.classes.bee!.support).toBe(3);
    expect(report.classes.hornet!.support).toBe(3);
    expect(typeof report.classes.bee!.ap50).toBe('number');
    expect(report).toHaveProperty('count_error_pct');
    expect(report.notes.join(' ')).toMatch(/generic/);
  });

  it('fails a --min-ap50 gate with exit 1 and names it; a met gate exits 0', async ({ expect }) => {
    const failing = await hivesight(['eval', yolo(), '--min-ap50', 'bee=0.99,hornet=0.99']);
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toMatch(/gate failed: AP50 of bee/);
    expect(failing.stdout).toMatch(/AP50/);
    const passing = await hivesight(['eval', yolo(), '--min-ap50', 'bee=0']);
    expect(passing.exitCode, passing.stderr).toBe(0);
  });

  it('fails a --max-count-error gate above the ceiling, and passes at or under it', async ({
    expect,
  }) => {
    // The model finds none of the six labelled boxes, so every image is 100 % off.
    const failing = await hivesight(['eval', yolo(), '--json', '--max-count-error', '50']);
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toMatch(/gate failed: count error 100\.00 % > 50 %/);
    const report = JSON.parse(failing.stdout) as { count_error_pct: number; gates: unknown[] };
    expect(report.count_error_pct).toBe(100);
    expect(report.gates).toEqual([{ metric: 'count_error_pct', max: 50, actual: 100, ok: false }]);
    const passing = await hivesight(['eval', yolo(), '--max-count-error', '100']);
    expect(passing.exitCode, passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/gate count error <= 100 %: ok \(100\.00 %\)/);
    const onCrops = await hivesight(['eval', crops(), '--max-count-error', '10']);
    expect(onCrops.exitCode).toBe(2);
    expect(onCrops.stderr).toMatch(/crop set: it has accuracy, not AP50 or a count error/);
  });

  it('adds bootstrap intervals with --intervals, and runs of frames with --block', async ({
    expect,
  }) => {
    const json = await hivesight(['eval', yolo(), '--json', '--block', '2']);
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      classes: Record<string, { ap50: number | null }>;
      count_error_pct: number;
      intervals: {
        level: number;
        resamples: number;
        block: number;
        ap50: Record<string, { low: number; high: number } | null>;
        count_error_pct: { low: number; high: number } | null;
      };
    };
    expect(report.intervals).toMatchObject({ level: 0.95, resamples: 1000, block: 2 });
    expect(report.intervals).not.toHaveProperty('thresholds');
    for (const cls of ['bee', 'hornet']) {
      const span = report.intervals.ap50[cls]!;
      expect(span.low).toBeLessThanOrEqual(report.classes[cls]!.ap50!);
      expect(span.high).toBeGreaterThanOrEqual(report.classes[cls]!.ap50!);
    }
    expect(report.intervals.count_error_pct!.low).toBeLessThanOrEqual(report.count_error_pct);

    const text = await hivesight(['eval', yolo(), '--intervals']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/95 % interval/);
    expect(text.stdout).toMatch(/count error: [\d.]+ % \(95 % interval [\d.]+-[\d.]+ %\)/);
    expect(text.stdout).toMatch(/bootstrap over images, 1000 resamples/);

    const crop = await hivesight(['eval', crops(), '--intervals']);
    expect(crop.exitCode, crop.stderr).toBe(0);
    expect(crop.stdout).toMatch(/accuracy: [\d.]+ \(95 % interval [\d.]+-[\d.]+\)/);
  });

  it('scores a --baseline model on the same images: against itself every change is exactly 0', async ({
    expect,
  }) => {
    const json = await hivesight(['eval', yolo(), '--json', '--baseline', MODEL_CARD]);
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      classes: Record<string, { ap50: number | null }>;
      baseline: {
        model: { name: string; version: string };
        classes: Record<string, { ap50: number | null }>;
        change: {
          ap50: Record<string, { value: number; low: number; high: number } | null>;
          count_error_pct: { value: number; low: number; high: number } | null;
        };
      };
    };
    expect(report.baseline.model.name).toMatch(/hivesight/);
    expect(report.baseline.classes.bee!.ap50).toBe(report.classes.bee!.ap50);
    // Paired: both models are scored on the same resamples, so identical answers cancel.
    expect(report.baseline.change.ap50.bee).toEqual({ value: 0, low: 0, high: 0 });
    expect(report.baseline.change.count_error_pct).toEqual({ value: 0, low: 0, high: 0 });

    const text = await hivesight(['eval', crops(), '--baseline', MODEL_CARD]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/against hivesight-detector/);
    expect(text.stdout).toMatch(
      /baseline accuracy: [\d.]+, change \+0\.000 \(\+0\.000 to \+0\.000\)/,
    );

    const missing = await hivesight([
      'eval',
      yolo(),
      '--baseline',
      path.join(dir, 'nope.card.json'),
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/nope\.card\.json/);
  });

  it('says where the errors are with --errors: every label and detection in one kind', async ({
    expect,
  }) => {
    const json = await hivesight(['eval', yolo(), '--json', '--errors']);
    expect(json.exitCode, json.stderr).toBe(0);
    type Labels = Record<
      'support' | 'found' | 'shared' | 'scored_low' | 'poor_box' | 'missed',
      number
    > & {
      typed: Record<string, number>;
    };
    const report = JSON.parse(json.stdout) as {
      classes: Record<string, { recall: number; support: number }>;
      errors: {
        classes: Record<string, { labels: Labels }>;
        count: { over: number; under: number; exact: number };
        worst_images: { image: string; labels: number; unmatched: number }[];
      };
    };
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    // Labels some detection matches at IoU 0.5, whatever its class.
    const matched = (l: Labels) => l.found + l.shared + sum(Object.values(l.typed));
    for (const cls of ['bee', 'hornet']) {
      const { labels } = report.errors.classes[cls]!;
      expect(labels.support).toBe(3);
      expect(labels.found).toBe(report.classes[cls]!.recall * 3);
      expect(matched(labels) + labels.scored_low + labels.poor_box + labels.missed).toBe(3);
    }
    const { over, under, exact } = report.errors.count;
    expect(over + under + exact).toBe(3);
    // Each picture's two labels, named as the dataset does, where a label's match is missing.
    for (const image of report.errors.worst_images) {
      expect(image.image).toMatch(/^images\/i[123]\.jpg$/);
      expect(image.labels).toBe(2);
    }
    // A label no detection of any class matches is one neither found, typed nor shared.
    const unmatched = sum(report.errors.worst_images.map((e) => e.unmatched));
    expect(unmatched).toBe(
      6 - sum(['bee', 'hornet'].map((c) => matched(report.errors.classes[c]!.labels))),
    );

    const text = await hivesight(['eval', yolo(), '--errors']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/where the errors are/);
    expect(text.stdout).toMatch(/^labels\s+support\s+found/m);
    expect(text.stdout).toMatch(/^detections\s+shown\s+right/m);
    expect(text.stdout).toMatch(/count: too many in \d+ images, too few in \d+, right in \d+/);

    const crop = await hivesight(['eval', crops(), '--json', '--errors']);
    expect(crop.exitCode, crop.stderr).toBe(0);
    const confusion = (
      JSON.parse(crop.stdout) as { errors: { confusion: Record<string, Record<string, number>> } }
    ).errors.confusion;
    expect(sum(Object.values(confusion.pollen!))).toBe(1);
    expect(sum(Object.values(confusion.bee!))).toBe(1);
  });

  it('scores a crop set by accuracy', async ({ expect }) => {
    const result = await hivesight(['eval', crops(), '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      accuracy: number;
      classes: Record<string, unknown>;
      images: number;
    };
    expect(report.images).toBe(2);
    expect(report.accuracy).toBeGreaterThanOrEqual(0);
    expect(Object.keys(report.classes).sort()).toEqual(['bee', 'pollen']);
  });

  it('explains a folder that is not a dataset (exit 1)', async ({ expect }) => {
    const result = await hivesight(['eval', path.join(dir, 'one')]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/not a dataset/);
    expect(result.stderr).toMatch(/hint:/);
  });
});

describe.skipIf(!hasModel)('watch', () => {
  it('analyses new files once, records failures, survives a restart and stops on SIGINT', async () => {
    const inbox = path.join(dir, 'inbox');
    const out = path.join(dir, 'watch-out');
    const stateFile = path.join(out, '.hivesight-watch.json');
    const readState = async () =>
      existsSync(stateFile)
        ? (JSON.parse(await readFile(stateFile, 'utf8')) as {
            files: Record<string, { status: string; finishedAt: string }>;
          })
        : { files: {} };
    await mkdir(inbox, { recursive: true });
    await copyFile(path.join(dir, 'photo.jpg'), path.join(inbox, 'first.jpg'));
    const args = ['watch', inbox, '--out', out, '--settle-ms', '200'];

    const first = hivesight(args);
    await waitFor('first.csv', () => existsSync(path.join(out, 'first.csv')), 90_000);
    await copyFile(path.join(dir, 'bad.mp4'), path.join(inbox, 'broken.mp4'));
    await copyFile(path.join(dir, 'photo.png'), path.join(inbox, 'second.png'));
    await writeFile(path.join(inbox, 'notes.txt'), 'not media');
    await waitFor(
      'broken.mp4 failed and second.png done',
      async () => {
        const { files } = await readState();
        return files['broken.mp4']?.status === 'failed' && files['second.png']?.status === 'done';
      },
      90_000,
    );
    expect(existsSync(path.join(out, 'second.preview.jpg'))).toBe(true);
    const summary = (await readFile(path.join(out, 'summary.csv'), 'utf8')).trim().split(/\r?\n/);
    expect(summary.slice(1).map((l) => l.split(',')[0])).toEqual(['first.jpg', 'second.png']);
    first.kill('SIGINT');
    const firstRun = await first;
    expect(firstRun.exitCode, firstRun.stderr).toBe(0);
    expect(firstRun.stderr).toMatch(/broken\.mp4: failed/);
    expect(firstRun.stderr).not.toMatch(/notes\.txt/);
    // The folder being watched is said once; the ready line adds only what is new.
    expect(firstRun.stderr.match(/watching /g)).toHaveLength(1);
    expect(firstRun.stderr).toMatch(/^ready, 0 files seen before$/m);

    // A restart remembers what it did: nothing is analysed again.
    const before = await readState();
    const second = hivesight(args);
    let stderr = '';
    second.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor('the restarted watcher', () => /ready/.test(stderr), 90_000);
    // That nothing is analysed again can only be watched for a while. The files seen before
    // come back from the folder scan after `--settle-ms` (200 ms) of stable size; 1.5 s covers
    // that several times over on a loaded machine.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    second.kill('SIGINT');
    const secondRun = await second;
    expect(secondRun.exitCode, secondRun.stderr).toBe(0);
    expect(secondRun.stderr).not.toMatch(/analysing/);
    expect(await readState()).toEqual(before);
  });
});
