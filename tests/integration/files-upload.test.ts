/**
 * POST /api/upload_docs/ over real HTTP on SQLite and PostgreSQL: field validation with the
 * spec's messages, the plan's size limit enforced while streaming, content checks by the real
 * engine (415 / 422), and pictures analysed in the request. Whatever is refused leaves nothing
 * behind in DATA_DIR/incoming, DATA_DIR/media or the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { typed } from '../../server/db.ts';
import { engineAvailable } from '../support/engine.ts';
import { grantProduct, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient, TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok)
  console.warn(`[files-upload] engine unavailable (${ENGINE.why}): engine tests skipped`);
const FFMPEG = fs.existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null;

const MB = 1024 * 1024;

interface UploadAnswer {
  message: string;
  error?: { fields?: Record<string, string> };
  file?: {
    status: string;
    kind: string;
    counts: Record<string, number | null> | null;
    record: string[];
  };
}

export async function upload(
  client: TestClient,
  fields: Record<string, string | string[]>,
  file?: { name: string; data: Buffer | Uint8Array; field?: string },
  extraFile?: { name: string; data: Buffer },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) form.append(k, item);
  if (file)
    form.append(file.field ?? 'file_data', new Blob([new Uint8Array(file.data)]), file.name);
  if (extraFile)
    form.append('file_data', new Blob([new Uint8Array(extraFile.data)]), extraFile.name);
  return client.request('POST', '/api/upload_docs/', { body: form });
}

export function leftovers(server: TestServer): string[] {
  return ['incoming', 'media', 'previews'].flatMap((d) => {
    const dir = path.join(server.dataDir, d);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => `${d}/${f}`) : [];
  });
}

async function makeMedia(kind: 'png' | 'jpg' | 'mp4'): Promise<Buffer> {
  if (!FFMPEG) throw new Error('ffmpeg missing');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-media-'));
  const out = path.join(dir, `m.${kind}`);
  const src = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10'];
  const args =
    kind === 'mp4'
      ? [...src, '-t', '2', '-pix_fmt', 'yuv420p', out]
      : [...src, '-frames:v', '1', out];
  await execa(FFMPEG, ['-y', '-loglevel', 'error', ...args]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

describe.each(DB_KINDS)('upload on %s', (kind) => {
  const t = useTestServer(kind);
  const fields = {
    file_description: 'Entrance, morning',
    location: 'Apiary North',
    email_address: 'x@y.z',
  };
  const fileCount = async () =>
    Number(
      (await typed<Array<{ n: number | string }>>(t.server.app.db('files').count({ n: '*' })))[0]
        ?.n,
    );

  it.skipIf(!dbAvailable(kind))(
    'refuses missing fields with the spec\u2019s messages',
    async () => {
      const { client } = await signedInUser(t.server);
      const res = await upload(client, { file_description: '   ', location: '' });
      expect(res.status).toBe(400);
      expect(res.json<UploadAnswer>().error?.fields).toEqual({
        file_data: 'Select a file to continue.',
        file_description: 'Enter a brief description of the file.',
        location: 'Select a location for this upload.',
      });
      const wrongLocation = await upload(
        client,
        { ...fields, location: 'Somebody Else\u2019s Apiary' },
        { name: 'a.png', data: Buffer.from('x') },
      );
      expect(wrongLocation.status).toBe(400);
      expect(wrongLocation.json<UploadAnswer>().error?.fields).toEqual({
        location: 'Select a location for this upload.',
      });
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'refuses duplicated and extra fields and a second file',
    async () => {
      const { client } = await signedInUser(t.server);
      const file = { name: 'a.png', data: Buffer.from('x') };
      expect(
        (await upload(client, { ...fields, location: ['Apiary North', 'Warehouse 4'] }, file))
          .status,
      ).toBe(400);
      expect((await upload(client, { ...fields, user_id: '1' }, file)).status).toBe(400);
      expect(
        (await upload(client, fields, file, { name: 'b.png', data: Buffer.from('y') })).status,
      ).toBe(400);
      expect((await upload(client, fields, { ...file, field: 'other' })).status).toBe(400);
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'enforces the plan\u2019s size limit while streaming (413, nothing kept)',
    async () => {
      const { client, email } = await signedInUser(t.server);
      const big = Buffer.alloc(10 * MB + 200 * 1024, 1);
      const res = await upload(client, fields, { name: 'big.mp4', data: big });
      expect(res.status).toBe(413);
      expect(res.json<UploadAnswer>().message).toBe(
        'This file exceeds the 10 MB limit and cannot be processed. Please select a file smaller than 10 MB.',
      );
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
      // Premium raises the limit to 20 MB: the same file passes the size check (and fails on content).
      await grantProduct(t.server, email, 'Bees Premium Subscription', '2999-12-31');
      const again = await upload(client, fields, { name: 'big.mp4', data: big });
      expect(again.status).not.toBe(413);
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'stops a chunked upload of undeclared length at the limit',
    async () => {
      const { client } = await signedInUser(t.server);
      const boundary = 'hsboundary123';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file_description"\r\n\r\nx\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="location"\r\n\r\nApiary North\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file_data"; filename="big.mp4"\r\n` +
          'Content-Type: video/mp4\r\n\r\n',
      );
      const chunk = Buffer.alloc(256 * 1024, 7);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new Uint8Array(head));
          if (sent < 48) {
            controller.enqueue(new Uint8Array(chunk)); // 48 x 256 KB = 12 MB
            sent += 1;
          } else {
            controller.enqueue(new Uint8Array(Buffer.from(`\r\n--${boundary}--\r\n`)));
            controller.close();
          }
        },
      });
      const res = await fetch(`${t.server.url}/api/upload_docs/`, {
        method: 'POST',
        headers: {
          cookie: client.cookieHeader,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      await res.text();
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
    },
  );

  it.skipIf(!dbAvailable(kind))('answers 401 when signed out', async () => {
    const res = await upload(t.server.client(), fields, { name: 'a.png', data: Buffer.from('x') });
    expect(res.status).toBe(401);
    expect(leftovers(t.server)).toEqual([]);
  });

  describe.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)('with the real engine', () => {
    it('refuses a text file named .jpg with 415 and a truncated video with 422', async () => {
      const { client } = await signedInUser(t.server);
      const text = await upload(client, fields, {
        name: 'notes.jpg',
        data: Buffer.from('hello, I am text\n'.repeat(50)),
      });
      expect(text.status).toBe(415);
      const mp4 = await makeMedia('mp4');
      const broken = await upload(client, fields, {
        name: 'broken.mp4',
        data: mp4.subarray(0, 200),
      });
      expect([415, 422]).toContain(broken.status);
      expect(leftovers(t.server)).toEqual([]);
      expect(await fileCount()).toBe(0);
    });

    it('analyses a picture in the request and answers it PROCESSED with counts', async () => {
      const { client } = await signedInUser(t.server);
      const png = await makeMedia('png');
      const res = await upload(client, fields, { name: 'entrance.png', data: png });
      expect(res.status).toBe(201);
      const body = res.json<UploadAnswer>();
      expect(body.message).toBe('File uploaded');
      expect(body.file?.status).toBe('PROCESSED');
      expect(body.file?.kind).toBe('image');
      expect(typeof body.file?.counts?.bee).toBe('number');
      expect(body.file?.counts?.hornet).toBeNull(); // not a Researcher
      expect(body.file?.record[0]).toBe('entrance.png');
      const media = leftovers(t.server).filter((f) => f.startsWith('media/'));
      expect(media).toHaveLength(1);
      expect(media[0]).toMatch(/^media\/[0-9a-f]{32}\.png$/);
      const csv = await client.get(body.file?.record[3] ?? '');
      expect(csv.status).toBe(200);
      expect(csv.text.split('\n')[0]).toBe('frame,time_s,bees,pollen_bees,drones,bee_coverage_pct');
    });

    it('queues a video and shows research columns to a Researcher', async () => {
      const { client, email } = await signedInUser(t.server);
      await grantProduct(t.server, email, 'Researcher', '2999-12-31');
      const mp4 = await makeMedia('mp4');
      const res = await upload(client, fields, { name: 'clip.mp4', data: mp4 });
      expect(res.status).toBe(201);
      const body = res.json<UploadAnswer>();
      expect(body.file?.status).toBe('QUEUED');
      const job = (await t.server.app.db('jobs').first()) as { priority: number; state: string };
      expect(job.priority).toBe(2);
      expect(job.state).toBe('queued');
      const report = await client.get(body.file?.record[3] ?? '');
      expect(report.status).toBe(409);
    });
  });
});
