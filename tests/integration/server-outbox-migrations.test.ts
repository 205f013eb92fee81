// Without SMTP_URL, mail goes to DATA_DIR/outbox as .eml; migrations go up, down and up again.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateLatest, migrateRollback } from '../../server/db.ts';
import { migrationSource } from '../../migrations/index.ts';
import { DB_KINDS, dbAvailable, signUp, useTestServer } from '../support/server.ts';

const TABLES = [
  'users',
  'sessions',
  'locations',
  'products',
  'password_resets',
  'files',
  'jobs',
  'comparisons',
  'hornet_alerts',
];

describe.each(DB_KINDS)('outbox and migrations on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind, { env: { PUBLIC_URL: 'http://hives.local:8000' } });

    it('writes the reset e-mail to DATA_DIR/outbox when no SMTP_URL is set', async () => {
      const email = await signUp(t.client());
      const res = await t.client().post('/api/forgot-password', { email_address: email });
      expect(res.json()).toEqual({ message: 'SUCCESS' });
      const outbox = path.join(t.server.dataDir, 'outbox');
      const files = fs.readdirSync(outbox).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(path.join(outbox, files[0]!), 'utf8').replace(/=\r?\n/g, '');
      expect(eml).toContain(`To: ${email}`);
      expect(eml).toMatch(/http:\/\/hives\.local:8000\/reset-password\?token=/);
    });

    it('has the whole agreed schema, and rolls back and forward cleanly', async () => {
      const db = t.server.app.db;
      for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(true);
      expect(await db.schema.hasColumn('files', 'frames_json')).toBe(true);
      expect(await db.schema.hasColumn('jobs', 'lease_until')).toBe(true);
      if (kind === 'postgres') {
        // 0007's trigram indexes, moved onto the lowercase copies (0023), in this run's schema.
        const { rows } = await db.raw<{ rows: Array<{ indexname: string }> }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%trgm%' ORDER BY 1",
        );
        expect(rows.map((r) => r.indexname)).toEqual([
          'files_description_lower_trgm_index',
          'files_location_lower_trgm_index',
        ]);
      }
      expect(await migrateLatest(db)).toEqual([]);
      const all = (await migrationSource.getMigrations([])).length;
      expect(all).toBeGreaterThanOrEqual(6);
      const down = await migrateRollback(db, true);
      expect(down).toHaveLength(all);
      for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(false);
      expect(await migrateLatest(db)).toHaveLength(all);
      for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(true);
    });
  });
});
