/**
 * POST /api/upload_docs/ (spec 7, decisions.md 2), the Koa/multer side. The multipart body
 * streams into DATA_DIR/incoming/ under a random name with the user's size limit enforced by
 * multer while it streams; then the fields are validated and `ingestFile` (ingest.ts) checks,
 * stores and records or queues the file. Every rejection removes what was written, on disk and
 * in the database.
 */
import multer from '@koa/multer';
import type { Context } from 'koa';
import { PayloadTooLarge, ValidationError } from '../errors.ts';
import { NUL_MESSAGE, hasNul } from '../middleware/body.ts';
import type { AppContext, SessionUser } from '../context.ts';
import { today } from '../clock.ts';
import { cleanText } from '../text.ts';
import { userLocations } from '../users/users-repository.ts';
import { engineFor } from './engine.ts';
import { ingestFile, ingestStore, uploadName } from './ingest.ts';
import { planFor, sizeText } from './plans.ts';
import { uploadQuota } from './quotas.ts';
import type { FileRow } from './file-row.ts';
import { ensureMediaDirs, generatedName, mediaDirs, removeQuietly } from './storage.ts';

export const FIELD_MESSAGES = {
  file_data: 'Select a file to continue.',
  file_description: 'Enter a brief description of the file.',
  location: 'Select a location for this upload.',
} as const;

const INVISIBLE_NAME =
  'The file name has no visible characters. Rename the file and upload it again.';
const TEXT_FIELDS = new Set(['file_description', 'location', 'email_address']);
const MAX_DESCRIPTION = 5000;

/** multer's error codes that mean a malformed form rather than a too-large file. */
const FORM_ERRORS: Record<string, string> = {
  LIMIT_FILE_COUNT: 'Send one file per upload.',
  LIMIT_UNEXPECTED_FILE: 'Send the file in the file_data field, one file per upload.',
  LIMIT_FIELD_COUNT: 'The upload form has too many fields.',
  LIMIT_PART_COUNT: 'The upload form has too many parts.',
  LIMIT_FIELD_KEY: 'A form field name is too long.',
  LIMIT_FIELD_VALUE: 'A form field is too long.',
  MISSING_FIELD_NAME: 'A form field has no name.',
};

export const MALFORMED_FORM =
  'The upload form is malformed or incomplete. Please choose the file again and retry.';

/** A parse error of the multipart body itself (busboy's plain Errors), as opposed to a fault. */
function isMalformedForm(err: unknown): boolean {
  return (
    err instanceof Error &&
    err.constructor === Error &&
    (err as { code?: unknown }).code === undefined &&
    /form|part|boundary|multipart|content type|end of/i.test(err.message)
  );
}

const INTERRUPTED = 'The upload was interrupted before it finished. Please try again.';

/** The request stream was aborted or closed before its body was read in full. */
function clientGone(ctx: Context): boolean {
  const req = ctx.req;
  return !req.complete && (req.destroyed || req.readableAborted);
}

export function tooLargeMessage(limit: number): string {
  const size = sizeText(limit);
  return `This file exceeds the ${size} limit and cannot be processed. Please select a file smaller than ${size}.`;
}

interface UploadedPart {
  path: string;
  originalname: string;
  size: number;
}

