/**
 * The synthetic benchmark's gate (issue 56): one small seeded scene per camera, 15 bees near
 * the entrance (the target density), sampled at 10 fps, through the noise feed fitted to the
 * detector, the product's tracker and the count. The floors sit just under what they reach
 * (docs/experiments/021), and the tracker before issue 56 misses them; `npm run bench:traffic`
 * gives the whole table.
 */
import { describe, expect, it } from 'vitest';
import { trackerOptionsFor } from '../../engine/tracking/tracker.ts';
import { CAMERAS } from './cameras.ts';
import type { CameraName } from './cameras.ts';
import { noiseFeed } from './noise.ts';
import { countErrorOf, precisionOf, recallOf, scoreClip } from './score.ts';
import { simulate } from './simulate.ts';
import { VARIANTS } from './variants.ts';
import type { Variant } from './variants.ts';

/** The shipped model's display and track thresholds (models/hivesight-detector.card.json). */
const DISPLAY = { score: 0.2, perClass: { drone: 0.2, hornet: 0.275, pollen: 0.2 } };
const TRACK_SCORES = { bee: 0.3 };
const FPS = 10;
/**
 * Reached (docs/experiments/021, the noise feed's misses fitted by place: hive HOTA 0.48, IDF1
 * 0.58, in P / R 0.70 / 0.35, error -50 %, out 0.46 / 0.61, +33 %; backyard 0.44, 0.52, in
 * 0.44 / 0.47, +7 %, out 0.27 / 0.62, +131 %), less a margin of about one passage. The tracker
 * before issue 56 (its reach grown per frame) misses them.
 */
const GATE = {
  hive: {
    hota: 0.47,
    idf1: 0.57,
    inRecall: 0.3,
    inPrecision: 0.6,
    outRecall: 0.55,
    outPrecision: 0.41,
    inError: 0.55,
    outError: 0.39,
  },
  backyard: {
    hota: 0.43,
    idf1: 0.5,
    inRecall: 0.4,
    inPrecision: 0.37,
    outRecall: 0.53,
    outPrecision: 0.23,
    inError: 0.14,
    outError: 1.39,
  },
};

/** The product's tracker and count; `variant` puts an older one back. */
async function run(camera: CameraName, variant?: Variant) {
  const { entrance, width, height } = CAMERAS[camera];
  const tracker = {
    ...trackerOptionsFor(FPS, DISPLAY, TRACK_SCORES),
    ...variant?.tracker?.({ fps: FPS, entrance, width, height }),
  };
  const sim = simulate({ camera: CAMERAS[camera], density: 15, durationS: 40, seed: 1 });
  const s = await scoreClip(sim, FPS, noiseFeed(sim, 1001), {
    tracker,
    ...(variant?.traffic ? { traffic: variant.traffic } : {}),
  });
  const c = s.crossings;
  return {
    hota: s.hota.hota,
    idf1: s.tracking.idf1,
    mota: s.tracking.mota,
    inRecall: recallOf(c.in),
    inPrecision: precisionOf(c.in),
    inError: Math.abs(countErrorOf(c.in)),
    outRecall: recallOf(c.out),
    outPrecision: precisionOf(c.out),
    outError: Math.abs(countErrorOf(c.out)),
  };
}

type Figures = Awaited<ReturnType<typeof run>>;
type Floor = (typeof GATE)['hive'];

/** The floors a clip's figures miss (the count errors are ceilings). */
function missed(f: Figures, floor: Floor): string[] {
  return (Object.keys(floor) as (keyof Floor)[]).filter((k) =>
    k.endsWith('Error') ? f[k] > floor[k] : f[k] < floor[k],
  );
}

describe('the synthetic entrance benchmark, 15 bees at 10 fps, noise feed', () => {
  it.each([
    ['hive-entrance', GATE.hive],
    ['backyard-entrance', GATE.backyard],
  ] as const)('%s: the tracker and count hold their figures', async (camera, floor) => {
    const f = await run(camera);
    console.log(`entrance gate ${camera}: ${JSON.stringify(f)}`);
    expect(missed(f, floor)).toEqual([]);
  });

  it.each([
    ['hive-entrance', GATE.hive],
    ['backyard-entrance', GATE.backyard],
  ] as const)('%s: the tracker before issue 56 falls under the gate', async (camera, floor) => {
    const f = await run(camera, VARIANTS.before);
    console.log(`entrance gate ${camera}, before: ${JSON.stringify(f)}`);
    expect(missed(f, floor)).not.toEqual([]);
  });
});
