/**
 * Where uploaded media lives under DATA_DIR. Names are always generated here (crypto random),
 * never taken from the client, so no request can choose or reach a path.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface MediaDirs {
  incoming: string;
  media: string;
  previews: string;
  /** Honeybee-only copies of the previews, under the same names (plans without wasps/hornets). */
  honeybeePreviews: string;
  /** The highest-scored hornet's frame, under the preview's name (what hornet alerts show). */
  hornetPreviews: string;
}

export function mediaDirs(dataDir: string): MediaDirs {
  return {
    incoming: path.join(dataDir, 'incoming'),
    media: path.join(dataDir, 'media'),
    previews: path.join(dataDir, 'previews'),
    honeybeePreviews: path.join(dataDir, 'honeybee-previews'),
    hornetPreviews: path.join(dataDir, 'hornet-previews'),
  };
}

export async function ensureMediaDirs(dirs: MediaDirs): Promise<void> {
  await Promise.all(
    [dirs.incoming, dirs.media, dirs.previews, dirs.honeybeePreviews, dirs.hornetPreviews].map(
      (d) => mkdir(d, { recursive: true }),
    ),
  );
}

export function generatedName(): string {
  return randomBytes(16).toString('hex');
}

const EXTENSIONS: Record<string, string> = { mp4: 'mp4', avi: 'avi', jpeg: 'jpg', png: 'png' };

/** The extension a verified format is stored under. */
export function extensionFor(format: string): string {
  return EXTENSIONS[format] ?? 'bin';
}

export const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  avi: 'video/x-msvideo',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** Resolves a stored name inside `dir`, refusing anything that is not a plain generated name. */
export function storedPath(dir: string, name: string): string {
  if (!/^[0-9a-f]{32}(\.[a-z0-9]{2,4})?$/.test(name)) throw new Error(`Bad stored name: ${name}`);
  return path.join(dir, name);
}

export async function moveFile(from: string, to: string): Promise<void> {
  await rename(from, to);
}

/** Deletes a file, ignoring one that is already gone. */
export async function removeQuietly(file: string | undefined | null): Promise<void> {
  if (!file) return;
  await rm(file, { force: true });
}
