// Issue 44: server internals (paths, ENOENT, stacks) never reach users; operators get the whole
// error in the log. A real server whose model card is missing answers uploads with a fixed 503
// sentence, and the real worker fails a video whose media vanished with a fixed reason.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../server/logger.ts';
import { enqueueJob } from '../../server/queue/jobs-repository.ts';
import { typed } from '../../server/db.ts';
import type { FileRow } from '../../server/files/file-row.ts';
import { FAILURE_MESSAGES } from '../../server/user-messages.ts';
import * as failureReasons from '../../migrations/20261128_0013_files_failure_reasons.ts';
import { engineAvailable } from '../support/engine.ts';
import { createFile, signedInUser, uploadFile } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, startTestServer } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (msg: string, fields?: Record<string, unknown>) =>
    lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  return { lines, info: () => {}, warn: log, error: log };
}

const ENGINE = await engineAvailable();
if (!ENGINE.ok)
  console.warn(`[server-internals] engine unavailable (${ENGINE.why}): worker test skipped`);

describe.each(DB_KINDS)('internals stay in the log on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('a missing model card', () => {
    const logger = capturingLogger();
    let server: TestServer;
    let card: string;
    beforeAll(async () => {
      card = path.join(fs.mkdtempSync('/tmp/hs-no-model-'), 'missing', 'model.card.json');
      server = await startTestServer(kind, {
        logger,
        env: { HIVESIGHT_MODEL: card, ANALYSIS_THREAD: 'false' },
      });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('answers an upload with a fixed 503 sentence and logs the path', async () => {
      const { client } = await signedInUser(server);
      const res = await uploadFile(client, {
        name: 'hive.png',
        data: Buffer.from('not really a picture'),
      });
      expect(res.status).toBe(503);
      const body = res.json<{ error: { code: string }; message: string }>();
      expect(body.error.code).toBe('MODEL_INVALID');
      expect(body.message).toBe(FAILURE_MESSAGES.MODEL_INVALID);
      expect(res.text).not.toContain(card);
      expect(res.text).not.toMatch(/ENOENT|\/tmp\//);
      expect(logger.lines.join('\n')).toContain(card);
    });

    it('migration 0013 rewrites reasons stored with server paths', async () => {
      const { client, id } = await signedInUser(server);
      const leaked =
        "Analysis failed: ENOENT: no such file or directory, open '/srv/hs/media/x.mp4'";
      const fileId = await createFile(server, id, {
        kind: 'video',
        status: 'FAILED',
        status_reason: leaked,
        counts: null,
        frames: null,
      });
      const kept = await createFile(server, id, {
        status: 'FAILED',
        status_reason: 'The file is damaged and could not be decoded.',
        counts: null,
        frames: null,
      });
      await failureReasons.up(server.app.db);
      const detail = await client.get(`/api/files/${fileId}`);
      expect(detail.status).toBe(200);
      expect(detail.text).not.toContain('/srv/');
      expect(detail.json<{ status_reason: string }>().status_reason).toBe(
        FAILURE_MESSAGES.INTERNAL,
      );
      const other = await client.get(`/api/files/${kept}`);
      expect(other.json<{ status_reason: string }>().status_reason).toBe(
        'The file is damaged and could not be decoded.',
      );
    });
  });
});

describe.skipIf(!ENGINE.ok)('the worker on sqlite', () => {
  const logger = capturingLogger();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      worker: true,
      logger,
      env: { ANALYSIS_THREAD: 'false' },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('fails a video whose media vanished with a fixed reason; the log has the path', async () => {
    const { id } = await signedInUser(server);
    const fileId = await createFile(server, id, {
      original_name: 'clip.mp4',
      kind: 'video',
      format: 'mp4',
      status: 'QUEUED',
      counts: null,
      frames: null,
    });
    await enqueueJob(server.app.db, { fileId, priority: 0, maxAttempts: 1, now: new Date() });
    const deadline = Date.now() + 60_000;
    let row: FileRow | undefined;
    while (Date.now() < deadline) {
      row = await typed<FileRow>(server.app.db('files').where('id', fileId).first());
      if (row.status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row?.status).toBe('FAILED');
    const reason = row?.status_reason ?? '';
    expect(Object.values(FAILURE_MESSAGES)).toContain(reason);
    expect(reason).not.toMatch(/ENOENT|\/|Analysis failed:/);
    expect(logger.lines.join('\n')).toContain(path.join(server.dataDir, 'media'));
  });
});
