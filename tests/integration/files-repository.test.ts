/**
 * The files repository against real SQLite and PostgreSQL: each status transition writes
 * status_time and reason as the queue relies on, finished files never go backwards, and the
 * retention reads and writes.
 */
import { describe, expect, it } from 'vitest';
import { filesRepository } from '../../server/files/files-repository.ts';
import type { FileStatus } from '../../server/files/file-row.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const T0 = new Date('2026-01-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(DB_KINDS)('files repository on %s', (kind) => {
  const t = useTestServer(kind);
  const repo = () => filesRepository(t.server.app.db);

  async function video(status: FileStatus, extra: Record<string, unknown> = {}): Promise<number> {
    const { id } = await signedInUser(t.server);
    return createFile(t.server, id, {
      kind: 'video',
      status,
      counts: null,
      frames: null,
      ...extra,
    });
  }

  it.skipIf(!dbAvailable(kind))('inserts and finds rows with numeric ids', async () => {
    const fileId = await video('QUEUED');
    const row = await repo().find(fileId);
    expect(row).toMatchObject({ id: fileId, status: 'QUEUED', kind: 'video' });
    expect(typeof row?.user_id).toBe('number');
    expect(typeof row?.size_bytes).toBe('number');
    expect(await repo().find(fileId + 100_000)).toBeUndefined();

    const copy = { ...row } as Record<string, unknown>;
    delete copy.id;
    const again = await repo().insert({ ...copy, stored_name: `copy-${fileId}.mp4` });
    expect(again).toBeGreaterThan(fileId);
    expect((await repo().find(again))?.stored_name).toBe(`copy-${fileId}.mp4`);
  });

  it.skipIf(!dbAvailable(kind))('moves a file through the queue states', async () => {
    const fileId = await video('QUEUED', { status_reason: 'stale' });
    await repo().markProcessing(fileId, at(1000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'PROCESSING',
      status_reason: null,
      status_time: at(1000).toISOString(),
    });

    await repo().markHandedBack(fileId, at(2000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'QUEUED',
      status_time: at(2000).toISOString(),
    });

    await repo().markProcessing(fileId, at(3000));
    await repo().markFailed(fileId, 'The video is damaged.', at(4000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'FAILED',
      status_reason: 'The video is damaged.',
      status_time: at(4000).toISOString(),
    });
    // FAILED is finished: a late claim does not take it back to PROCESSING, nor a hand-back.
    await repo().markProcessing(fileId, at(5000));
    await repo().markHandedBack(fileId, at(5000));
    expect((await repo().find(fileId))?.status).toBe('FAILED');

    await repo().markRetrying(fileId, at(6000));
    expect(await repo().find(fileId)).toMatchObject({ status: 'QUEUED', status_reason: null });

    await repo().markProcessed(fileId, { description: 'counted' }, at(7000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'PROCESSED',
      status_reason: null,
      description: 'counted',
      status_time: at(7000).toISOString(),
      processed_at: at(7000).toISOString(),
    });
    // PROCESSED stays: neither a failure nor a retry recorded late undoes the results.
    await repo().markFailed(fileId, 'late', at(8000));
    await repo().markRetrying(fileId, at(8000));
    await repo().markProcessing(fileId, at(8000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'PROCESSED',
      status_time: at(7000).toISOString(),
    });
  });

  it.skipIf(!dbAvailable(kind))('finds media due for deletion and marks it once', async () => {
    const old = T0.toISOString();
    const due = await video('PROCESSED', { status_time: old });
    const failed = await video('FAILED', { status_time: old });
    const recent = await video('PROCESSED', { status_time: at(10_000).toISOString() });
    const queued = await video('QUEUED', { status_time: old });
    const { id: owner } = await signedInUser(t.server);
    const picture = await createFile(t.server, owner, { kind: 'image', status_time: old });

    const found = (await repo().mediaDueForDeletion(at(5000))).map((r) => r.id);
    expect(found).toEqual(expect.arrayContaining([due, failed]));
    for (const id of [recent, queued, picture]) expect(found).not.toContain(id);

    expect(await repo().markMediaDeleted(due, at(6000))).toBe(1);
    expect(await repo().markMediaDeleted(due, at(7000))).toBe(0);
    expect((await repo().find(due))?.media_deleted_at).toBe(at(6000).toISOString());
    expect((await repo().mediaDueForDeletion(at(5000))).map((r) => r.id)).not.toContain(due);
  });

  it.skipIf(!dbAvailable(kind))('requeues a finished file to be counted again', async () => {
    const fileId = await video('PROCESSED', { status_reason: 'old' });
    await repo().markRequeued(fileId, at(9000));
    expect(await repo().find(fileId)).toMatchObject({
      status: 'QUEUED',
      status_reason: null,
      status_time: at(9000).toISOString(),
    });
  });

  it.skipIf(!dbAvailable(kind))('renames, counts and deletes by location', async () => {
    const { id: owner } = await signedInUser(t.server);
    const a = await createFile(t.server, owner, { location: 'Apiary North' });
    await createFile(t.server, owner, { location: 'Apiary North' });
    await createFile(t.server, owner, { location: 'Warehouse 4' });
    expect(await repo().countAtLocation(owner, 'Apiary North')).toBe(2);
    expect(await repo().renameLocation(owner, 'Apiary North', 'Apiary South')).toBe(2);
    expect(await repo().countAtLocation(owner, 'Apiary North')).toBe(0);
    expect(await repo().countAtLocation(owner, 'Apiary South')).toBe(2);
    await repo().delete(a);
    expect(await repo().find(a)).toBeUndefined();
    expect(await repo().countAtLocation(owner, 'Apiary South')).toBe(1);
  });

  it.skipIf(!dbAvailable(kind))('says which stored names rows still use', async () => {
    const fileId = await video('PROCESSED');
    const row = await repo().find(fileId);
    const used = await repo().namesInUse('stored_name', [row?.stored_name ?? '', 'gone.mp4']);
    expect([...used]).toEqual([row?.stored_name]);
    expect((await repo().namesInUse('preview_name', ['nothing.jpg'])).size).toBe(0);
  });
});
