/**
 * A corrected frame (the labels a user saved over the model's boxes on one frame), written
 * straight into the test server's database. Defaults: frame 0 of a 640x480 picture, one bee
 * labelled, the model having found nothing, by the file's owner, not reviewed, now.
 */
import crypto from 'node:crypto';
import type { TestServer } from '../server.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CorrectedFrameInput {
  fileId: number;
  /** The author (default: the file's owner). */
  authorId?: number;
  editedBy?: number;
  frameIndex?: number;
  timeS?: number;
  /** The still's name under DATA_DIR/stills (default: a random 32-hex name). */
  stillName?: string;
  width?: number;
  height?: number;
  labels?: Array<{ cls: string; box: Box }>;
  model?: Array<{ cls: string; score: number; box: Box }>;
  reviewed?: boolean;
  /** ISO time of creation and last update (default now). */
  at?: string;
}

export async function createCorrectedFrame(
  server: TestServer,
  input: CorrectedFrameInput,
): Promise<void> {
  const db = server.app.db;
  const owner = await db('files')
    .where('id', input.fileId)
    .first<{ user_id: number } | undefined>('user_id');
  if (!owner) throw new Error(`no file ${input.fileId}`);
  const at = input.at ?? new Date().toISOString();
  await db('corrected_frames').insert({
    file_id: input.fileId,
    frame_index: input.frameIndex ?? 0,
    time_s: input.timeS ?? 0,
    still_name: input.stillName ?? `${crypto.randomBytes(16).toString('hex')}.jpg`,
    width: input.width ?? 640,
    height: input.height ?? 480,
    labels_json: JSON.stringify(
      input.labels ?? [{ cls: 'bee', box: { x: 10, y: 10, width: 20, height: 20 } }],
    ),
    model_json: JSON.stringify(input.model ?? []),
    author_id: input.authorId ?? Number(owner.user_id),
    ...(input.editedBy !== undefined ? { edited_by: input.editedBy } : {}),
    reviewed: input.reviewed ?? false,
    created_at: at,
    updated_at: at,
  });
}
