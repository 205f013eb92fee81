/**
 * The engine thread behind engineFor(): results come back whole (the preview as a Buffer),
 * engine errors come back as their classes (the error middleware and the worker map classes and
 * codes), a cancelled analysis ends with AnalysisCancelledError, a model that cannot open
 * rejects engineFor() (and the next call tries again). (What the thread buys, the main event
 * loop free during inference, is measured by `npm run load`: see server/README.md.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisCancelledError,
  ModelError,
  UnsupportedMediaError,
} from '../../engine/vocabulary.ts';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import { loadConfig } from '../config.ts';
import { closeEngineFor, engineFor } from './engine.ts';

const HAVE_FFMPEG = ['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'].some((f) => fs.existsSync(f));

describe.skipIf(!HAVE_FFMPEG)('engineFor in a worker thread', () => {
  const app = { config: loadConfig({}) };
  let dir: string;
  let picture: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-engine-thread-'));
    picture = path.join(dir, 'bees.png');
    await writeBeeImage(picture, randomBeeScene({ width: 320, height: 240, count: 5, seed: 4 }));
  });
  afterAll(async () => {
    await closeEngineFor(app);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('probes and analyses in the thread, the preview coming back as a Buffer', async () => {
    const engine = await engineFor(app);
    expect(await engine.probe(picture)).toMatchObject({ kind: 'image', format: 'png' });
    const results = await Promise.all(
      [1, 2, 3].map(() => engine.analyse(picture, { keepPreviewFrame: true })),
    );
    for (const r of results) {
      expect(r.frames).toHaveLength(1);
      expect(Buffer.isBuffer(r.preview)).toBe(true);
    }
  }, 60_000);

  it('sends engine errors back as their classes, and cancels', async () => {
    const engine = await engineFor(app);
    const garbage = path.join(dir, 'garbage.mp4');
    fs.writeFileSync(garbage, 'not a video at all');
    const err = await engine.probe(garbage).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedMediaError);
    expect((err as UnsupportedMediaError).code).toBe('UNSUPPORTED_MEDIA');
    const controller = new AbortController();
    const running = engine.analyse(picture, { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AnalysisCancelledError);
  }, 60_000);

  it('rejects when the model cannot open, and tries again on the next call', async () => {
    const bad = { config: loadConfig({ HIVESIGHT_MODEL: path.join(dir, 'missing.card.json') }) };
    await expect(engineFor(bad)).rejects.toBeInstanceOf(ModelError);
    await expect(engineFor(bad)).rejects.toBeInstanceOf(ModelError);
    await closeEngineFor(bad);
  }, 60_000);
});
