import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../errors.ts';
import { parseYamlNames, parseYoloLabels, readDataset } from './datasets.ts';
import { buildLabelMap, parseLabelMappings } from './labels.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hivesight-eval-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes files under `root`; the reader never decodes images, so their bytes do not matter. */
async function put(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

const map = buildLabelMap();

describe('YOLO datasets', () => {
  it('reads images, labels and classes.txt (hive-entrance layout)', async () => {
    await put({
      'classes.txt': 'Worker-Bee-No-Pollen\nWorker-Bee-Pollen\nDrone-Bee\n',
      'images/a.jpg': 'x',
      'images/b.png': 'x',
      'images/notes.md': 'not an image',
      'labels/a.txt': '0 0.5 0.5 0.2 0.4\n2 0.1 0.1 0.1 0.1\n',
    });
    const ds = await readDataset(root, map);
    expect(ds.kind).toBe('boxes');
    if (ds.kind !== 'boxes') return;
    expect(ds.images.map((i) => path.basename(i.path))).toEqual(['a.jpg', 'b.png']);
    expect(ds.images[0]!.gt.map((g) => g.cls)).toEqual(['bee', 'drone']);
    const first = ds.images[0]!.gt[0]!.box;
    expect(first.x).toBeCloseTo(0.4);
    expect(first.y).toBeCloseTo(0.3);
    expect(first.width).toBeCloseTo(0.2);
    expect(first.height).toBeCloseTo(0.4);
    // b.png has no label file: a background image.
    expect(ds.images[1]!.gt).toEqual([]);
  });

  it('orders frames by the numbers in their names, so frames of a video stay in time order', async () => {
    await put({
      'classes.txt': 'Bee\n',
      'images/clip_frame_1000.jpg': 'x',
      'images/clip_frame_999.jpg': 'x',
      'images/clip_frame_98.jpg': 'x',
      'labels/clip_frame_98.txt': '0 0.5 0.5 0.1 0.1\n',
    });
    const ds = await readDataset(root, map);
    expect(ds.images.map((i) => path.basename(i.path))).toEqual([
      'clip_frame_98.jpg',
      'clip_frame_999.jpg',
      'clip_frame_1000.jpg',
    ]);
  });

  it('follows symbolic links to images (a dataset view built from links)', async () => {
    await put({
      'classes.txt': 'Worker-Bee-No-Pollen\n',
      'source/a.jpg': 'x',
      'labels/a.txt': '0 0.5 0.5 0.2 0.4\n',
    });
    await mkdir(path.join(root, 'images'));
    await symlink(path.join(root, 'source', 'a.jpg'), path.join(root, 'images', 'a.jpg'));
    await symlink(path.join(root, 'missing.jpg'), path.join(root, 'images', 'dangling.jpg'));
    const ds = await readDataset(root, map);
    expect(ds.kind === 'boxes' && ds.images.map((i) => path.basename(i.path))).toEqual(['a.jpg']);
  });

  it('reads a split folder with data.yaml in the parent (Roboflow export)', async () => {
    await put({
      'data.yaml': "train: ../train/images\nnames: ['Bees', 'Hornets']\nnc: 2\n",
      'valid/images/x.jpg': 'x',
      'valid/labels/x.txt': '1 0.5 0.5 0.5 0.5\n0 0.2 0.2 0.1 0.1\n',
      'train/images/y.jpg': 'x',
      'train/labels/y.txt': '',
    });
    const ds = await readDataset(path.join(root, 'valid'), map);
    expect(ds.kind === 'boxes' && ds.images[0]!.gt.map((g) => g.cls)).toEqual([
      'hornet',
      'honeybee',
    ]);
  });

  it('refuses the folder that holds the splits, naming one to use', async () => {
    await put({ 'classes.txt': 'Bees\n', 'valid/images/x.jpg': 'x', 'valid/labels/x.txt': '' });
    await expect(readDataset(root, map)).rejects.toThrow(/splits \(valid\).*valid/);
  });

  it('asks for --map when a label has no class, and accepts the mapping', async () => {
    await put({
      'classes.txt': 'Apis\n',
      'images/x.jpg': 'x',
      'labels/x.txt': '0 0.5 0.5 0.1 0.1\n',
    });
    await expect(readDataset(root, map)).rejects.toThrow(/"Apis".*--map/);
    const ds = await readDataset(root, buildLabelMap(parseLabelMappings(['apis=bee'])));
    expect(ds.kind === 'boxes' && ds.images[0]!.gt[0]!.cls).toBe('bee');
  });

  it('rejects malformed label lines with the file and line', async () => {
    await put({ 'classes.txt': 'Bees\n', 'images/x.jpg': 'x', 'labels/x.txt': '0 0.5 0.5\n' });
    await expect(readDataset(root, map)).rejects.toThrow(/x\.txt:1/);
    await put({ 'labels/x.txt': '3 0.5 0.5 0.1 0.1\n' });
    await expect(readDataset(root, map)).rejects.toThrow(/class 3/);
  });

  it('reduces polygon labels to their bounding box', () => {
    const [label] = parseYoloLabels('0 0.1 0.2 0.5 0.2 0.3 0.6\n');
    expect(label!.box.x).toBeCloseTo(0.1);
    expect(label!.box.y).toBeCloseTo(0.2);
    expect(label!.box.width).toBeCloseTo(0.4);
    expect(label!.box.height).toBeCloseTo(0.4);
  });
});

describe('data.yaml names', () => {
  it('reads inline lists, block lists and index maps', () => {
    expect(parseYamlNames('names: [Bees, "Hornets"]')).toEqual(['Bees', 'Hornets']);
    expect(parseYamlNames('nc: 2\nnames:\n  - Bees\n  - Hornets\nother: 1')).toEqual([
      'Bees',
      'Hornets',
    ]);
    expect(parseYamlNames("names:\n  1: 'Hornets'\n  0: Bees\n")).toEqual(['Bees', 'Hornets']);
    expect(parseYamlNames('nc: 2\n')).toBeUndefined();
  });
});

describe('crop datasets', () => {
  it('reads one folder per class and maps pollen / no_pollen', async () => {
    await put({
      'pollen/p1.jpg': 'x',
      'pollen/p2.jpg': 'x',
      'no_pollen/n1.jpg': 'x',
      LICENSE: 'text',
    });
    const ds = await readDataset(root, map);
    expect(ds.kind).toBe('crops');
    if (ds.kind !== 'crops') return;
    expect(ds.images.map((i) => [i.label, i.truth])).toEqual([
      ['no_pollen', 'bee'],
      ['pollen', 'pollen'],
      ['pollen', 'pollen'],
    ]);
  });
});

describe('not a dataset', () => {
  it('says what it expected', async () => {
    await put({ 'readme.txt': 'hello' });
    await expect(readDataset(root, map)).rejects.toThrow(DatasetError);
    await expect(readDataset(root, map)).rejects.toThrow(/images\/ and labels\//);
    await expect(readDataset(path.join(root, 'missing'), map)).rejects.toThrow(/does not exist/);
  });

  it('rejects a mapping to an unknown class', () => {
    expect(() => buildLabelMap({ Apis: 'insect' })).toThrow(DatasetError);
    expect(() => parseLabelMappings(['nonsense'])).toThrow(/LABEL=CLASS/);
  });
});
