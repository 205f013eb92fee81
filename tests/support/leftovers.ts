/**
 * The "nothing left behind, nothing leaked" checks over a server's data folder and database.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/** Every file under `dir` (relative paths), recursively; [] when it does not exist. */
export function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) visit(full);
      else out.push(path.relative(dir, full));
    }
  };
  visit(dir);
  return out.sort();
}

export interface MediaSnapshot {
  incoming: string[];
  media: string[];
  previews: string[];
}

export function mediaSnapshot(dataDir: string): MediaSnapshot {
  return {
    incoming: walkFiles(path.join(dataDir, 'incoming')),
    media: walkFiles(path.join(dataDir, 'media')),
    previews: walkFiles(path.join(dataDir, 'previews')),
  };
}

/** Files under `dir` whose bytes contain `marker`. */
export function filesContaining(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker);
  return walkFiles(dir).filter((f) => fs.readFileSync(path.join(dir, f)).includes(needle));
}

/** Every row of every application table, as JSON text (to search for leaked content). */
export async function dumpTables(db: Knex): Promise<string> {
  const tables = [
    'users',
    'locations',
    'products',
    'sessions',
    'password_resets',
    'files',
    'jobs',
    'comparisons',
    'hornet_alerts',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    if (!(await db.schema.hasTable(table))) continue;
    parts.push(`${table}: ${JSON.stringify(await db(table).select('*'))}`);
  }
  return parts.join('\n');
}
