/**
 * Hornet alerts on SQLite and PostgreSQL with stored results (no engine needed): only a hornet
 * track that persists above the alert score, only for Researchers who have not turned alerts
 * off, once per file, and at most once per location per hour (a ManualClock moves the hour).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../../server/mailer.ts';
import { ManualClock } from '../../server/clock.ts';
import { alertHornets, hornetSighting } from '../../server/queue/alerts.ts';
import type { TestServer } from './server-helpers.ts';
import { DB_KINDS, dbAvailable, grant, startTestServer } from './server-helpers.ts';
import { counts, insertFile, userWithLocations } from './files-helpers.ts';

const HOUR = 60 * 60 * 1000;

function captureMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    send: (m) => {
      sent.push(m);
      return Promise.resolve();
    },
    close: () => {},
  };
}

/** Hits at 0.2 s steps from `startS`, each with the given score. */
const track = (startS: number, scores: number[]) => ({
  hits: scores.map((score, i) => ({ timeS: startS + i * 0.2, score })),
});

describe('hornetSighting', () => {
  it('needs one track on 3 sampled frames at the alert score', () => {
    expect(hornetSighting([track(1, [0.9, 0.9])])).toBeNull();
    expect(hornetSighting([track(1, [0.9, 0.45, 0.9, 0.3])])).toBeNull();
    // Three tracks of one frame each are not one hornet that stays.
    expect(hornetSighting([track(1, [0.9]), track(2, [0.9]), track(3, [0.9])])).toBeNull();
    expect(hornetSighting([track(5, [0.2, 0.6, 0.7, 0.8]), track(12, [0.9, 0.9, 0.9])])).toEqual({
      timeS: 5.2,
      frames: 3,
      bestScore: 0.8,
    });
  });
});

describe.each(DB_KINDS)('hornet alerts on %s', (kind) => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const mailer = captureMailer();
  let server: TestServer;
  beforeAll(async () => {
    if (dbAvailable(kind)) server = await startTestServer(kind, { clock, mailer });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const clip = (userId: number, hornetTracks: unknown[], location = 'Apiary North') =>
    insertFile(server, userId, {
      kind: 'video',
      original_name: 'entrance.mp4',
      location,
      counts: counts({ bee: 5, hornet: hornetTracks.length }),
      summary_json: JSON.stringify({ beeCoveragePct: 1, hornetTracks }),
    });

  it.skipIf(!dbAvailable(kind))(
    'alerts a Researcher on a hornet that stays, naming the time; nobody else',
    async () => {
      const researcher = await userWithLocations(server);
      await grant(server, researcher.email, 'Researcher', '2999-12-31');
      const free = await userWithLocations(server);
      mailer.sent.length = 0;
      const brief = await clip(researcher.id, [track(1, [0.9, 0.9])]);
      expect(await alertHornets(server.app, brief)).toBe(false);
      const freeSeen = await clip(free.id, [track(1, [0.9, 0.9, 0.9])]);
      expect(await alertHornets(server.app, freeSeen)).toBe(false);
      const seen = await clip(researcher.id, [track(65, [0.9, 0.8, 0.7])]);
      expect(await alertHornets(server.app, seen)).toBe(true);
      expect(await alertHornets(server.app, seen)).toBe(false);
      expect(mailer.sent).toHaveLength(1);
      const mail = mailer.sent[0]!;
      expect(mail.to).toBe(researcher.email);
      expect(mail.subject).toBe('Hornet alert: a hornet at Apiary North, 1:05 into entrance.mp4');
      expect(mail.text).toContain(`/api/files/${seen}/preview.jpg`);
      expect(mail.text).toContain('on 3 sampled frames (best score 0.90)');
    },
  );

  it.skipIf(!dbAvailable(kind))('sends at most one alert per location per hour', async () => {
    const researcher = await userWithLocations(server);
    await grant(server, researcher.email, 'Researcher', '2999-12-31');
    mailer.sent.length = 0;
    const hornet = [track(0, [0.9, 0.9, 0.9])];
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(true);
    clock.advance(30 * 60 * 1000);
    // Same location within the hour: no second e-mail; another location: one.
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(false);
    expect(await alertHornets(server.app, await clip(researcher.id, hornet, 'Warehouse 4'))).toBe(
      true,
    );
    clock.advance(HOUR);
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(true);
    expect(mailer.sent.map((m) => m.subject)).toEqual([
      'Hornet alert: a hornet at Apiary North, 0:00 into entrance.mp4',
      'Hornet alert: a hornet at Warehouse 4, 0:00 into entrance.mp4',
      'Hornet alert: a hornet at Apiary North, 0:00 into entrance.mp4',
    ]);
  });

  it.skipIf(!dbAvailable(kind))('sends none to a user who turned alerts off', async () => {
    const researcher = await userWithLocations(server);
    await grant(server, researcher.email, 'Researcher', '2999-12-31');
    const settings = async () =>
      (await researcher.client.get('/api/account/settings')).json<{ hornet_alerts: boolean }>();
    expect(await settings()).toEqual({ hornet_alerts: true });
    const off = await researcher.client.post('/api/account/settings', { hornet_alerts: false });
    expect(off.status).toBe(200);
    expect(await settings()).toEqual({ hornet_alerts: false });
    expect(
      (await researcher.client.post('/api/account/settings', { hornet_alerts: 'no' })).status,
    ).toBe(400);
    mailer.sent.length = 0;
    clock.advance(2 * HOUR);
    const seen = await clip(researcher.id, [track(0, [0.9, 0.9, 0.9])]);
    expect(await alertHornets(server.app, seen)).toBe(false);
    expect(mailer.sent).toHaveLength(0);
  });
});
