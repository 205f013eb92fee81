/**
 * Clips the end-to-end tests encode from labelled frames (x264 on 4K pictures: seconds to
 * minutes each), kept under tmp/clip-cache/ by what makes them: the bytes of every input
 * picture, the encoder's source file (lab/video.ts or pan.ts, so that a changed recipe
 * is a new key), the options, ffmpeg's version and the number of cores (x264's output depends on
 * its thread count). A later run reads the same clip back instead of encoding it again; the
 * tests then analyse exactly what a fresh encode would give them.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { encodeFrameClip, encodePanClip } from '../../lab/index.ts';
import { createEngine, DEFAULT_LIMITS, resolveMediaTools } from '../../engine/index.ts';
import type {
  AnalysisOutput,
  Detection,
  Engine,
  MediaInfo,
  MediaLimits,
  MediaTools,
} from '../../engine/index.ts';
import type { FrameClip, PanSettings } from '../../lab/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = path.join(ROOT, 'tmp', 'clip-cache');
const RECIPES = {
  frames: path.join(ROOT, 'lab/video.ts'),
  pan: path.join(ROOT, 'lab/pan.ts'),
};
/** Clips unused this long are deleted, so that keys no test asks for any more do not pile up. */
const UNUSED_MS = 14 * 24 * 3600 * 1000;

type Deps = { tools: MediaTools; limits: MediaLimits };

const versions = new Map<string, Promise<string>>();
const ffmpegVersion = (ffmpeg: string) => {
  if (!versions.has(ffmpeg)) {
    versions.set(
      ffmpeg,
      execa(ffmpeg, ['-version']).then((r) => r.stdout),
    );
  }
  return versions.get(ffmpeg)!;
};

async function keyOf(
  recipe: keyof typeof RECIPES,
  inputs: readonly string[],
  options: unknown,
  deps: Deps,
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await fs.readFile(RECIPES[recipe]));
  hash.update(await ffmpegVersion(deps.tools.ffmpeg));
  hash.update(JSON.stringify({ recipe, options, cores: os.availableParallelism() }));
  for (const input of inputs) hash.update(await fs.readFile(input));
  return `${recipe}-${hash.digest('hex').slice(0, 32)}.mp4`;
}

let pruned = false;
async function pruneUnused(): Promise<void> {
  if (pruned) return;
  pruned = true;
  for (const name of existsSync(CACHE) ? await fs.readdir(CACHE) : []) {
    if (!name.endsWith('.mp4')) continue;
    const file = path.join(CACHE, name);
    const { mtimeMs } = await fs.stat(file);
    if (Date.now() - mtimeMs > UNUSED_MS) {
      await fs.rm(file, { force: true });
      await fs.rm(`${file}.media.json`, { force: true });
    }
  }
}

/**
 * The cached clip named `key`, made by `make(tmpDir)` (which returns the file it wrote) when
 * absent. Written to a temporary name and renamed, so a cut-short run leaves no partial clip.
 */
async function cached(key: string, make: (tmpDir: string) => Promise<string>): Promise<string> {
  await pruneUnused();
  await fs.mkdir(CACHE, { recursive: true });
  const file = path.join(CACHE, key);
  if (existsSync(file)) {
    const now = new Date();
    await fs.utimes(file, now, now);
    return file;
  }
  const tmpDir = await fs.mkdtemp(path.join(CACHE, '.making-'));
  try {
    await fs.rename(await make(tmpDir), file);
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
  return file;
}

/** `encodeFrameClip`, from the cache when these frames were encoded so before. */
export async function cachedFrameClip(
  images: readonly string[],
  deps: Deps,
  options: { fps?: number; crf?: number } = {},
): Promise<FrameClip> {
  const fps = options.fps ?? 5;
  const key = await keyOf('frames', images, options, deps);
  // The clip's media facts (as encodeFrameClip probed them) are kept beside it.
  const facts = `${key}.media.json`; // pruned with the clip
  const file = await cached(key, async (tmpDir) => {
    const clip = await encodeFrameClip(images, deps, { ...options, tmpRoot: tmpDir });
    await fs.writeFile(path.join(CACHE, facts), JSON.stringify(clip.media));
    return clip.file;
  });
  const media = JSON.parse(await fs.readFile(path.join(CACHE, facts), 'utf8')) as MediaInfo;
  // The cache keeps the clip: nothing to remove.
  return { file, media, fps, remove: async () => {} };
}

/** `encodePanClip`'s clip of `picture`, from the cache when made so before; its path. */
export async function cachedPanClip(
  picture: string,
  pictureWidth: number,
  deps: Deps,
  settings: PanSettings = {},
): Promise<string> {
  const key = await keyOf('pan', [picture], { pictureWidth, settings }, deps);
  return cached(key, async (tmpDir) => {
    const out = path.join(tmpDir, 'pan.mp4');
    await encodePanClip(picture, pictureWidth, out, deps, settings);
    return out;
  });
}

/** Labelled frames encoded as a clip at `fps` (cached) and analysed by `engine` at that rate. */
export async function analyseFrameClip(
  engine: Pick<Engine, 'analyse'>,
  images: readonly string[],
  fps: number,
): Promise<AnalysisOutput['frames']> {
  const clip = await cachedFrameClip(
    images,
    { tools: resolveMediaTools(), limits: { ...DEFAULT_LIMITS, timeoutMs: 1_800_000 } },
    { fps },
  );
  try {
    return (await engine.analyse(clip.file, { sampleFps: fps })).frames;
  } finally {
    await clip.remove();
  }
}

/**
 * `analyseFrameClip` with the shipped engine, its frames kept under tmp/run-detections/ by clip
 * name and model version: the research scripts (why-missed, noise-fit) read the same six runs
 * again and again, and analysing them takes minutes. Delete the folder after an engine change
 * that keeps the model's version.
 */
export async function cachedRunDetections(
  clip: string,
  images: readonly string[],
  modelVersion: string,
  fps: number,
): Promise<{ index: number; detections: Detection[] }[]> {
  const dir = path.join(ROOT, 'tmp', 'run-detections');
  const file = path.join(dir, `${clip}.${modelVersion}.json`);
  if (existsSync(file)) {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Awaited<
      ReturnType<typeof cachedRunDetections>
    >;
  }
  const engine = await createEngine({ threads: 2, limits: { timeoutMs: 1_800_000 } });
  try {
    const frames = (await analyseFrameClip(engine, images, fps)).map((f) => ({
      index: f.index,
      detections: f.detections,
    }));
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(file, JSON.stringify(frames));
    return frames;
  } finally {
    await engine.detector.close();
  }
}
