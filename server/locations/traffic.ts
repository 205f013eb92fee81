/**
 * Entrance traffic as the file API answers it (issue 43): the engine's `Traffic`, stored in
 * files.summary_json, turned into the detail JSON, with the passages counted per minute of video.
 * Honeybees only (bee, pollen, drone), as `bees_in` / `bees_out` are; wasp and hornet passages
 * are research data and show only to Researcher owners, in `by_class`.
 */
import type { EntranceDensity, ProductClass, Traffic } from '../../engine/vocabulary.ts';
import { HONEYBEE_CLASSES, trafficConfidence } from '../../engine/vocabulary.ts';
import type {
  CountConfidence,
  FileTraffic,
  MinuteTraffic,
} from '../../contract/schemas/traffic.ts';

/** What files.summary_json keeps of a video's traffic: the engine's, field by field. */
export type StoredTraffic = Traffic;

export function storedTraffic(traffic: Traffic): StoredTraffic {
  return {
    entrance: traffic.entrance,
    beesIn: traffic.beesIn,
    beesOut: traffic.beesOut,
    netFlow: traffic.netFlow,
    loops: traffic.loops,
    inPerMinute: traffic.inPerMinute,
    outPerMinute: traffic.outPerMinute,
    byClass: traffic.byClass,
    events: traffic.events.map((e) => ({
      kind: e.kind,
      cls: e.cls,
      frame: e.frame,
      timeS: e.timeS,
      trackIds: e.trackIds,
    })),
    ...(traffic.sampleFps ? { sampleFps: traffic.sampleFps } : {}),
    ...(traffic.density ? { density: { ...traffic.density } } : {}),
  };
}

/**
 * The benchmark's precision and recall at a video's entrance density (`trafficConfidence`),
 * read at answer time: a table written again after a tracker change applies at once.
 */
export function countConfidence(
  density: EntranceDensity | undefined,
  sampleFps: number,
): CountConfidence | null {
  const c = density ? trafficConfidence(density.meanNear, sampleFps || 5) : null;
  if (!c) return null;
  const { band } = c;
  return {
    level: c.level,
    leans: c.leans,
    crowding: band.crowding,
    scene_bees: band.sceneBees,
    band_near: band.meanNear,
    sample_fps: band.sampleFps,
    in: band.in,
    out: band.out,
    source: c.source,
  };
}

export const round1 = (v: number) => Math.round(v * 10) / 10;

export type { MinuteTraffic };

/** Honeybee passages per minute of a video `durationS` long (at least one minute row). */
export function trafficPerMinute(traffic: StoredTraffic, durationS: number): MinuteTraffic[] {
  const minutes = Math.max(1, Math.ceil(durationS / 60));
  const rows: MinuteTraffic[] = Array.from({ length: minutes }, (_, m) => ({
    minute: m,
    start_s: m * 60,
    end_s: Math.min((m + 1) * 60, Math.max(durationS, 0)),
    in: 0,
    out: 0,
    loops: 0,
  }));
  for (const e of traffic.events) {
    if (!HONEYBEE_CLASSES.includes(e.cls)) continue;
    const row = rows[Math.min(minutes - 1, Math.max(0, Math.floor(e.timeS / 60)))]!;
    if (e.kind === 'in') row.in += 1;
    else if (e.kind === 'out') row.out += 1;
    else row.loops += 1;
  }
  return rows;
}

/** The `traffic` field of GET /api/files/:id (null when no entrance was set for the analysis). */
export function trafficDetail(
  traffic: StoredTraffic | undefined,
  durationS: number,
  includeResearch: boolean,
  sampleFps = 5,
): FileTraffic | null {
  if (!traffic) return null;
  const shown = (cls: ProductClass) => includeResearch || HONEYBEE_CLASSES.includes(cls);
  const byClass = Object.fromEntries(
    Object.entries(traffic.byClass).filter(([cls]) => shown(cls as ProductClass)),
  );
  return {
    what: 'honeybees (workers, pollen bees, drones) crossing the entrance',
    entrance: traffic.entrance,
    bees_in: traffic.beesIn,
    bees_out: traffic.beesOut,
    net_flow: traffic.netFlow,
    loops: traffic.loops,
    in_per_minute: round2(traffic.inPerMinute),
    out_per_minute: round2(traffic.outPerMinute),
    by_class: byClass,
    per_minute: trafficPerMinute(traffic, durationS),
    events: traffic.events
      .filter((e) => shown(e.cls))
      .map((e) => ({ kind: e.kind, cls: e.cls, time_s: e.timeS })),
    density: traffic.density
      ? { mean_near: round1(traffic.density.meanNear), peak_near: traffic.density.peakNear }
      : null,
    sample_fps: traffic.sampleFps ?? null,
    confidence: countConfidence(traffic.density, traffic.sampleFps ?? sampleFps),
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
