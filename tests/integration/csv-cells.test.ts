/**
 * Issue 54 item 2 over real HTTP on SQLite and PostgreSQL: every CSV route (the file's summary,
 * the batch summary, as owner and as admin, the location's history, the admin users export)
 * writes a text cell that starts like a spreadsheet formula (= + - @, tab, CR) with an
 * apostrophe in front, and keeps number cells, negative ones included, as numbers. The rows are
 * written straight to the database, as data stored before names were cleaned would be.
 */
import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../../server/files/file-row.ts';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

const STARTS = ['=', '+', '-', '@', '\t', '\r'];
const PAYLOAD = "2+5*cmd|' -c calc'!A0.jpg";

/** RFC 4180 rows: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else {
      cell += ch;
    }
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The CSV as objects keyed by its header. */
async function csvRecords(client: TestClient, url: string): Promise<Array<Record<string, string>>> {
  const res = await client.get(url);
  expect(res.status, `${url}: ${res.text}`).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  const [header, ...rows] = parseCsv(res.text);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

function videoSummary(): StoredSummary {
  return {
    durationS: 60,
    width: 640,
    height: 480,
    framesAnalysed: 300,
    sampleFps: 5,
    beeCoveragePct: 3,
    model: { name: 'hivesight-detector', version: '0.11.2', classes: ['bee', 'pollen', 'drone'] },
    timing: { decodeMs: 1, inferenceMs: 1, trackingMs: 1, totalMs: 3 },
    analysedAt: '2026-06-01T10:20:00.000Z',
    traffic: {
      entrance: {
        kind: 'line',
        points: [
          [0, 0.5],
          [1, 0.5],
        ],
      },
      // More out than in: a negative net flow, which must stay a number.
      beesIn: 1,
      beesOut: 3,
      netFlow: -2,
      loops: 0,
      inPerMinute: 1,
      outPerMinute: 3,
      byClass: { bee: { in: 1, out: 3, loops: 0 } },
      events: [],
    },
  };
}

describe.each(DB_KINDS)('CSV cells on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('every CSV route escapes text cells that start like a formula', async () => {
    const owner = await signedInUser(t.server, { locations: ['Warehouse 4'] });
    const names = STARTS.map((s) => `${s}${PAYLOAD}`);
    const ids: number[] = [];
    for (const name of names) {
      ids.push(
        await createFile(t.server, owner.id, {
          original_name: name,
          description: `${name} description`,
          location: 'Warehouse 4',
          kind: 'video',
          format: 'mp4',
          counts: counts({ bee: 4 }),
          frames: frames([1, 2], { bee: 2 }),
          summary_json: JSON.stringify(videoSummary()),
        }),
      );
    }
    const escaped = names.map((n) => `'${n}`);

    // One file's summary.
    for (const [i, id] of ids.entries()) {
      const [row] = await csvRecords(owner.client, `/api/files/${id}/summary.csv`);
      expect(row!.file, JSON.stringify(names[i])).toBe(escaped[i]);
      expect(row!.bees_in).toBe('1');
    }
    // The batch summary, by its owner and by an administrator.
    const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
    for (const client of [owner.client, admin]) {
      const rows = await csvRecords(client, `/api/files/summary.csv?ids=${ids.join(',')}`);
      expect(rows.map((r) => r.file)).toEqual(escaped);
    }
    // The location's history: names escaped, the negative net flow a number.
    const loc = (await owner.client.get('/api/locations')).json<{
      locations: Array<{ id: number; name: string }>;
    }>().locations[0]!.id;
    for (const client of [owner.client, admin]) {
      const history = await csvRecords(client, `/api/locations/${loc}/history.csv`);
      expect(history.map((r) => r.file).sort()).toEqual([...escaped].sort());
      expect(history.map((r) => r.net_flow)).toEqual(names.map(() => '-2'));
    }

    // The users export: names (and an e-mail address) of every start.
    const users = await Promise.all(names.map(() => signedInUser(t.server)));
    for (const [i, u] of users.entries())
      await t.server.app.db('users').where('id', u.id).update({ name: names[i] });
    const dashEmail = `-${users[0]!.email}`;
    await t.server.app.db('users').where('id', users[0]!.id).update({ email: dashEmail });
    expect((await admin.post('/api/get-all-users')).status).toBe(200);
    const exported = await csvRecords(admin, '/api/download-csv?file_name=all_users.csv');
    const byEmail = new Map(exported.map((r) => [r.email, r]));
    expect(byEmail.get(`'${dashEmail}`)?.name).toBe(escaped[0]);
    for (const [i, u] of users.entries())
      if (i > 0) expect(byEmail.get(u.email)?.name, JSON.stringify(names[i])).toBe(escaped[i]);
    expect(byEmail.get(owner.email)?.lookalike_email).toBe('false');
  });
});
