/**
 * The worker's own state machine on SQLite and PostgreSQL, driven by a stand-in engine whose
 * timing and failures the test controls: success, a content error failing at once with the
 * engine's message, stop() aborting a running analysis and handing its job back without spending
 * an attempt, and a transient error retried up to max attempts. The real engine path (ffmpeg +
 * model, kill -9) is in queue-worker.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../server/queue/worker.ts';
import { enqueueJob } from '../../server/queue/jobs-repository.ts';
import { CorruptMediaError } from '../../engine/vocabulary.ts';
import type { FileEngine } from '../../server/files/engine.ts';
import { typed } from '../../server/db.ts';
import type { FileRow } from '../../server/files/file-row.ts';
import { FAILURE_MESSAGES } from '../../server/user-messages.ts';
import { analysisResult } from '../support/analysis.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const fake = (mode: { fail?: Error; delayMs?: number }): FileEngine => ({
  probe: () => Promise.reject(new Error('no')),
  analyse: async (_file, opts) => {
    await new Promise<void>((resolve, reject) => {
      // As a real analysis: a signal aborted before it starts (stop() between the claim and the
      // call) ends it at once.
      if (opts?.signal?.aborted) return reject(new Error('aborted'));
      const t = setTimeout(resolve, mode.delayMs ?? 10);
      opts?.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      });
    });
    if (mode.fail) throw mode.fail;
    return analysisResult('x');
  },
});

describe.each(DB_KINDS)('worker loop on %s', (kind) => {
  const t = useTestServer(kind);
  it.skipIf(!dbAvailable(kind))('processes, fails, hands back on stop and retries', async () => {
    const { id } = await signedInUser(t.server);
    const mk = async () => {
      const fileId = await createFile(t.server, id, {
        kind: 'video',
        status: 'QUEUED',
        counts: null,
        frames: null,
        stored_name: `${randomBytes(16).toString('hex')}.mp4`,
      });
      await enqueueJob(t.server.app.db, { fileId, priority: 0, maxAttempts: 3, now: new Date() });
      return fileId;
    };
    const row = (fid: number) => typed<FileRow>(t.server.app.db('files').where('id', fid).first());
    // Waits on the row's status itself, however long a loaded machine takes to get there.
    const status = (fid: number) =>
      expect.poll(async () => (await row(fid)).status, { timeout: 30_000, interval: 20 });
    const a = await mk();
    let w = startWorker(t.server.app, { engine: fake({}), pollMs: 50 });
    await status(a).toBe('PROCESSED');
    await w.stop();
    const b = await mk();
    w = startWorker(t.server.app, {
      engine: fake({ fail: new CorruptMediaError('The video is corrupt.') }),
      pollMs: 50,
    });
    await status(b).toBe('FAILED');
    expect((await row(b)).status_reason).toBe('The video is corrupt.');
    await w.stop();
    const c = await mk();
    w = startWorker(t.server.app, { engine: fake({ delayMs: 10_000 }), pollMs: 50 });
    await status(c).toBe('PROCESSING');
    await w.stop();
    expect((await row(c)).status).toBe('QUEUED');
    const job = await typed<{ attempts: number; state: string }>(
      t.server.app.db('jobs').where('file_id', c).first(),
    );
    expect(job.state).toBe('queued');
    expect(Number(job.attempts)).toBe(0);
    const d = c;
    w = startWorker(t.server.app, { engine: fake({ fail: new Error('boom') }), pollMs: 20 });
    await status(d).toBe('FAILED');
    await w.stop();
    // The error's own text is for the log; the owner reads the fixed sentence.
    expect((await row(d)).status_reason).toBe(FAILURE_MESSAGES.INTERNAL);
  });
});
