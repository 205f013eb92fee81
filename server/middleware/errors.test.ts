import { describe, expect, it } from 'vitest';
import type { Context } from 'koa';
import {
  CorruptMediaError,
  DatasetError,
  ENGINE_ERROR_CLASSES,
  ENGINE_ERRORS,
  MediaLimitError,
  UnsafeMediaError,
  UnsupportedMediaError,
} from '../../engine/vocabulary.ts';
import { Conflict, Forbidden, RateLimited, ValidationError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { classify, errorMiddleware } from './errors.ts';

function fakeCtx(): Context & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return {
    method: 'POST',
    path: '/api/x',
    status: 404,
    body: undefined,
    headers,
    set(name: string, value: string) {
      headers[name] = value;
    },
  } as unknown as Context & { headers: Record<string, string> };
}

function recordingLogger(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  return { info: () => {}, warn: () => {}, error: (m, f) => errors.push([m, f]), errors };
}

describe('engine errors', () => {
  it('answer a client error for bad input and 503 for the installation, with their fixed code', () => {
    for (const cls of ENGINE_ERROR_CLASSES) {
      const err = new cls('/srv/secret/path.onnx', 'size');
      const info = ENGINE_ERRORS[err.code];
      const result = classify(err);
      expect(result.code).toBe(err.code);
      expect(result.message).toBe(info.userMessage);
      expect(result.expected).toBe(info.cause !== 'installation');
      if (info.cause === 'installation') expect(result.status).toBe(503);
      else expect([413, 415, 422]).toContain(result.status);
    }
    expect(classify(new DatasetError('no labels/ folder')).status).toBe(422);
  });
});

describe('error middleware', () => {
  it.each([
    [ValidationError.of({ email: 'Invalid email' }), 400],
    [new Forbidden(), 403],
    [new Conflict('dup'), 409],
    [new RateLimited(), 429],
    [new UnsupportedMediaError('x'), 415],
    [new UnsafeMediaError('x'), 415],
    [new CorruptMediaError('x'), 422],
    [new MediaLimitError('x', 'duration'), 413],
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      503,
    ],
    [Object.assign(new Error('pool'), { name: 'KnexTimeoutError' }), 503],
    [Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' }), 503],
    [new Error('Connection terminated unexpectedly'), 503],
    [Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }), 507],
    [
      Object.assign(new Error('SQLITE_FULL: database or disk is full'), { code: 'SQLITE_FULL' }),
      507,
    ],
    [new Error('boom'), 500],
  ])('maps %s to %i', (err, status) => {
    expect(classify(err).status).toBe(status);
  });

  it('answers one shape with fields, and does not log expected errors', async () => {
    const logger = recordingLogger();
    const ctx = fakeCtx();
    await errorMiddleware(logger)(ctx, () =>
      Promise.reject(
        ValidationError.of({ email: 'Invalid email', password: 'Password is required' }),
      ),
    );
    expect(ctx.status).toBe(400);
    expect(ctx.body).toEqual({
      error: {
        code: 'VALIDATION',
        message: 'Invalid email',
        fields: { email: 'Invalid email', password: 'Password is required' },
      },
      message: 'Invalid email',
    });
    expect(logger.errors).toHaveLength(0);
  });

  it('never leaks internals on 500 and logs them once', async () => {
    const logger = recordingLogger();
    const ctx = fakeCtx();
    await errorMiddleware(logger)(ctx, () =>
      Promise.reject(new Error('select * from users where password_hash = ...')),
    );
    expect(ctx.status).toBe(500);
    expect(JSON.stringify(ctx.body)).not.toContain('password_hash');
    expect((ctx.body as { error: { code: string } }).error.code).toBe('INTERNAL');
    expect(logger.errors).toHaveLength(1);
  });

  it('sets Retry-After for rate limits', async () => {
    const ctx = fakeCtx();
    await errorMiddleware(recordingLogger())(ctx, () =>
      Promise.reject(new RateLimited(undefined, 42)),
    );
    expect(ctx.status).toBe(429);
    expect(ctx.headers['Retry-After']).toBe('42');
  });

  it('answers 503 with Retry-After and no internals when the database is down', async () => {
    const logger = recordingLogger();
    const ctx = fakeCtx();
    await errorMiddleware(logger)(ctx, () =>
      Promise.reject(
        Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' }),
      ),
    );
    expect(ctx.status).toBe(503);
    expect(ctx.headers['Retry-After']).toBe('5');
    expect((ctx.body as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(JSON.stringify(ctx.body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|5432/);
    expect(logger.errors).toHaveLength(1);
  });

  it('answers 507 "Insufficient storage" on a full disk and closes the connection', async () => {
    const ctx = fakeCtx();
    await errorMiddleware(recordingLogger())(ctx, () =>
      Promise.reject(
        Object.assign(new Error("ENOSPC: no space left on device, write '/srv/x'"), {
          code: 'ENOSPC',
        }),
      ),
    );
    expect(ctx.status).toBe(507);
    expect(ctx.headers.Connection).toBe('close');
    const body = ctx.body as { error: { code: string }; message: string };
    expect(body.error.code).toBe('INSUFFICIENT_STORAGE');
    expect(body.message).toMatch(/^Insufficient storage/);
    expect(JSON.stringify(ctx.body)).not.toContain('/srv/x');
  });
});
