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

/** A subtype classifier section for good() (bee and hornet). */
const classifierSection = () => ({
  file: 'types.onnx',
  classes: ['bee', 'hornet'],
  input: { name: 'crops', size: 48, context: 1.5, channels: 'RGB' },
  normalization: { scale: 1 / 255, mean: [0, 0, 0], std: [1, 1, 1] },
  output: { name: 'types' },
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
    expect(card.thresholds.typedNmsIou).toEqual({ drone: 0.4 });
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

  it('judges rules between fields even when other fields fail', () => {
    // A fixed oblong input cannot take a turned frame, in the specialist's views too; the
    // broken name and classifier weights do not hide that.
    const message = problems({
      ...good(),
      name: 7,
      input: { ...good().input, dynamic: false },
      subtype_classifier: { ...classifierSection(), detector_weight: 'half' },
      test_time_augmentation: {
        views: ['identity'],
        media: ['image'],
        match_iou: 0.5,
        specialist: { file: 'h.onnx', classes: ['hornet'], views: ['identity', 'transpose'] },
      },
    });
    for (const field of [
      'name must be a non-empty string',
      'subtype_classifier.detector_weight must be a number in [0, 1] or one per class',
      'test_time_augmentation.specialist.views may turn the frame',
      'test_time_augmentation.specialist.classes must be a non-empty array',
    ]) {
      expect(message).toContain(field);
    }
    expect(message).not.toContain('test_time_augmentation.views may turn');
    expect(
      problems({
        ...good(),
        subtype_classifier: { ...classifierSection(), detector_weight: { moth: 0.5 } },
      }),
    ).toContain('subtype_classifier.detector_weight.moth is not a product class');
  });

  it('needs dynamic sizes to be multiples of the stride', () => {
    const card = good();
    expect(problems({ ...card, input: { ...card.input, width: 1000 } })).toContain(
      'input.width must be a multiple',
    );
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

  it('reads a subtype classifier section and names its bad fields', async () => {
    const section = classifierSection();
    const card = validateModelCard({ ...good(), subtype_classifier: section }, '/x/m.card.json');
    expect(card.subtypeClassifier).toMatchObject({
      modelPath: path.resolve('/x/types.onnx'),
      classes: ['bee', 'hornet'],
      typeColumns: [0, 1],
      noneColumn: null,
      columns: 2,
      input: { size: 48, context: 1.5, crop: 'square' },
      maxCrops: 256,
      detectorWeights: [0, 0],
      detail: 1,
    });
    const weighted = validateModelCard(
      { ...good(), subtype_classifier: { ...section, detector_weight: { hornet: 0.7 } } },
      '/x/m.card.json',
    );
    expect(weighted.subtypeClassifier?.detectorWeights).toEqual([0, 0.7]);
    const withNone = validateModelCard(
      { ...good(), subtype_classifier: { ...section, classes: ['hornet', null, 'bee'] } },
      '/x/m.card.json',
    );
    expect(withNone.subtypeClassifier).toMatchObject({
      classes: ['hornet', 'bee'],
      typeColumns: [0, 2],
      noneColumn: 1,
      columns: 3,
    });
    expect(
      problems({ ...good(), subtype_classifier: { ...section, classes: ['bee', null, null] } }),
    ).toMatch(/classes\[2\] repeats null.*must name at least 2/);
    const message = problems({
      ...good(),
      subtype_classifier: {
        ...section,
        file: 'types.bin',
        classes: ['bee', 'drone', 'bee'],
        input: { name: '', size: 2, context: 0, channels: 'RGB' },
        max_crops: 0,
        detector_weight: { bee: 2 },
      },
    });
    for (const field of [
      'subtype_classifier.file must name an .onnx',
      'subtype_classifier.classes[1] must be one of the detector classes or null',
      'subtype_classifier.classes[2] repeats',
      'subtype_classifier.input.name',
      'subtype_classifier.input.size',
      'subtype_classifier.input.context',
      'subtype_classifier.max_crops',
      'subtype_classifier.detector_weight.bee',
    ]) {
      expect(message).toContain(field);
    }
    await writeFile(
      path.join(dir, 'typed.card.json'),
      JSON.stringify({ ...good(), subtype_classifier: section }),
    );
    await expect(loadModelCard(path.join(dir, 'typed.card.json'))).rejects.toThrow(
      /does not exist: .*types\.onnx/,
    );
  });

  it('reads a box refiner section and names its bad fields', async () => {
    const section = {
      file: 'refiner.onnx',
      input: { name: 'crops', size: 64, context: 2, crop: 'box', channels: 'RGB' },
      normalization: { scale: 1 / 255, mean: [0, 0, 0], std: [1, 1, 1] },
      output: { name: 'boxes' },
      max_crops: 100,
    };
    const card = validateModelCard({ ...good(), box_refiner: section }, '/x/m.card.json');
    expect(card.boxRefiner).toMatchObject({
      modelPath: path.resolve('/x/refiner.onnx'),
      input: { name: 'crops', size: 64, context: 2, crop: 'box', channels: 'RGB' },
      output: { name: 'boxes' },
      maxCrops: 100,
    });
    expect(card.boxRefiner?.classes).toEqual(['bee', 'hornet']);
    expect(validateModelCard(good(), '/x/m.card.json').boxRefiner).toBeUndefined();
    const hornets = validateModelCard(
      { ...good(), box_refiner: { ...section, classes: ['hornet'] } },
      '/x/m.card.json',
    );
    expect(hornets.boxRefiner?.classes).toEqual(['hornet']);
    expect(problems({ ...good(), box_refiner: { ...section, classes: [] } })).toContain(
      'box_refiner.classes must be a non-empty array',
    );
    const message = problems({
      ...good(),
      box_refiner: {
        ...section,
        file: 'refiner.pt',
        classes: ['hornet', 'drone'],
        input: { name: 'crops', size: 64, context: 9, crop: 'round', channels: 'HSV' },
        normalization: { scale: 0, mean: [0, 0], std: [1, 1, 1] },
        output: {},
        max_crops: 1.5,
      },
    });
    for (const field of [
      'box_refiner.file must name an .onnx',
      'box_refiner.classes[1] must be one of the detector classes',
      'box_refiner.input.context',
      'box_refiner.input.crop must be "square" or "box"',
      'box_refiner.input.channels',
      'box_refiner.normalization.scale',
      'box_refiner.normalization.mean',
      'box_refiner.output.name',
      'box_refiner.max_crops',
    ]) {
      expect(message).toContain(field);
    }
    expect(problems({ ...good(), box_refiner: 'yes' })).toContain('box_refiner must be an object');
    await writeFile(
      path.join(dir, 'refined.card.json'),
      JSON.stringify({ ...good(), box_refiner: section }),
    );
    await expect(loadModelCard(path.join(dir, 'refined.card.json'))).rejects.toThrow(
      /does not exist: .*refiner\.onnx/,
    );
  });

  it('reads a test-time augmentation section and names its bad fields', () => {
    const section = { views: ['identity', 'flip_h'], media: ['image'], match_iou: 0.55 };
    const card = validateModelCard(
      { ...good(), test_time_augmentation: section },
      '/x/m.card.json',
    );
    expect(card.testTimeAugmentation).toEqual({
      views: ['identity', 'flip_h'],
      cropViews: ['identity'],
      media: ['image'],
      matchIou: 0.55,
      floor: 0.01,
      refine: true,
    });
    expect(
      validateModelCard(
        {
          ...good(),
          test_time_augmentation: { ...section, crop_views: ['identity', 'rotate_180'] },
        },
        '/x/m.card.json',
      ).testTimeAugmentation?.cropViews,
    ).toEqual(['identity', 'rotate_180']);
    expect(
      validateModelCard(
        { ...good(), test_time_augmentation: { ...section, refine: false } },
        '/x/m.card.json',
      ).testTimeAugmentation?.refine,
    ).toBe(false);
    expect(validateModelCard(good(), '/x/m.card.json').testTimeAugmentation).toBeUndefined();
    const message = problems({
      ...good(),
      test_time_augmentation: {
        views: ['flip_h', 'spin'],
        media: [],
        match_iou: 0,
        floor: 2,
        refine: 'no',
        crop_views: ['identity', 'turn'],
      },
    });
    for (const field of [
      'test_time_augmentation.views must be a non-empty array of distinct values from identity',
      'test_time_augmentation.media must be a non-empty array',
      'test_time_augmentation.match_iou must be a number in (0, 1]',
      'test_time_augmentation.floor must be a number in [0, 1]',
      'test_time_augmentation.refine must be true or false',
      'test_time_augmentation.crop_views must be a non-empty array of distinct values',
    ]) {
      expect(message).toContain(field);
    }
    expect(
      problems({ ...good(), test_time_augmentation: { ...section, views: ['flip_h'] } }),
    ).toContain('test_time_augmentation.views must start with "identity"');
    expect(
      problems({ ...good(), test_time_augmentation: { ...section, crop_views: ['flip_v'] } }),
    ).toContain('test_time_augmentation.crop_views must start with "identity"');
    expect(
      problems({
        ...good(),
        test_time_augmentation: { ...section, views: ['identity', 'identity'] },
      }),
    ).toContain('test_time_augmentation.views must be a non-empty array of distinct');
    // A turned frame swaps its sides: a fixed oblong input cannot take it, a square one can.
    const turned = {
      ...section,
      views: ['identity', 'rotate_90'],
      crop_views: ['identity', 'transpose'],
    };
    const fixed = (width: number) => ({ ...good().input, dynamic: false, width, height: 544 });
    expect(problems({ ...good(), input: fixed(960), test_time_augmentation: turned })).toContain(
      'test_time_augmentation.views may turn the frame (transpose, rotate_90, rotate_270, transverse) only for a dynamic or square input',
    );
    for (const input of [fixed(544), good().input]) {
      const card = validateModelCard(
        { ...good(), input, test_time_augmentation: turned },
        '/x/m.card.json',
      );
      expect(card.testTimeAugmentation?.views).toEqual(['identity', 'rotate_90']);
    }
  });

  it('reads a subtype classifier the test-time views swap in, and where detail crops may go', async () => {
    const classifier = classifierSection();
    const detailed = {
      ...classifier,
      file: 'detail.onnx',
      input: { ...classifier.input, size: 96, detail: 2 },
    };
    const tta = { views: ['identity'], media: ['image'], match_iou: 0.55 };
    const card = validateModelCard(
      {
        ...good(),
        subtype_classifier: classifier,
        test_time_augmentation: {
          ...tta,
          subtype_classifier: { ...detailed, detector_weight: 0.5 },
        },
      },
      '/x/m.card.json',
    );
    expect(card.subtypeClassifier?.detail).toBe(1);
    expect(card.testTimeAugmentation?.subtypeClassifier).toMatchObject({
      modelPath: path.resolve('/x/detail.onnx'),
      classes: ['bee', 'hornet'],
      input: { size: 96 },
      detail: 2,
      detectorWeights: [0.5, 0.5],
    });
    // A video would need every frame decoded twice; the views' classifier must type the same
    // honeybee score the card's own does.
    expect(problems({ ...good(), subtype_classifier: detailed })).toContain(
      'subtype_classifier.input.detail must be 1',
    );
    expect(
      problems({
        ...good(),
        subtype_classifier: classifier,
        test_time_augmentation: { ...tta, media: ['image', 'video'], subtype_classifier: detailed },
      }),
    ).toContain(
      'test_time_augmentation.subtype_classifier.input.detail above 1 needs media ["image"]',
    );
    const message = problems({
      ...good(),
      test_time_augmentation: {
        ...tta,
        subtype_classifier: {
          ...detailed,
          classes: ['hornet', 'bee'],
          input: { ...detailed.input, detail: 9 },
        },
      },
    });
    for (const field of [
      "test_time_augmentation.subtype_classifier.classes must be the card's subtype_classifier.classes",
      'test_time_augmentation.subtype_classifier.input.detail must be an integer in [1, 4]',
    ]) {
      expect(message).toContain(field);
    }
    await writeFile(
      path.join(dir, 'detailed.card.json'),
      JSON.stringify({
        ...good(),
        subtype_classifier: { ...classifier, file: 'm.onnx' },
        test_time_augmentation: { ...tta, subtype_classifier: detailed },
      }),
    );
    await expect(loadModelCard(path.join(dir, 'detailed.card.json'))).rejects.toThrow(
      /does not exist: .*detail\.onnx/,
    );
  });

  it("reads a detector the test-time views run in the card's place, with its own score", async () => {
    const tta = { views: ['identity'], media: ['image'], match_iou: 0.55 };
    const card = validateModelCard(
      {
        ...good(),
        test_time_augmentation: { ...tta, detector: { file: 'wide.onnx', score: 0.225 } },
      },
      '/x/m.card.json',
    );
    expect(card.testTimeAugmentation?.detector).toEqual({
      file: 'wide.onnx',
      modelPath: path.resolve('/x/wide.onnx'),
      score: 0.225,
    });
    // Without a score of its own it keeps the card's.
    const plain = validateModelCard(
      { ...good(), test_time_augmentation: { ...tta, detector: { file: 'wide.onnx' } } },
      '/x/m.card.json',
    );
    expect(plain.testTimeAugmentation?.detector?.score).toBe(plain.thresholds.score);
    const message = problems({
      ...good(),
      test_time_augmentation: { ...tta, detector: { file: 'wide.pt', score: 1.5 } },
    });
    for (const field of [
      'test_time_augmentation.detector.file must name an .onnx file',
      'test_time_augmentation.detector.score must be a number in [0, 1]',
    ]) {
      expect(message).toContain(field);
    }
    expect(
      problems({ ...good(), test_time_augmentation: { ...tta, detector: 'wide.onnx' } }),
    ).toContain('test_time_augmentation.detector must be an object');
    await writeFile(
      path.join(dir, 'in-place.card.json'),
      JSON.stringify({
        ...good(),
        test_time_augmentation: { ...tta, detector: { file: 'gone-wide.onnx' } },
      }),
    );
    await expect(loadModelCard(path.join(dir, 'in-place.card.json'))).rejects.toThrow(
      /does not exist: .*gone-wide\.onnx/,
    );
  });

  it('reads a specialist the test-time views run beside the detector, for classes outside the honeybee group', async () => {
    const tta = { views: ['identity'], media: ['image'], match_iou: 0.55 };
    const card = validateModelCard(
      {
        ...good(),
        test_time_augmentation: {
          ...tta,
          specialist: { file: 'hornets.onnx', classes: ['hornet'], metrics: {} },
        },
      },
      '/x/m.card.json',
    );
    expect(card.testTimeAugmentation?.specialist).toEqual({
      file: 'hornets.onnx',
      modelPath: path.resolve('/x/hornets.onnx'),
      classes: ['hornet'],
      views: ['identity'],
    });
    const own = validateModelCard(
      {
        ...good(),
        test_time_augmentation: {
          ...tta,
          specialist: { file: 'h.onnx', classes: ['hornet'], views: ['identity', 'rotate_90'] },
        },
      },
      '/x/m.card.json',
    );
    expect(own.testTimeAugmentation?.specialist?.views).toEqual(['identity', 'rotate_90']);
    // The classifier splits one honeybee score among its classes: a specialist cannot own one.
    const split = problems({
      ...good(),
      subtype_classifier: classifierSection(),
      test_time_augmentation: { ...tta, specialist: { file: 'h.onnx', classes: ['hornet'] } },
    });
    expect(split).toContain('test_time_augmentation.specialist.classes must be a non-empty array');
    const message = problems({
      ...good(),
      test_time_augmentation: {
        ...tta,
        specialist: { file: 'h.txt', classes: ['wasp'], views: ['flip_h', 'identity'] },
      },
    });
    for (const field of [
      'test_time_augmentation.specialist.file must name an .onnx file',
      'test_time_augmentation.specialist.classes must be a non-empty array of distinct values from the detector classes',
      'test_time_augmentation.specialist.views must start with "identity"',
    ]) {
      expect(message).toContain(field);
    }
    expect(problems({ ...good(), test_time_augmentation: { ...tta, specialist: [] } })).toContain(
      'test_time_augmentation.specialist must be an object',
    );
    await writeFile(
      path.join(dir, 'specialist.card.json'),
      JSON.stringify({
        ...good(),
        test_time_augmentation: { ...tta, specialist: { file: 'gone.onnx', classes: ['hornet'] } },
      }),
    );
    await expect(loadModelCard(path.join(dir, 'specialist.card.json'))).rejects.toThrow(
      /does not exist: .*gone\.onnx/,
    );
  });
});
