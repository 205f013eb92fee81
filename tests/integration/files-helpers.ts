/**
 * Helpers for the files / queue / groups integration tests: signed-in users with hive
 * locations, file rows inserted straight into the database with known results, and a probe for
 * whether the real engine (model + ffmpeg) can run here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ClassCounts } from '../../engine/vocabulary.ts';
import type { FileRow, StoredFrame } from '../../server/files/file-row.ts';
import type { Role } from '../../server/auth/sessions.ts';
import { typed } from '../../server/db.ts';
import type { TestClient, TestServer } from './server-helpers.ts';
import { createUserDirect, signIn } from './server-helpers.ts';
import type { MailMessage, Mailer } from '../../server/mailer.ts';

export async function userWithLocations(
  server: TestServer,
  opts: { role?: Role; locations?: string[] } = {},
): Promise<{ client: TestClient; email: string; id: number }> {
  const user = await createUserDirect(server, {
    role: opts.role ?? 'USER',
    locations: opts.locations ?? ['Apiary North', 'Warehouse 4'],
  });
  const client = server.client();
  await signIn(client, user.email, user.password);
  return { client, email: user.email, id: user.id };
}

export function counts(partial: Partial<ClassCounts> = {}): ClassCounts {
  return { bee: 0, pollen: 0, drone: 0, wasp: 0, hornet: 0, ...partial };
}

export function frames(coverages: number[], perFrame: Partial<ClassCounts> = {}): StoredFrame[] {
  return coverages.map((c, i) => ({
    index: i,
    timeS: i * 0.2,
    counts: counts(perFrame),
    beeCoveragePct: c,
  }));
}

/** Inserts a files row directly (processed by default) and returns its id. */
export async function insertFile(
  server: TestServer,
  userId: number,
  row: Partial<Omit<FileRow, 'counts_json' | 'frames_json'>> & {
    counts?: ClassCounts | null;
    frames?: StoredFrame[] | null;
    media?: Buffer;
  } = {},
): Promise<number> {
  const now = new Date().toISOString();
  const { counts: c, frames: f, media, ...rest } = row;
  const kind = rest.kind ?? 'image';
  const format = rest.format ?? (kind === 'image' ? 'png' : 'mp4');
  const storedName = `${crypto.randomBytes(16).toString('hex')}.${format === 'jpeg' ? 'jpg' : format}`;
  if (media) {
    const dir = path.join(server.dataDir, 'media');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, storedName), media);
  }
  const status = rest.status ?? 'PROCESSED';
  const processed = status === 'PROCESSED';
  const inserted = await typed<Array<{ id: number } | number>>(
    server.app.db('files').insert(
      {
        user_id: userId,
        original_name: 'hive.png',
        stored_name: storedName,
        kind,
        format,
        size_bytes: media?.length ?? 1000,
        description: 'test file',
        location: 'Apiary North',
        status,
        status_time: now,
        created_at: now,
        processed_at: processed ? now : null,
        counts_json: c === null ? null : JSON.stringify(c ?? (processed ? counts() : null)),
        frames_json: f === null ? null : JSON.stringify(f ?? (processed ? frames([0]) : [])),
        summary_json: null,
        ...rest,
      },
      ['id'],
    ),
  );
  const first = inserted[0];
  return Number(typeof first === 'object' ? first.id : first);
}

/** Whether the real engine (model, ffmpeg, onnxruntime) starts here; tests needing it skip otherwise. */
export async function engineAvailable(): Promise<{ ok: boolean; why: string }> {
  try {
    const { createEngine } = await import('../../engine/index.ts');
    await createEngine();
    return { ok: true, why: '' };
  } catch (err) {
    return { ok: false, why: err instanceof Error ? err.message : String(err) };
  }
}

/** A mailer that keeps what it is given, for tests that read the e-mails sent. */
export function captureMailer(): Mailer & { sent: MailMessage[] } {
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
