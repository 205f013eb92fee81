/**
 * Every route of the API, one entry each: `'METHOD /path'` -> RouteSpec. The server's routers
 * are checked to register exactly these (tests/integration/openapi.test.ts), the OpenAPI
 * document is generated from them (openapi.ts), and the console's client derives its types from
 * them (console/src/lib/api.ts `call`).
 *
 * The one answer modelled loosely (z.looseObject): see LOOSE_ANSWERS below.
 */
import { z } from 'zod';
import type { RouteSpec } from './route.ts';
import { fileAnswer } from './route.ts';
import {
  classCounts,
  entrance,
  isoTime,
  locationRef,
  mediaKind,
  messageAnswer,
  productClass,
} from './schemas/common.ts';
import { comparison } from './schemas/comparison.ts';
import { fileDetail, fileRecord, searchRecord } from './schemas/file-detail.ts';
import { historyAnswer, historyQuery } from './schemas/history.ts';
import { calibrationAnswer } from './schemas/calibration.ts';

const idParams = z.object({ id: z.string().describe('The numeric id') });
const frameParams = z.object({ id: z.string(), index: z.string().describe('The frame index') });
const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const label = z.object({ cls: productClass, box });
const detection = z.object({ cls: productClass, score: z.number(), box });

const me = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(['USER', 'ADMIN']),
  products: z.array(z.string()),
});
const settings = z.object({ hornet_alerts: z.boolean() });
const consent = z.object({
  consent: z.boolean(),
  consent_at: isoTime.nullable(),
  revoked_at: isoTime.nullable(),
  corrected_frames: z.number().int(),
});
const locationEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  files: z.number().int().describe('How many of the user’s files name this location'),
});
const locationName = z.object({ name: z.string() });
const accuracy = z.object({
  location: z.string(),
  frames: z.number().int(),
  min_frames: z.number().int(),
  enough: z.boolean(),
  insects: z.number().int(),
  count_error_pct: z.number().nullable(),
  found_pct: z.number().nullable(),
  sentence: z.string().nullable().describe('Null below min_frames frames or without insects'),
});
const frameSource = z.enum(['photo', 'preview', 'sampled']);
const frameView = z.object({
  file_id: z.number().int(),
  index: z.number().int(),
  time_s: z.number(),
  source: frameSource,
  width: z.number(),
  height: z.number(),
  image_url: z.string(),
  detections: z.array(detection),
  labels: z.array(label).nullable(),
  corrected: z.boolean(),
  reviewed: z.boolean(),
  updated_at: isoTime.nullable(),
  classes: z.array(productClass),
});
const groupEntry = z.looseObject({
  name: z.string().optional(),
  report_url: z.string().optional(),
  video_url: z.string().optional(),
  location: z.string().optional(),
  status_time: z.string().optional(),
});

const grant = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  product_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  active: z.boolean(),
});

const CSV = 'text/csv';
const JPEG = 'image/jpeg';

