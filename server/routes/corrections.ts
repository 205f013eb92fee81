/**
 * Corrections that teach the model (issue 46): a file's correctable frames, one frame's still
 * with the model's detections and any corrected labels, saving corrected labels (which become
 * the frame's counts, and a photo's counts), the hive's accuracy on corrected frames, and the
 * user's consent to their corrected frames being used for training. Owners and admins only.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { AppContext, SessionUser } from '../context.ts';
import { currentUser } from '../context.ts';
import { rowCounts, rowFrames } from '../files/file-row.ts';
import { isoWithOffset } from '../files/file-record.ts';
import type { FileRow } from '../files/file-row.ts';
import { loadVisibleFile } from '../files/access.ts';
import type { CorrectionWrite } from '../corrections/corrections-repository.ts';
import { saveCorrectionRow } from '../corrections/corrections-repository.ts';
import { planFor } from '../files/plans.ts';
import { today } from '../clock.ts';
import { Conflict, NotFound, ValidationError } from '../errors.ts';
import { bodyOf } from '../middleware/body.ts';
import { labelCounts, parseLabels, sameLabels } from '../corrections/labels.ts';
import { correctedColumns } from '../corrections/apply.ts';
import type { Label } from '../corrections/labels.ts';
import { availableFrames, correctionOf, correctionsOf } from '../corrections/frames.ts';
import type { Correction, FrameEntry } from '../corrections/frames.ts';
import { stillFor, stillsDir } from '../corrections/stills.ts';
import type { StillInfo } from '../corrections/stills.ts';
import { accuracyOf } from '../corrections/hive-accuracy.ts';
import { consentOf, setConsent } from '../corrections/consent.ts';
import { sendFile } from '../corrections/send.ts';
import { generatedName, storedPath } from '../files/storage.ts';
import { exportDataset } from '../corrections/export.ts';
import { tarArchive } from '../corrections/tar.ts';
import type { TarEntry } from '../corrections/tar.ts';
import { parseLocationId, visibleLocation } from '../locations/entrance.ts';

const HONEYBEE_ONLY = new Set(['bee', 'pollen', 'drone']);
const FRAME_GONE =
  'This frame is no longer available: the video was erased after its retention time.';

export function correctionsRoutes(app: AppContext): Router {
  const router = new Router();

  const researcher = async (row: FileRow) =>
    (await planFor(app.db, row.user_id, today(app.clock))).researcher;

  /** The file (processed), the frame asked for, and its correction if any. */
  const loadFrame = async (ctx: Context, params: { id?: string; index?: string }) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), params.id);
    if (row.status !== 'PROCESSED')
      throw new Conflict('Only a processed file has frames to correct.');
    const index = Number(params.index);
    if (!/^\d{1,6}$/.test(params.index ?? '')) throw new NotFound('No such frame.');
    const correction = await correctionOf(app.db, row.id, index);
    // A still erased with its video (no consent) leaves the frame's labels but nothing to open.
    const corrected = new Set(correction?.stillName ? [index] : []);
    const entry = availableFrames(row, corrected).find((f) => f.index === index);
    if (!entry) {
      const exists = rowFrames(row).some((f) => f.index === index) || index === 0;
      throw new NotFound(exists && row.kind === 'video' ? FRAME_GONE : 'No such frame.');
    }
    return { row, entry, correction };
  };

  /** The model's detections a viewer of this file sees (no wasps or hornets without Researcher). */
  const shownDetections = async (row: FileRow, still: StillInfo) => {
    const all = await researcher(row);
    return still.detections.filter((d) => all || HONEYBEE_ONLY.has(d.cls));
  };

  router.get('/api/files/:id/frames', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    const corrections = await correctionsOf(app.db, row.id);
    const byIndex = new Map(corrections.map((c) => [c.index, c]));
    ctx.body = {
      file_id: row.id,
      kind: row.kind,
      media_kept: row.media_deleted_at === null,
      frames: availableFrames(
        row,
        new Set(corrections.filter((c) => c.stillName).map((c) => c.index)),
      ).map((f) => frameListEntry(row, f, byIndex.get(f.index))),
      corrected: corrections.map((c) => ({
        index: c.index,
        time_s: c.timeS,
        reviewed: c.reviewed,
        counts: labelCounts(c.labels),
        model_counts: labelCounts(c.model as Label[]),
        updated_at: isoWithOffset(c.updatedAt),
      })),
    };
  });

  router.get('/api/files/:id/frames/:index', app.requireUser, async (ctx) => {
    const { row, entry, correction } = await loadFrame(ctx, ctx.params);
    const still = correction ? null : await stillFor(app, row, entry, currentUser(ctx));
    const model = correction ? correction.model : await shownDetections(row, still!);
    ctx.body = frameView(row, entry, correction, {
      width: correction?.width ?? still!.width,
      height: correction?.height ?? still!.height,
      model,
      classes: (await researcher(row))
        ? ['bee', 'pollen', 'drone', 'wasp', 'hornet']
        : ['bee', 'pollen', 'drone'],
    });
  });

  router.get('/api/files/:id/frames/:index/still.jpg', app.requireUser, async (ctx) => {
    const { row, entry, correction } = await loadFrame(ctx, ctx.params);
    const name = correction?.stillName || (await stillFor(app, row, entry, currentUser(ctx))).name;
    await sendFile(ctx, storedPath(stillsDir(app.config.dataDir), name), 'image/jpeg');
  });

  router.put('/api/files/:id/frames/:index', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const { row, entry, correction } = await loadFrame(ctx, ctx.params);
    const still = correction ? null : await stillFor(app, row, entry, currentUser(ctx));
    const width = correction?.width ?? still!.width;
    const height = correction?.height ?? still!.height;
    const model = correction ? correction.model : await shownDetections(row, still!);
    const allowed = (await researcher(row))
      ? null
      : 'Wasps and hornets are labelled on the Researcher plan only.';
    const labels = parseLabels(bodyOf(ctx).labels, width, height);
    if (allowed && labels.some((l) => !HONEYBEE_ONLY.has(l.cls)))
      throw new ValidationError(allowed, { labels: allowed });
    const reviewed =
      user.role === 'ADMIN' || (correction !== null && correction.authorId !== user.id);
    const unchanged = sameLabels(labels, correction ? correction.labels : model);
    // A reviewer may confirm a frame as it is; anyone else must change something.
    if (unchanged && !(correction && reviewed && !correction.reviewed))
      throw new ValidationError(
        'Nothing changed: move, resize, add or delete a box, or change a class, before saving.',
        { labels: 'Nothing changed.' },
      );
    await saveCorrection(app, user, row, entry, {
      correction,
      stillName: correction?.stillName ?? still!.name,
      width,
      height,
      labels,
      model,
      reviewed,
    });
    const saved = await correctionOf(app.db, row.id, entry.index);
    const fresh = await loadVisibleFile(app.db, user, row.id);
    ctx.body = {
      ...frameView(fresh, entry, saved, { width, height, model, classes: [] }),
      file_counts: rowCounts(fresh),
    };
  });

  router.get('/api/files/:id/accuracy', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    ctx.body = await accuracyOf(app.db, row.user_id, row.location);
  });

  // The signed-in user's own hive (a location name of theirs).
  router.get('/api/hive-accuracy', app.requireUser, async (ctx) => {
    const location = typeof ctx.query.location === 'string' ? ctx.query.location : '';
    if (!location.trim()) throw new ValidationError('Name the hive: ?location=NAME.');
    ctx.body = await accuracyOf(app.db, currentUser(ctx).id, location);
  });

  // A hive location's page (its owner's, or any for an admin).
  router.get('/api/locations/:id/accuracy', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    ctx.body = await accuracyOf(app.db, location.user_id, location.name);
  });

  // The console's export button (admins): the same dataset as `hivesight dataset export`, as a tar.
  router.get('/api/admin/corrections-dataset.tar', app.requireAdmin, async (ctx) => {
    const reviewedOnly = ctx.query.reviewed_only === '1' || ctx.query.reviewed_only === 'true';
    const now = app.clock.now();
    const stem = `hivesight-corrections-${now.toISOString().slice(0, 10)}`;
    const work = path.join(app.config.dataDir, 'exports-tmp', generatedName());
    try {
      await mkdir(work, { recursive: true });
      const { manifest } = await exportDataset(app.db, {
        dataDir: app.config.dataDir,
        outDir: work,
        reviewedOnly,
        now,
      });
      // An empty tar would download as if it held something: say there is nothing instead.
      if (manifest.frames.length === 0) {
        throw new Conflict(
          reviewedOnly
            ? 'No reviewed consented corrected frames yet'
            : 'No consented corrected frames yet',
        );
      }
      const entries: TarEntry[] = [{ name: `${stem}/` }];
      for (const sub of ['images', 'labels']) {
        entries.push({ name: `${stem}/${sub}/` });
        for (const name of (await readdir(path.join(work, sub))).sort())
          entries.push({
            name: `${stem}/${sub}/${name}`,
            data: await readFile(path.join(work, sub, name)),
          });
      }
      for (const name of ['classes.txt', 'manifest.json'])
        entries.push({ name: `${stem}/${name}`, data: await readFile(path.join(work, name)) });
      ctx.set('Content-Type', 'application/x-tar');
      ctx.set('Content-Disposition', `attachment; filename="${stem}.tar"`);
      ctx.set('X-Hivesight-Frames', String(manifest.frames.length));
      ctx.body = tarArchive(entries, now);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  router.get('/api/account/training-consent', app.requireUser, async (ctx) => {
    ctx.body = await consentOf(app.db, currentUser(ctx).id);
  });

  router.post('/api/account/training-consent', app.requireUser, async (ctx) => {
    const { consent } = bodyOf(ctx);
    if (typeof consent !== 'boolean') {
      const message = 'consent must be true or false.';
      throw new ValidationError(message, { consent: message });
    }
    ctx.body = await setConsent(app.db, currentUser(ctx).id, consent, app.clock.now());
  });

  return router;
}

function frameListEntry(row: FileRow, f: FrameEntry, c: Correction | undefined) {
  return {
    index: f.index,
    time_s: f.timeS,
    source: f.source,
    corrected: Boolean(c),
    reviewed: c?.reviewed ?? false,
    url: `/api/files/${row.id}/frames/${f.index}`,
  };
}

function frameView(
  row: FileRow,
  f: FrameEntry,
  c: Correction | null,
  extra: { width: number; height: number; model: StillInfo['detections']; classes: string[] },
) {
  return {
    file_id: row.id,
    index: f.index,
    time_s: f.timeS,
    source: f.source,
    width: extra.width,
    height: extra.height,
    image_url: `/api/files/${row.id}/frames/${f.index}/still.jpg`,
    detections: extra.model,
    labels: c?.labels ?? null,
    corrected: Boolean(c),
    reviewed: c?.reviewed ?? false,
    updated_at: c ? isoWithOffset(c.updatedAt) : null,
    classes: extra.classes,
  };
}

/**
 * Stores the correction and makes its labels the frame's counts (and a photo's counts), in one
 * transaction. The model's boxes are kept from the first save, so later edits never overwrite
 * what the model did.
 */
async function saveCorrection(
  app: AppContext,
  user: SessionUser,
  row: FileRow,
  entry: FrameEntry,
  v: {
    correction: Correction | null;
    stillName: string;
    width: number;
    height: number;
    labels: Label[];
    model: StillInfo['detections'];
    reviewed: boolean;
  },
): Promise<void> {
  const now = app.clock.now().toISOString();
  const write: CorrectionWrite = v.correction
    ? {
        existingId: v.correction.id,
        labelsJson: JSON.stringify(v.labels),
        editedBy: user.id,
        reviewed: v.reviewed,
        now,
      }
    : {
        existingId: null,
        row: {
          file_id: row.id,
          frame_index: entry.index,
          time_s: entry.timeS,
          still_name: v.stillName,
          width: v.width,
          height: v.height,
          labels_json: JSON.stringify(v.labels),
          model_json: JSON.stringify(v.model),
          author_id: user.id,
          edited_by: user.id,
          reviewed: v.reviewed,
          created_at: now,
          updated_at: now,
        },
      };
  await saveCorrectionRow(app.db, row.id, write, (current) =>
    correctedColumns(current, [
      { index: entry.index, labels: v.labels, width: v.width, height: v.height },
    ]),
  );
}
