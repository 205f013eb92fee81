import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../errors.ts';
import { availableClasses, cardPathFor, loadModelCard, validateModelCard } from './model-card.ts';

const good = () => ({
  name: 'test-model',
  version: '1.2.3',
  file: 'm.onnx',
  classes: ['bee', null, 'hornet'],
  input: { name: 'images', width: 960, height: 544, dynamic: true, stride: 32, channels: 'RGB' },
  normalization: { scale: 1 / 255, mean: [0, 0, 0], std: [1, 1, 1] },
  output: { name: 'detections', format: 'yolo' },
  thresholds: { score: 0.35, nms_iou: 0.5, per_class: { hornet: 0.3 } },
  metrics: {},
  training: { sources: [] },
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'hivesight-card-'));
  await writeFile(path.join(dir, 'm.onnx'), 'not really onnx');
  await writeFile(path.join(dir, 'm.card.json'), JSON.stringify(good()));
  await writeFile(path.join(dir, 'broken.card.json'), '{ nope');
  await writeFile(
    path.join(dir, 'orphan.card.json'),
    JSON.stringify({ ...good(), file: 'gone.onnx' }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function problems(card: unknown): string {
  try {
    validateModelCard(card, '/x/m.card.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return (error as Error).message;
  }
  throw new Error('expected the card to be refused');
}

describe('loadModelCard', () => {
  it('loads a card by its path or by the .onnx beside it', async () => {
    const byCard = await loadModelCard(path.join(dir, 'm.card.json'));
    const byOnnx = await loadModelCard(path.join(dir, 'm.onnx'));
    expect(byOnnx).toEqual(byCard);
    expect(byCard.modelPath).toBe(path.join(dir, 'm.onnx'));
    expect(byCard.classes).toEqual(['bee', null, 'hornet']);
    expect(byCard.thresholds.perClass).toEqual({ hornet: 0.3 });
    expect(byCard.thresholds.trackScore).toBeUndefined();
    expect(byCard.thresholds.typedNmsIou).toBeUndefined();
    expect(byCard.thresholds.alert).toBeUndefined();
    expect(availableClasses(byCard)).toEqual(['bee', 'hornet']);
  });

  it('loads the shipped card', async () => {
    const card = await loadModelCard(path.resolve('models/hivesight-detector.card.json'));
    expect(card.output.format).toBe('yolo');
    expect(availableClasses(card)).not.toContain('wasp');
    expect(card.input.autoZoom).toBeDefined();
  });

  it('names missing files, bad JSON, a missing model and odd paths', async () => {
    await expect(loadModelCard(path.join(dir, 'none.card.json'))).rejects.toThrow(
      /Cannot read the model card/,
    );
    await expect(loadModelCard(path.join(dir, 'broken.card.json'))).rejects.toThrow(
      /not valid JSON/,
    );
    await expect(loadModelCard(path.join(dir, 'orphan.card.json'))).rejects.toThrow(/gone\.onnx/);
    expect(() => cardPathFor('model.bin')).toThrow(ModelError);
  });
});

describe('validateModelCard', () => {
  it('names every bad field at once', () => {
    const card = good() as Record<string, unknown>;
    const message = problems({
      ...card,
      name: '',
      classes: ['bee', 'moth', 'bee'],
      input: {
        name: 'images',
        width: 100,
        height: -1,
        dynamic: 'yes',
        stride: 32,
        channels: 'RGBA',
        max_upscale: 0.5,
      },
      normalization: { scale: 0, mean: [0, 0], std: [1, 0, 1] },
      output: { name: 'detections', format: 'ssd' },
      thresholds: {
        score: 2,
        nms_iou: 0.5,
        per_class: { moth: 0.2, pollen: 'x' },
        track_score: { bee: 1.5, moth: 0.3 },
        typed_nms_iou: { drone: -0.1 },
        alert: { hornet: 1.5, moth: 0.9 },
      },
    });
    for (const field of [
      'name',
      'classes[1]',
      'classes[2] repeats',
      'input.height',
      'input.dynamic',
      'input.channels',
      'input.max_upscale',
      'normalization.scale',
      'normalization.mean',
      'normalization.std[1]',
      'output.format',
      'thresholds.score',
      'thresholds.per_class.moth',
      'thresholds.per_class.pollen',
      'thresholds.track_score.bee',
      'thresholds.track_score.moth',
      'thresholds.typed_nms_iou.drone',
      'thresholds.alert.hornet',
      'thresholds.alert.moth',
    ]) {
      expect(message).toContain(field);
    }
  });

  it('refuses a non-object, missing sections and a card with no product class', () => {
    expect(problems(null)).toContain('card must be an object');
    const message = problems({ name: 'x', version: '1', file: 'x.onnx', classes: [null] });
    for (const field of [
      'classes must map',
      'input must be',
      'normalization must be',
      'output must be',
      'thresholds must be',
    ]) {
      expect(message).toContain(field);
    }
  });

  it('reads thresholds and defaults into camelCase, and names bad optional fields', () => {
    const card = validateModelCard(
      { ...good(), thresholds: { ...good().thresholds, track_score: { bee: 0.3 } } },
      '/x/m.card.json',
    );
    expect(card.thresholds).toEqual({
      score: 0.35,
      nmsIou: 0.5,
      perClass: { hornet: 0.3 },
      trackScore: { bee: 0.3 },
    });
    expect(card.input.maxUpscale).toBe(1);
    const message = problems({
      ...good(),
      metrics: [],
      limitations: ['fine', 3],
      thresholds: { ...good().thresholds, per_class: [0.3] },
    });
    for (const field of [
      'metrics must be an object',
      'limitations[1] must be a string',
      'thresholds.per_class must be an object',
    ]) {
      expect(message).toContain(field);
    }
  });

  it('needs dynamic sizes to be multiples of the stride, even when other fields fail', () => {
    // The rule between fields is judged though the name is broken.
    const message = problems({ ...good(), name: 7, input: { ...good().input, height: 500 } });
    for (const field of ['name must be a non-empty string', 'input.height must be a multiple']) {
      expect(message).toContain(field);
    }
  });

  it('reads auto-zoom, names its bad fields, and wants a dynamic input for it', () => {
    const card = good();
    const zoom = {
      insect_px: 33.5,
      quantile: 0.5,
      min_insects: 4,
      tolerance: 1.25,
      min: 0.5,
      max: 2,
    };
    const read = validateModelCard(
      { ...card, input: { ...card.input, auto_zoom: zoom } },
      '/x/m.card.json',
    );
    const { insect_px: insectPx, min_insects: minInsects, ...same } = zoom;
    expect(read.input.autoZoom).toEqual({ insectPx, minInsects, ...same });
    expect(validateModelCard(card, '/x/m.card.json').input.autoZoom).toBeUndefined();
    const bad = {
      insect_px: 0,
      quantile: 1.5,
      min_insects: 2.5,
      tolerance: 0.9,
      min: 1.5,
      max: 0.5,
    };
    const message = problems({ ...card, input: { ...card.input, auto_zoom: bad } });
    for (const field of ['insect_px', 'quantile', 'min_insects', 'tolerance', 'min', 'max']) {
      expect(message).toContain(`input.auto_zoom.${field}`);
    }
    expect(
      problems({ ...card, input: { ...card.input, dynamic: false, auto_zoom: zoom } }),
    ).toContain('input.auto_zoom needs a dynamic input');
  });
});