export const ROUTES = {
  // ---- identity (server/routes/auth.ts) ----
  'POST /api/check-valid-user/': {
    summary: 'Sign in: answers the role as text, or an empty body for bad credentials',
    access: 'public',
    body: z.object({ email_address: z.string(), password: z.string() }),
    answer: fileAnswer('text/plain'),
  },
  'POST /api/register-user/': {
    summary: 'Register an account with its hive locations',
    access: 'public',
    body: z.object({
      name: z.string(),
      email: z.string(),
      password: z.string(),
      confirmPassword: z.string(),
      locations: z.array(z.string()).optional(),
    }),
    status: 201,
    answer: z.object({ message: z.string(), email: z.string() }),
  },
  'POST /api/forgot-password': {
    summary: 'E-mail a password reset link',
    access: 'public',
    body: z.object({ email_address: z.string() }),
    answer: z.object({ message: z.enum(['SUCCESS', 'INVALID_EMAIL_ADDRESS']) }),
  },
  'POST /api/reset-password': {
    summary: 'Choose a new password with a reset link’s token',
    access: 'public',
    body: z.object({ token: z.string(), new_password: z.string() }),
    answer: z.object({ message: z.literal('SUCCESS') }),
  },
  'POST /api/logout': {
    summary: 'End the session',
    access: 'public',
    answer: z.object({ message: z.literal('SUCCESS') }),
  },
  'GET /api/me': { summary: 'The signed-in user', access: 'user', answer: me },

  // ---- account (server/routes/account.ts, corrections.ts) ----
  'POST /api/valid-products-and-file-size': {
    summary: 'The user’s active plans and their largest file size, in bytes',
    access: 'user',
    answer: z.object({ valid_products: z.array(z.string()), max_file_size: z.number().int() }),
  },
  'POST /api/get-locations-user/': {
    summary: 'The user’s hive locations, one [name] per location (spec 3)',
    access: 'user',
    answer: z.array(z.tuple([z.string()])),
  },
  'GET /api/account/settings': { summary: 'The user’s settings', access: 'user', answer: settings },
  'POST /api/account/settings': {
    summary: 'Turn hornet alert e-mails on or off',
    access: 'user',
    body: settings,
    answer: settings,
  },
  'GET /api/account/training-consent': {
    summary: 'Whether the user’s corrected frames may train the model',
    access: 'user',
    answer: consent,
  },
  'POST /api/account/training-consent': {
    summary: 'Give or revoke training consent',
    access: 'user',
    body: z.object({ consent: z.boolean() }),
    answer: consent,
  },

  // ---- administration (server/routes/admin.ts, search.ts, corrections.ts) ----
  'POST /api/users-and-products': {
    summary:
      'Every user with each plan: [email, start_date, end_date, product_name, lookalike, name, role, user_id, product_id]',
    access: 'admin',
    answer: z.array(
      z.tuple([
        z.string(),
        z.string(),
        z.string(),
        z.string(),
        z.boolean(),
        z.string(),
        z.enum(['USER', 'ADMIN']),
        z.number().int(),
        z.number().int().nullable(),
      ]),
    ),
  },
  'POST /api/admin/users/:id/products': {
    summary: 'Grant a plan to a user (start today unless given)',
    access: 'admin',
    params: idParams,
    body: z.object({
      product_name: z.string(),
      end_date: z.string(),
      start_date: z.string().optional(),
    }),
    status: 201,
    answer: grant,
  },
  'POST /api/admin/products/:id/extend': {
    summary: "Move a grant's end date later",
    access: 'admin',
    params: idParams,
    body: z.object({ end_date: z.string() }),
    answer: grant,
  },
  'POST /api/admin/products/:id/revoke': {
    summary: 'End a grant yesterday (one not yet started is removed)',
    access: 'admin',
    params: idParams,
    answer: grant.extend({ removed: z.boolean() }),
  },
  'POST /api/get-all-users': {
    summary: 'Write the users CSV export; answers its name for download-csv',
    access: 'admin',
    answer: z.object({ file_name: z.string() }),
  },
  'GET /api/download-csv': {
    summary: 'Download a generated export',
    access: 'admin',
    query: z.object({ file_name: z.string() }),
    answer: fileAnswer(CSV),
  },
  'POST /api/search-results-files': {
    summary: 'Files by status time, description keywords and location (end date exclusive)',
    access: 'admin',
    body: z.object({
      start_date: z.string().describe('YYYY-MM-DD'),
      end_date: z.string().describe('YYYY-MM-DD, exclusive'),
      file_description: z.string().optional(),
      location: z.string().optional(),
    }),
    answer: z.array(searchRecord),
  },
  'GET /api/admin/corrections-dataset.tar': {
    summary: 'The corrected frames as a training dataset (tar)',
    access: 'admin',
    query: z.object({ reviewed_only: z.enum(['0', '1', 'true', 'false']).optional() }),
    answer: fileAnswer('application/x-tar'),
  },

  // ---- open content (server/routes/public-config.ts, openapi.ts) ----
  'GET /api/public-config': {
    summary: 'The configurable content the console shows',
    access: 'public',
    answer: z.object({
      contact_email: z.string(),
      research_article_url: z.string(),
      intro_video_url: z.string(),
    }),
  },
  'GET /api/openapi.json': {
    summary: 'This API as an OpenAPI 3.1 document',
    access: 'public',
    answer: z.looseObject({ openapi: z.string(), info: z.unknown(), paths: z.unknown() }),
  },

  // ---- files (server/routes/files.ts, file-delete.ts) ----
  'POST /api/upload_docs/': {
    summary: 'Upload a picture or video for analysis',
    access: 'user',
    form: z.object({
      file_data: z.string().describe('The file (binary)'),
      file_description: z.string().describe('Up to 5000 characters'),
      location: z.string().describe('One of the user’s hive locations'),
      email_address: z
        .string()
        .optional()
        .describe('Accepted and ignored: the session names the user'),
    }),
    status: 201,
    answer: z.object({ message: z.string(), file: fileDetail }),
  },
  'POST /api/get-uploaded-files-list/': {
    summary: 'The user’s files as records, newest first',
    access: 'user',
    answer: z.array(fileRecord),
  },
  'GET /api/files/summary.csv': {
    summary: 'One summary row per named file',
    access: 'user',
    query: z.object({ ids: z.string().describe('Comma-separated file ids') }),
    answer: fileAnswer(CSV),
  },
  'GET /api/files/:id/summary.csv': {
    summary: 'The file’s summary row',
    access: 'user',
    params: idParams,
    answer: fileAnswer(CSV),
  },
  'GET /api/files/upload-facts': {
    summary: "Upload date and description of the files named (the caller's own; any for an admin)",
    access: 'user',
    query: z.object({ ids: z.string().describe('Comma-separated file ids, at most 500') }),
    answer: z.object({
      files: z.array(
        z.object({ id: z.number().int(), uploaded_at: z.string(), description: z.string() }),
      ),
    }),
  },
  'GET /api/files/:id': {
    summary: 'One file: status, counts, frames, quality, traffic',
    access: 'user',
    params: idParams,
    answer: fileDetail,
  },
  'DELETE /api/files/:id': {
    summary: 'Delete a file, its media and its report',
    access: 'user',
    params: idParams,
    answer: messageAnswer,
  },
  'GET /api/files/:id/media': {
    summary: 'The original media (honours Range)',
    access: 'user',
    params: idParams,
    answer: fileAnswer('application/octet-stream'),
  },
  'GET /api/files/:id/report.csv': {
    summary: 'The per-frame report',
    access: 'user',
    params: idParams,
    answer: fileAnswer(CSV),
  },
  'GET /api/files/:id/preview.jpg': {
    summary: 'The annotated preview',
    access: 'user',
    params: idParams,
    answer: fileAnswer(JPEG),
  },
  'GET /api/files/:id/hornet.jpg': {
    summary: 'The frame with the highest-scored hornet (Researcher owners)',
    access: 'user',
    params: idParams,
    answer: fileAnswer(JPEG),
  },

  // ---- comparisons (server/routes/groups.ts) ----
  'POST /api/compute-groups': {
    summary: 'Compare two groups of processed files and keep the comparison',
    access: 'user',
    body: z.object({ group_one: z.array(groupEntry), group_two: z.array(groupEntry) }),
    answer: comparison,
  },

  // ---- hive locations (server/routes/locations.ts, hive.ts) ----
  'GET /api/locations': {
    summary: 'The user’s hive locations',
    access: 'user',
    answer: z.object({ locations: z.array(locationEntry) }),
  },
  'POST /api/locations': {
    summary: 'Add a hive location',
    access: 'user',
    body: locationName,
    status: 201,
    answer: z.object({ location: locationEntry }),
  },
  'PATCH /api/locations/:id': {
    summary: 'Rename a hive location (its files follow)',
    access: 'user',
    params: idParams,
    body: locationName,
    answer: z.object({ location: locationEntry }),
  },
  'DELETE /api/locations/:id': {
    summary: 'Remove a hive location no file uses',
    access: 'user',
    params: idParams,
    status: 204,
    answer: null,
  },
  'GET /api/locations/:id/entrance': {
    summary: 'The entrance, the frames it can be drawn on, and whether a proposal exists',
    access: 'user',
    params: idParams,
    answer: z.object({
      location: locationRef,
      entrance: entrance.nullable(),
      frames: z.array(
        z.object({
          file_id: z.number().int(),
          name: z.string(),
          preview_url: z.string().nullable(),
          still_url: z.string().nullable().describe('A clean frame, while the media is kept'),
          width: z.number(),
          height: z.number(),
          created_at: z.string(),
        }),
      ),
      proposal_available: z.boolean(),
      recount: z.object({
        videos: z.array(
          z.object({ file_id: z.number().int(), name: z.string(), created_at: z.string() }),
        ),
        uploads_left_today: z.number().int(),
      }),
    }),
  },
  'PUT /api/locations/:id/entrance': {
    summary: 'Set the entrance: later analyses count bees in and out across it',
    access: 'user',
    params: idParams,
    body: z.object({ entrance }),
    answer: z.object({ location: locationRef, entrance }),
  },
  'DELETE /api/locations/:id/entrance': {
    summary: 'Clear the entrance',
    access: 'user',
    params: idParams,
    status: 204,
    answer: null,
  },
  'GET /api/locations/:id/entrance/proposal': {
    summary: 'An entrance proposed from where tracks start and end, or null',
    access: 'user',
    params: idParams,
    answer: z.object({
      proposal: z
        .object({
          entrance,
          track_ends: z.number().int(),
          of: z.number().int(),
          file_id: z.number().int(),
          file_name: z.string(),
        })
        .nullable(),
      message: z.string().optional(),
    }),
  },
  'GET /api/locations/:id/history': {
    summary: 'The location’s series: one point per processed file at its recording time',
    access: 'user',
    params: idParams,
    query: historyQuery,
    answer: historyAnswer,
  },
  'GET /api/locations/:id/history.csv': {
    summary: 'The location’s series as CSV',
    access: 'user',
    params: idParams,
    query: historyQuery,
    answer: fileAnswer(CSV),
  },
  'GET /api/locations/:id/accuracy': {
    summary: 'The model’s accuracy on the location’s corrected frames',
    access: 'user',
    params: idParams,
    answer: accuracy,
  },
  'GET /api/locations/:id/calibration': {
    summary:
      'The location’s calibration: whether it can be fitted, its gain, whether it is applied',
    access: 'user',
    params: idParams,
    answer: calibrationAnswer,
  },
  'POST /api/locations/:id/calibration': {
    summary: 'Calibrate with the owner’s corrected frames here (fitted by the worker)',
    access: 'user',
    params: idParams,
    status: 202,
    answer: calibrationAnswer,
  },
  'PATCH /api/locations/:id/calibration': {
    summary: 'Turn the calibration on or off',
    access: 'user',
    params: idParams,
    body: z.object({ enabled: z.boolean() }),
    answer: calibrationAnswer,
  },
  'GET /api/locations/:id/calibration.json': {
    summary: 'The calibration as a file, for `hivesight analyze --calibration FILE`',
    access: 'user',
    params: idParams,
    answer: fileAnswer('application/json'),
  },
  'GET /api/files/:id/hive': {
    summary: 'The location of a file and whether it was counted with its entrance',
    access: 'user',
    params: idParams,
    answer: z.object({
      location: locationRef,
      entrance_set: z.boolean(),
      counted_with_entrance: z.boolean(),
      media_kept: z.boolean(),
    }),
  },
  'POST /api/files/:id/count-again': {
    summary: 'Queue a video to be counted with the current entrance',
    access: 'user',
    params: idParams,
    status: 202,
    answer: messageAnswer,
  },
  'POST /api/files/:id/count-again/calibration': {
    summary: 'Queue a file to be counted with its location’s calibration as it is now (or without)',
    access: 'user',
    params: idParams,
    status: 202,
    answer: messageAnswer,
  },

  // ---- corrections (server/routes/corrections.ts) ----
  'GET /api/files/:id/frames': {
    summary: 'The file’s correctable frames and its corrections',
    access: 'user',
    params: idParams,
    answer: z.object({
      file_id: z.number().int(),
      kind: mediaKind,
      media_kept: z.boolean(),
      frames: z.array(
        z.object({
          index: z.number().int(),
          time_s: z.number(),
          source: frameSource,
          corrected: z.boolean(),
          reviewed: z.boolean(),
          url: z.string(),
        }),
      ),
      corrected: z.array(
        z.object({
          index: z.number().int(),
          time_s: z.number(),
          reviewed: z.boolean(),
          counts: classCounts,
          model_counts: classCounts,
          updated_at: isoTime,
        }),
      ),
    }),
  },
  'GET /api/files/:id/frames/:index': {
    summary: 'One frame: its still, the model’s detections and any corrected labels',
    access: 'user',
    params: frameParams,
    answer: frameView,
  },
  'PUT /api/files/:id/frames/:index': {
    summary: 'Save corrected labels: they become the frame’s counts',
    access: 'user',
    params: frameParams,
    body: z.object({ labels: z.array(label) }),
    answer: frameView.extend({ file_counts: classCounts.nullable() }),
  },
  'GET /api/files/:id/frames/:index/still.jpg': {
    summary: 'The frame’s still',
    access: 'user',
    params: frameParams,
    answer: fileAnswer(JPEG),
  },
  'GET /api/files/:id/accuracy': {
    summary: 'The model’s accuracy on the corrected frames of the file’s hive',
    access: 'user',
    params: idParams,
    answer: accuracy,
  },
  'GET /api/hive-accuracy': {
    summary: 'The model’s accuracy on the corrected frames of one of the user’s hives',
    access: 'user',
    query: z.object({ location: z.string() }),
    answer: accuracy,
  },
} as const satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;

/** Answers not modelled field by field: the OpenAPI document, which its own test checks. */
export const LOOSE_ANSWERS: readonly RouteKey[] = [
  'GET /api/openapi.json', // the document itself
];
