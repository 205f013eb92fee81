// The client reads an error answer's code (contract/errors.ts), and says the code's sentence
// when an answer carries no message: through a real HTTP server on this machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../contract/errors.ts';
import type { ApiError } from './api.ts';
import { request } from './api.ts';

const ANSWERS: Record<string, [number, string]> = {
  '/bare-403': [403, ''],
  '/conflict': [
    409,
    JSON.stringify({
      error: { code: 'CONFLICT', message: 'Already there.' },
      message: 'Already there.',
    }),
  ],
  '/engine': [422, JSON.stringify({ error: { code: 'CORRUPT_MEDIA', message: '' }, message: '' })],
  '/proxy-502': [502, '<html>Bad gateway</html>'],
};

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const [status, body] = ANSWERS[req.url ?? ''] ?? [200, '{"ok":true}'];
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const failure = (path: string) =>
  request(base + path).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as ApiError,
  );

describe('api errors', () => {
  it('take the code of the body, else the server’s code for the status, and its sentence', async () => {
    const bare = await failure('/bare-403');
    expect([bare.code, bare.message]).toEqual(['FORBIDDEN', ERROR_MESSAGES.FORBIDDEN]);
    const conflict = await failure('/conflict');
    expect([conflict.code, conflict.message, conflict.status]).toEqual([
      'CONFLICT',
      'Already there.',
      409,
    ]);
    expect((await failure('/engine')).code).toBe('CORRUPT_MEDIA');
    const proxy = await failure('/proxy-502');
    expect([proxy.code, proxy.message]).toEqual([null, 'Network response was not ok (502)']);
    expect(await request(`${base}/fine`)).toEqual({ ok: true });
  });
});
