/**
 * Issue 54 item 7 over real HTTP on SQLite and PostgreSQL: every name the product stores (user
 * names and hive locations at registration, locations created and renamed, upload file names
 * and descriptions) goes through one text rule (server/text.ts): bidi controls and zero-width
 * characters out, control characters and line breaks to one space, lone surrogates to U+FFFD,
 * trimmed; a name left empty is a 400 naming its field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { typed } from '../../server/db.ts';
import { engineAvailable } from '../support/engine.ts';
import { signedInUser } from '../support/factories/index.ts';
import {
  DB_KINDS,
  dbAvailable,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';
import type { TestClient, TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[stored-names] engine unavailable (${ENGINE.why}): uploads skipped`);

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const BOUNDARY = 'storedNamesBoundary54';

/** A multipart upload whose file name is sent as RFC 5987 `filename*`, so CR and LF arrive. */
function uploadBody(
  fields: Record<string, string>,
  fileName: string,
  data: Buffer,
): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file_data"; ` +
        `filename*=UTF-8''${encodeURIComponent(fileName)}\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  return new Uint8Array(Buffer.concat(parts));
}

function upload(client: TestClient, fields: Record<string, string>, name: string, data: Buffer) {
  return client.request('POST', '/api/upload_docs/', {
    body: uploadBody(fields, name, data),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

const locationNames = async (client: TestClient) =>
  (await client.get('/api/locations'))
    .json<{ locations: Array<{ name: string }> }>()
    .locations.map((l) => l.name);

async function storedUser(server: TestServer, email: string) {
  return typed<{ id: number; name: string }>(
    server.app.db('users').where('email', email).first('id', 'name'),
  );
}

describe.each(DB_KINDS)('stored names on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('location names lose invisible characters on create and rename', async () => {
    const { client } = await signedInUser(t.server, { locations: [] });
    const created = await client.post('/api/locations', {
      name: ' Hive\u202E1\u200B\r\nnorth\uFEFF ',
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json<{ location: { id: number; name: string } }>().location;
    expect(created.json<{ location: { name: string } }>().location.name).toBe('Hive1 north');
    // A zero-width space no longer makes a second "Hive1 north".
    const twin = await client.post('/api/locations', { name: 'Hive1\u200B north' });
    expect(twin.status).toBe(409);

    // JSON carries a lone surrogate ("\ud800"); it is stored as U+FFFD.
    const renamed = await client.request('PATCH', `/api/locations/${id}`, {
      json: { name: 'South\uD800\t\u2066hive\u2069' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await locationNames(client)).toEqual(['South\uFFFD hive']);

    for (const name of ['\u200B\u202E', ' \r\n\t ', '\u2066\u2069\uFEFF']) {
      for (const res of [
        await client.post('/api/locations', { name }),
        await client.request('PATCH', `/api/locations/${id}`, { json: { name } }),
      ]) {
        expect(res.status, JSON.stringify(name)).toBe(400);
        expect(res.json<ErrorBody>().error.fields?.name).toBe(
          'Enter a name for the hive location.',
        );
      }
    }
    expect(await locationNames(client)).toEqual(['South\uFFFD hive']);
  });

  run('registration cleans the user name and the hive locations', async () => {
    const client = t.server.client();
    const email = uniqueEmail('names');
    const register = (name: string) =>
      client.post('/api/register-user/', {
        name,
        email,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        locations: ['North\u200B hive', '\u202E\u200B', 'Orchard\r\nrow'],
      });
    const empty = await register('\u200B\u202E\r\n');
    expect(empty.status).toBe(400);
    expect(empty.json<ErrorBody>().error.fields?.name).toBe('Name is required');
    const res = await register('Eve\u202Enimda\u200D\r\nSmith');
    expect(res.status, res.text).toBe(201);
    const user = await storedUser(t.server, email);
    expect(user.name).toBe('Evenimda Smith');
    const stored = await typed<Array<{ name: string }>>(
      t.server.app.db('locations').where('user_id', user.id).orderBy('position').select('name'),
    );
    expect(stored.map((l) => l.name)).toEqual(['North hive', 'Orchard row']);
  });

  it.skipIf(!dbAvailable(kind) || !ENGINE.ok)(
    'uploads: the file name and description are cleaned; a name of invisible characters is a 400',
    async () => {
      const dir = fs.mkdtempSync(path.join(t.server.dataDir, 'png-'));
      const png = path.join(dir, 'a.png');
      await execa('ffmpeg', [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'color=c=olive:size=160x120',
        '-frames:v',
        '1',
        png,
      ]);
      const data = fs.readFileSync(png);
      const owner = await signedInUser(t.server, { locations: ['Apiary North'] });
      const fields = {
        file_description: 'Morning\r\nentrance\u200B\u202E',
        // The chosen location, sent with a zero-width space, is the stored one.
        location: 'Apiary\u200B North',
      };
      const res = await upload(owner.client, fields, 'report\u202Egpj.exe\r\n.png', data);
      expect(res.status, res.text).toBe(201);
      const record = res.json<{ file: { id: number; record: string[] } }>().file;
      expect(record.record[0]).toBe('reportgpj.exe .png');
      const row = await typed<{ original_name: string; description: string; location: string }>(
        t.server.app
          .db('files')
          .where('id', record.id)
          .first('original_name', 'description', 'location'),
      );
      expect(row).toEqual({
        original_name: 'reportgpj.exe .png',
        description: 'Morning entrance',
        location: 'Apiary North',
      });
      // What an administrator's search shows.
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const found = await admin.post('/api/search-results-files', {
        start_date: '2000-01-01',
        end_date: '2100-01-01',
        location: 'Apiary North',
      });
      expect(found.json<string[][]>().map((r) => r[0])).toContain('reportgpj.exe .png');

      const before = fs.readdirSync(path.join(t.server.dataDir, 'incoming'));
      const invisible = await upload(owner.client, fields, '\u200B\u202E\r\n', data);
      expect(invisible.status).toBe(400);
      expect(invisible.json<ErrorBody>().error.fields?.file_data).toMatch(/no visible characters/);
      const blank = await upload(
        owner.client,
        { ...fields, file_description: '\u200B\r\n' },
        'a.png',
        data,
      );
      expect(blank.json<ErrorBody>().error.fields?.file_description).toBe(
        'Enter a brief description of the file.',
      );
      expect(fs.readdirSync(path.join(t.server.dataDir, 'incoming'))).toEqual(before);
    },
  );
});
