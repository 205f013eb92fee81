// The console's one HTTP client: same-origin relative /api paths, cookie session, JSON.
// Server error bodies carry `{ error: { code }, message }` (contract/errors.ts); a 401 from any
// call ends the local session. `call` takes a route of the contract and answers its type.
import type {
  Answer,
  CallableKey,
  FormFields,
  FormKey,
  NoInput,
  RouteInput,
  TextKey,
} from '../../../contract/client.ts';
import { routeUrl } from '../../../contract/client.ts';
import { splitRouteKey } from '../../../contract/route.ts';
import type { RouteKey } from '../../../contract/routes.ts';
import { codeForStatus, ERROR_MESSAGES, isErrorCode } from '../../../contract/errors.ts';
import type { ErrorCode } from '../../../contract/errors.ts';
import { clearSession } from './session.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    /** The server's Retry-After, in seconds, when it sent one (429, 503). */
    readonly retryAfterSeconds: number | null = null,
    /** The answer's error code, or the server's code for its status when it carried none. */
    readonly code: ErrorCode | null = codeOf(body) ?? codeForStatus(status),
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** `error.code` of an error body, when it holds one of the contract's codes. */
export function codeOf(body: unknown): ErrorCode | null {
  const error = body && typeof body === 'object' && 'error' in body ? body.error : null;
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  return isErrorCode(code) ? code : null;
}

/** What to say for a failed answer without a message of its own: its code's sentence. */
function fallbackMessage(code: ErrorCode | null, status: number, what: string): string {
  if (code && code in ERROR_MESSAGES) return ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES];
  return `${what} (${status})`;
}

let onUnauthorized: () => void = () => {
  window.location.assign('/login');
};

/** The app installs a router-aware handler so a 401 navigates without a page reload. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const message: unknown = body.message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

/** The best human message for any thrown value. */
export function errorMessage(error: unknown, fallback = 'An unexpected error occurred.'): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return fallback;
}

async function parseBody(response: Response): Promise<unknown> {
  const raw = await response.text();
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  form?: FormData;
  /** Calls where a 401 is an expected answer (the session probe, sign-in). */
  quiet401?: boolean;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(path, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    credentials: 'same-origin',
  });
  if (response.status === 401 && !options.quiet401) {
    clearSession();
    onUnauthorized();
  }
  return response;
}

/** JSON request; throws ApiError with the server's message on a non-2xx answer. */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  const body = await parseBody(response);
  if (!response.ok) {
    const code = codeOf(body) ?? codeForStatus(response.status);
    const fallback = fallbackMessage(code, response.status, 'Network response was not ok');
    throw new ApiError(
      messageOf(body) ?? fallback,
      response.status,
      body,
      retryAfter(response),
      code,
    );
  }
  return body as T;
}

type CallArgs<K extends CallableKey> =
  NoInput<K> extends true ? [input?: RouteInput<K>] : [input: RouteInput<K>];

/** One route, by its key, with what its contract says it takes. */
function callRoute(key: RouteKey, input: unknown, quiet401 = false): Promise<unknown> {
  const { method, path } = splitRouteKey(key);
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  };
  return request(routeUrl(path, params, query), { method, json: body, quiet401 });
}

/**
 * One route of the contract, by its key: `call('GET /api/locations/:id/history', { params: { id },
 * query: { from } })` answers the route's answer type, so a field the server renames fails
 * type-checking here.
 */
export function call<K extends CallableKey>(key: K, ...args: CallArgs<K>): Promise<Answer<K>> {
  return callRoute(key, args[0]) as Promise<Answer<K>>;
}

/** A route answering plain text (the sign-in's role); a 401 does not end the local session. */
export async function callText<K extends TextKey>(key: K, input: RouteInput<K>): Promise<string> {
  const answer = await callRoute(key, input, true);
  return typeof answer === 'string' ? answer : '';
}

/** A multipart route of the contract (the upload): the file as `file_data`, then its text fields. */
export function callForm<K extends FormKey>(
  key: K,
  fields: FormFields<K>,
  file: Blob,
): Promise<Answer<K>> {
  const { method, path } = splitRouteKey(key);
  const form = new FormData();
  form.append('file_data', file);
  for (const [name, value] of Object.entries(fields as Record<string, unknown>))
    if (typeof value === 'string') form.append(name, value);
  return request<Answer<K>>(path, { method, form });
}

/** The URL of a route that answers a file (a CSV, a picture), for links and downloads. */
export function routeLink<K extends RouteKey>(key: K, input: RouteInput<K>): string {
  const { path } = splitRouteKey(key);
  const { params, query } = input as {
    params?: Record<string, string | number>;
    query?: Record<string, string | undefined>;
  };
  return routeUrl(path, params, query);
}

/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
function retryAfter(response: Response): number | null {
  const raw = response.headers.get('Retry-After');
  if (!raw) return null;
  const seconds = /^\d+$/.test(raw.trim()) ? Number(raw) : (Date.parse(raw) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

/** A route that answers a file, fetched as a blob (the users CSV, the training dataset). */
export async function getBlob<K extends RouteKey>(key: K, input: RouteInput<K>): Promise<Blob> {
  const response = await send(routeLink(key, input), { method: 'GET' });
  if (!response.ok) {
    const body = await parseBody(response);
    const code = codeOf(body) ?? codeForStatus(response.status);
    throw new ApiError(
      messageOf(body) ?? fallbackMessage(code, response.status, 'Download failed'),
      response.status,
      body,
      retryAfter(response),
      code,
    );
  }
  return response.blob();
}

/** Hand a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export type Me = Answer<'GET /api/me'>;

/** GET /api/me; null when signed out, throws when the check itself failed. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return (await callRoute('GET /api/me', {}, true)) as Me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
