/**
 * Auto-zoom through the public engine API with the real model and ffmpeg, on a real hive frame
 * from ../shared/datasets (skips with a message when it is absent). The frame padded with black
 * to 1.75x its width fits the detector's input at 1/1.75 of the frame's scale, so its bees reach
 * the detector smaller than it learnt them; the engine must decode it again larger (the shipped
 * card zooms up to 2x and never out: `input.auto_zoom`), for a photo and for a video, and leave
 * the whole frame alone.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.ts';
import * as ev from '../../engine/index.ts';
import type { Engine } from '../../engine/index.ts';
import { runFfmpeg } from '../../fixtures/index.ts';
import { HIVE_FRAME, hiveFramePresent } from '../support/hive-frame.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FRAME = HIVE_FRAME;
const CARD = path.join(ROOT, 'models/hivesight-detector.card.json');

const present = hiveFramePresent('auto-zoom');
/** The 3840x1080 hive frame padded to 1.75x its width. */
const PADDED = { width: 6720, height: 1080 };
/** The shipped card's zoom bounds (`input.auto_zoom.min` 1, `max` 2). */
const ZOOMED_IN = (zoom: number) => zoom > 1 && zoom <= 2;

/** A copy of the shipped card, beside links to its models, without auto-zoom. */
async function cardWithoutZoom(dir: string): Promise<string> {
  const card = JSON.parse(await fs.readFile(CARD, 'utf8')) as { input: Record<string, unknown> };
  delete card.input.auto_zoom;
  for (const name of await fs.readdir(path.dirname(CARD))) {
    if (name.endsWith('.onnx')) {
      await fs.symlink(path.join(path.dirname(CARD), name), path.join(dir, name));
    }
  }
  const out = path.join(dir, path.basename(CARD));
  await fs.writeFile(out, JSON.stringify(card));
  return out;
}

describe.skipIf(!present)('auto-zoom on a hive frame', () => {
  let dir: string;
  let zooming: Engine;
  let plain: Engine;
  let paddedJpg: string;
  let paddedMp4: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hivesight-zoom-'));
    const off = path.join(dir, 'off');
    await fs.mkdir(off);
    zooming = await createEngine({ modelPath: CARD, threads: 2 });
    plain = await createEngine({ modelPath: await cardWithoutZoom(off), threads: 2 });
    paddedJpg = path.join(dir, 'padded.jpg');
    paddedMp4 = path.join(dir, 'padded.mp4');
    const pad = ['-vf', `pad=${PADDED.width}:${PADDED.height}:0:0:black`];
    await runFfmpeg(['-y', '-i', FRAME, ...pad, '-q:v', '2', paddedJpg]);
    await runFfmpeg([
      '-y', '-loop', '1', '-framerate', '5', '-t', '3', '-i', FRAME, ...pad,
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '18', paddedMp4,
    ]); // prettier-ignore
  }, 120_000);

  afterAll(async () => {
    await zooming?.detector.close();
    await plain?.detector.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('is on in the shipped card', () => {
    expect(zooming.detector.card.input.autoZoom).toBeDefined();
    expect(plain.detector.card.input.autoZoom).toBeUndefined();
  });

  it('leaves the whole frame, whose bees are at the learnt size, alone', async () => {
    const result = await zooming.analyse(FRAME);
    expect(result.zoom).toBe(1);
    expect(result.counts.bee).toBeGreaterThan(5);
  }, 60_000);

  it('decodes a photo of smaller bees again, larger', async () => {
    const result = await zooming.analyse(paddedJpg);
    expect(ZOOMED_IN(result.zoom), `zoom ${result.zoom}`).toBe(true);
    // boxes stay in the picture's own pixels
    for (const d of result.frames[0]!.detections) {
      expect(d.box.x + d.box.width).toBeLessThanOrEqual(PADDED.width + 1);
      expect(d.box.y + d.box.height).toBeLessThanOrEqual(PADDED.height + 1);
    }
    expect((await plain.analyse(paddedJpg)).zoom).toBe(1);
  }, 60_000);

  it('starts a video of smaller bees again at that zoom, every frame analysed once', async () => {
    const done: number[] = [];
    const result = await zooming.analyse(paddedMp4, {
      onProgress: (p) => done.push(p.framesDone),
    });
    // the restart redoes the first frames without the progress going back
    expect(done).toEqual([...Array(15).keys()].map((i) => i + 1));
    expect(ZOOMED_IN(result.zoom), `zoom ${result.zoom}`).toBe(true);
    expect(result.frames.map((f) => f.index)).toEqual([...Array(15).keys()]);
    expect(result.tracks.length).toBeGreaterThan(5);
  }, 60_000);

  it('eval reports which images it detected again, and at what zoom', async () => {
    // A YOLO set of the whole frame (with its labels) and the padded one (no labels needed here).
    const set = path.join(dir, 'set');
    await fs.mkdir(path.join(set, 'images'), { recursive: true });
    await fs.mkdir(path.join(set, 'labels'));
    const stem = path.parse(FRAME).name;
    const labels = path.resolve(path.dirname(FRAME), '../labels');
    await fs.copyFile(
      path.resolve(path.dirname(FRAME), '../classes.txt'),
      path.join(set, 'classes.txt'),
    );
    await fs.copyFile(FRAME, path.join(set, 'images', `${stem}.jpg`));
    await fs.copyFile(path.join(labels, `${stem}.txt`), path.join(set, 'labels', `${stem}.txt`));
    await fs.copyFile(paddedJpg, path.join(set, 'images', 'padded.jpg'));
    await fs.writeFile(path.join(set, 'labels', 'padded.txt'), '');

    const report = await ev.evaluateDataset(set, {
      predict: ev.createEvalPredictor(zooming),
      thresholds: zooming.detector.scoreThresholds(),
      modelClasses: zooming.detector.identity.classes,
    });
    expect(report.images).toBe(2);
    expect(report.auto_zoom.zoomed).toBe(1);
    expect(ZOOMED_IN(report.auto_zoom.min!), `zoom ${report.auto_zoom.min}`).toBe(true);
    expect(report.auto_zoom.max).toBe(report.auto_zoom.min);
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^Auto-zoom detected 1 of 2 images again at [12]\.\d\dx/),
    );
  }, 60_000);
});
