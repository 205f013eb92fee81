/**
 * Hive locations after registration (list, add, rename, remove) and deleting a file, over real
 * HTTP on SQLite and PostgreSQL: a rename carries the user's files along, a location in use
 * cannot be removed, and a deleted file leaves no row, job, media or preview, nor a place in the
 * list, the admin search or an export.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

interface Entry {
  id: number;
  name: string;
  files: number;
}

describe.each(DB_KINDS)('hive locations and file deletion on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('adds, renames (files follow) and refuses to remove a used location', async () => {
    const { client, id } = await signedInUser(t.server, { locations: ['Apiary North'] });
    const other = await signedInUser(t.server, { locations: ['Apiary North'] });
    await createFile(t.server, id, { original_name: 'mine.png', location: 'Apiary North' });
    await createFile(t.server, other.id, { original_name: 'theirs.png' });

    const added = await client.post('/api/locations', { name: '  Orchard Hill ' });
    expect(added.status).toBe(201);
    const orchard = added.json<{ location: Entry }>().location;
    expect(orchard).toMatchObject({ name: 'Orchard Hill', files: 0 });

    const dup = await client.post('/api/locations', { name: 'orchard hill' });
    expect(dup.status).toBe(409);
    expect(dup.json<{ message: string }>().message).toContain('already have');
    expect((await client.post('/api/locations', { name: '   ' })).status).toBe(400);

    const listed = (await client.get('/api/locations')).json<{ locations: Entry[] }>().locations;
    expect(listed.map((l) => [l.name, l.files])).toEqual([
      ['Apiary North', 1],
      ['Orchard Hill', 0],
    ]);
    const north = listed[0]!;

    const renamed = await client.request('PATCH', `/api/locations/${north.id}`, {
      json: { name: 'Apiary North Field' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json<{ location: Entry }>().location.files).toBe(1);
    const files = (await client.post('/api/get-uploaded-files-list/')).json<string[][]>();
    expect(files.map((f) => f[4])).toEqual(['Apiary North Field']);
    // The upload screen's list follows too, and another user's files keep their name.
    const forUpload = (await client.post('/api/get-locations-user/')).json<string[][]>();
    expect(forUpload).toEqual([['Apiary North Field'], ['Orchard Hill']]);
    const theirs = (await other.client.post('/api/get-uploaded-files-list/')).json<string[][]>();
    expect(theirs.map((f) => f[4])).toEqual(['Apiary North']);

    const refused = await client.request('DELETE', `/api/locations/${north.id}`);
    expect(refused.status).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      '"Apiary North Field" is the location of 1 file, so it cannot be removed. ' +
        'Rename it instead, or delete those files first.',
    );
    expect((await client.request('DELETE', `/api/locations/${orchard.id}`)).status).toBe(204);
    // Another user's location id reads as missing, for every verb.
    const theirsId = (await other.client.get('/api/locations')).json<{ locations: Entry[] }>()
      .locations[0]!.id;
    expect((await client.request('DELETE', `/api/locations/${theirsId}`)).status).toBe(404);
    expect(
      (await client.request('PATCH', `/api/locations/${theirsId}`, { json: { name: 'x' } })).status,
    ).toBe(404);
    const left = (await client.get('/api/locations')).json<{ locations: Entry[] }>().locations;
    expect(left.map((l) => l.name)).toEqual(['Apiary North Field']);
  });

  run('a user with no locations can add one and then upload to it', async () => {
    const { client } = await signedInUser(t.server, { locations: [] });
    expect((await client.get('/api/locations')).json<{ locations: Entry[] }>().locations).toEqual(
      [],
    );
    expect((await client.post('/api/locations', { name: 'First Apiary' })).status).toBe(201);
    expect((await client.post('/api/get-locations-user/')).json<string[][]>()).toEqual([
      ['First Apiary'],
    ]);
  });

  run('deletes a file with its job, media and preview; owner or admin only', async () => {
    const owner = await signedInUser(t.server);
    const stranger = await signedInUser(t.server);
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const media = Buffer.from('not really a video');
    const queued = await createFile(t.server, owner.id, {
      original_name: 'queued.mp4',
      kind: 'video',
      status: 'QUEUED',
      media,
    });
    const now = new Date().toISOString();
    await t.server.app.db('jobs').insert({ file_id: queued, created_at: now, updated_at: now });
    const previewName = `${'a'.repeat(31)}${kind === 'sqlite' ? '1' : '2'}.jpg`;
    const previewCopies = ['previews', 'honeybee-previews', 'hornet-previews'].map((dir) =>
      path.join(t.server.dataDir, dir, previewName),
    );
    for (const copy of previewCopies) {
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.writeFileSync(copy, 'jpeg');
    }
    const shown = await createFile(t.server, owner.id, {
      original_name: 'kept-then-gone.png',
      preview_name: previewName,
      media,
    });
    const row = (await t.server.app.db('files').where('id', queued).first()) as {
      stored_name: string;
    };
    const mediaPath = path.join(t.server.dataDir, 'media', row.stored_name);
    expect(fs.existsSync(mediaPath)).toBe(true);

    expect((await stranger.client.request('DELETE', `/api/files/${queued}`)).status).toBe(404);
    const gone = await owner.client.request('DELETE', `/api/files/${queued}`);
    expect(gone.status).toBe(200);
    expect(gone.json<{ message: string }>().message).toBe('File queued.mp4 was deleted.');
    expect(fs.existsSync(mediaPath)).toBe(false);
    expect(await t.server.app.db('jobs').where('file_id', queued).first()).toBeUndefined();
    expect((await owner.client.get(`/api/files/${queued}`)).status).toBe(404);
    // Exports that name it find nothing to export.
    expect((await owner.client.get(`/api/files/summary.csv?ids=${queued}`)).status).toBe(404);

    const byAdmin = await admin.client.request('DELETE', `/api/files/${shown}`);
    expect(byAdmin.status).toBe(200);
    for (const copy of previewCopies) expect(fs.existsSync(copy), copy).toBe(false);
    const list = (await owner.client.post('/api/get-uploaded-files-list/')).json<string[][]>();
    expect(list).toEqual([]);
    const search = await admin.client.post('/api/search-results-files', {
      start_date: '2000-01-01',
      end_date: '2100-01-01',
      file_description: '',
      location: '',
    });
    expect(search.json<string[][]>().map((r) => r[0])).not.toContain('kept-then-gone.png');
    expect((await owner.client.request('DELETE', `/api/files/${shown}`)).status).toBe(404);
  });
});
