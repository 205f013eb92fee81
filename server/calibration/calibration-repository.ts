/**
 * The calibrations repository (migration 0034): one row per owner and location name. The owner
 * queues a fit; the worker claims it (a conditional update, so one worker takes it), then
 * writes the calibration or why it failed. Only `activeCalibration` decides what an analysis
 * runs with: a ready, enabled calibration whose gain was beyond the noise. A new calibration
 * starts off: experiment 013 found no camera where applying it by default met its rule, so the
 * owner turns it on after reading its gain.
 */
import type { Knex } from 'knex';
import type { Box, Calibration, ProductClass } from '../../engine/vocabulary.ts';
import { parseCalibration } from '../../engine/vocabulary.ts';
import { typed } from '../db.ts';

export type CalibrationState = 'queued' | 'fitting' | 'ready' | 'failed';

export interface CalibrationRow {
  id: number;
  userId: number;
  location: string;
  state: CalibrationState;
  calibration: Calibration | null;
  error: string | null;
  enabled: boolean;
  requestedAt: string;
  fittedAt: string | null;
}

interface StoredRow {
  id: number | string;
  user_id: number | string;
  location: string;
  state: CalibrationState;
  calibration_json: string | null;
  error: string | null;
  enabled: boolean | number;
  requested_at: string;
  fitted_at: string | null;
}

const fromStored = (r: StoredRow): CalibrationRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  location: r.location,
  state: r.state,
  calibration: r.calibration_json ? parseCalibration(JSON.parse(r.calibration_json)) : null,
  error: r.error,
  enabled: Boolean(r.enabled),
  requestedAt: r.requested_at,
  fittedAt: r.fitted_at,
});

export function calibrationRepository(db: Knex) {
  const table = () => db('location_calibrations');
  const find = async (userId: number, location: string): Promise<CalibrationRow | null> => {
    const row = await typed<StoredRow | undefined>(
      table().where({ user_id: userId, location }).first(),
    );
    return row ? fromStored(row) : null;
  };
  return {
    find,

    /** Queues a fit for the owner's location (again, over an earlier one); false if one is under way. */
    async request(userId: number, location: string, now: Date): Promise<boolean> {
      const at = now.toISOString();
      const existing = await find(userId, location);
      if (!existing) {
        await table().insert({
          user_id: userId,
          location,
          state: 'queued',
          enabled: false,
          requested_at: at,
        });
        return true;
      }
      const updated = await table()
        .where({ id: existing.id })
        .whereIn('state', ['ready', 'failed'])
        .update({ state: 'queued', error: null, requested_at: at });
      return updated > 0;
    },

    /** Takes the oldest queued fit for this worker, or null when none waits. */
    async claim(): Promise<CalibrationRow | null> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const next = await typed<StoredRow | undefined>(
          table()
            .where({ state: 'queued' })
            .orderBy([{ column: 'requested_at' }, { column: 'id' }])
            .first(),
        );
        if (!next) return null;
        const taken = await table()
          .where({ id: next.id, state: 'queued' })
          .update({ state: 'fitting' });
        if (taken > 0) return fromStored({ ...next, state: 'fitting' });
      }
      return null;
    },

    async complete(id: number, calibration: Calibration, now: Date): Promise<void> {
      await table()
        .where({ id })
        .update({
          state: 'ready',
          calibration_json: JSON.stringify(calibration),
          error: null,
          fitted_at: now.toISOString(),
        });
    },

    /** A failed fit keeps the earlier calibration, if there was one. */
    async fail(id: number, error: string): Promise<void> {
      await table().where({ id }).update({ state: 'failed', error });
    },

    /** A fit a stopped worker left half done goes back to the queue. */
    async requeueFitting(): Promise<void> {
      await table().where({ state: 'fitting' }).update({ state: 'queued' });
    },

    async setEnabled(userId: number, location: string, enabled: boolean): Promise<boolean> {
      return (await table().where({ user_id: userId, location }).update({ enabled })) > 0;
    },

    /** What the owner's analyses at `location` run with, or null. */
    async active(userId: number, location: string): Promise<Calibration | null> {
      const row = await find(userId, location);
      const c = row?.calibration;
      return row?.enabled && c && c.gain.significant ? c : null;
    },
  };
}

/** The owner's corrected frames at a location, with their stills: what a fit runs on. */
export async function correctedStillsOf(db: Knex, userId: number, location: string) {
  const rows = await typed<
    Array<{ file_id: number | string; still_name: string; labels_json: string }>
  >(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .where('files.user_id', userId)
      .andWhere('files.location', location)
      .orderBy('corrected_frames.id')
      .select(
        'corrected_frames.file_id',
        'corrected_frames.still_name',
        'corrected_frames.labels_json',
      ),
  );
  return rows.map((r) => ({
    file: String(r.file_id),
    stillName: r.still_name,
    labels: JSON.parse(r.labels_json) as Array<{ cls: ProductClass; box: Box }>,
  }));
}