/** Streams the multipart body to disk within the limits; maps multer's errors to HTTP errors. */
async function receive(
  ctx: Context,
  incomingDir: string,
  maxBytes: number,
): Promise<UploadedPart | undefined> {
  // A declared body far beyond the limit is refused before reading it at all.
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes * 2 + 1024 * 1024) {
    ctx.set('Connection', 'close');
    throw new PayloadTooLarge(tooLargeMessage(maxBytes));
  }
  const upload = multer({
    storage: multer.diskStorage({
      destination: incomingDir,
      filename: (_req, _file, cb) => cb(null, generatedName()),
    }),
    limits: {
      fileSize: maxBytes,
      files: 1,
      fields: 3,
      parts: 4,
      fieldSize: 16 * 1024,
      fieldNameSize: 64,
    },
    defParamCharset: 'utf8',
  } as multer.Options).single('file_data');
  // A client that gave up while the user and plan were looked up is already gone: multer would
  // wait forever for a body that never comes (its abort listeners fire only once).
  if (clientGone(ctx)) throw new ValidationError(INTERRUPTED);
  try {
    await upload(ctx, async () => {});
  } catch (err) {
    if (clientGone(ctx)) throw new ValidationError(INTERRUPTED);
    const code = (err as { code?: unknown }).code;
    if (code === 'LIMIT_FILE_SIZE') throw new PayloadTooLarge(tooLargeMessage(maxBytes));
    if (typeof code === 'string' && code in FORM_ERRORS)
      throw new ValidationError(FORM_ERRORS[code] ?? 'Invalid upload form.');
    // busboy reports a malformed body (no boundary, a bad part header, a body cut short) as a
    // plain Error without a code; disk errors carry one (ENOSPC...) and stay server errors.
    if (isMalformedForm(err)) throw new ValidationError(MALFORMED_FORM);
    throw err;
  }
  return (ctx.request as unknown as { file?: UploadedPart }).file;
}

export async function handleUpload(
  app: AppContext,
  ctx: Context,
  user: SessionUser,
): Promise<FileRow> {
  const dirs = mediaDirs(app.config.dataDir);
  await ensureMediaDirs(dirs);
  const plan = await planFor(app.db, user.id, today(app.clock));
  const quota = await uploadQuota(app.db, user.id, today(app.clock), app.config.uploadQuotaScale);
  const store = ingestStore(app, { userId: user.id, quota, priority: plan.priority });
  // Refused before the body is read: a user over the daily count uploads nothing more, and the
  // unread body is not kept on the connection.
  try {
    await store.withinQuota(0);
  } catch (err) {
    ctx.set('Connection', 'close');
    throw err;
  }
  const part = await receive(ctx, dirs.incoming, plan.maxFileSize);
  let fields: { description: string; location: string };
  try {
    fields = validateFields(
      (ctx.request as { body?: unknown }).body,
      await userLocations(app.db, user.id),
      part !== undefined,
    );
    if (!part)
      throw new ValidationError(FIELD_MESSAGES.file_data, { file_data: FIELD_MESSAGES.file_data });
    if (uploadName(part.originalname) === '')
      throw ValidationError.of({ file_data: INVISIBLE_NAME });
  } catch (err) {
    await removeQuietly(part?.path);
    throw err;
  }
  return ingestFile(
    { store, dirs, clock: app.clock, engine: () => engineFor(app) },
    {
      userId: user.id,
      file: { path: part.path, originalName: part.originalname, sizeBytes: part.size },
      description: fields.description,
      location: fields.location,
      maxVideoSeconds: plan.maxVideoSeconds,
    },
  );
}

function validateFields(
  body: unknown,
  locations: string[],
  hasFile: boolean,
): { description: string; location: string } {
  const form = (body ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(form)) {
    if (!TEXT_FIELDS.has(key))
      throw new ValidationError(`Unexpected form field: ${key.slice(0, 64)}.`);
    if (typeof value !== 'string') throw new ValidationError(`Send the ${key} field once.`);
    if (hasNul(value)) throw new ValidationError(NUL_MESSAGE, { [key]: NUL_MESSAGE });
  }
  const text = (v: unknown) => (typeof v === 'string' ? cleanText(v) : '');
  const description = text(form.file_description);
  const location = text(form.location);
  // The chosen location as stored: one saved before names were cleaned is found by its
  // cleaned name, and the file keeps the location's stored name.
  const chosen = locations.find((l) => cleanText(l) === location);
  const problems: Record<string, string> = {};
  if (!hasFile) problems.file_data = FIELD_MESSAGES.file_data;
  if (description === '') problems.file_description = FIELD_MESSAGES.file_description;
  else if (description.length > MAX_DESCRIPTION)
    problems.file_description = `Keep the description under ${MAX_DESCRIPTION} characters.`;
  if (location === '' || chosen === undefined) problems.location = FIELD_MESSAGES.location;
  if (Object.keys(problems).length > 0 || chosen === undefined) throw ValidationError.of(problems);
  return { description, location: chosen };
}
