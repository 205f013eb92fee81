// The tests' check of every answer against the route table: what it accepts, what it names as a
// disagreement, and, through a real HTTP server, that a disagreeing answer becomes a 500.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Router } from '@koa/router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger.ts';
import { answerCheck, answerProblem } from './answer-check.ts';
import { errorMiddleware } from './errors.ts';

const CONFIG = {
  contact_email: 'contact@hivesight.example',
  research_article_url: 'https://doi.org/10.3390/agriculture15101019',
  intro_video_url: '/intro.mp4',
};

describe('answerProblem', () => {
  it('accepts an answer the schema names field for field, as an object or as JSON text', () => {
    expect(answerProblem('GET /api/public-config', 200, CONFIG)).toBeNull();
    expect(answerProblem('GET /api/public-config', 200, JSON.stringify(CONFIG))).toBeNull();
    expect(
      answerProblem('POST /api/get-uploaded-files-list/', 200, '[["a.png","QUEUED","","","N",""]]'),
    ).toBeNull();
  });

  it('names a missing or mistyped field, and a field the schema lacks', () => {
    const { intro_video_url: _, ...short } = CONFIG;
    expect(answerProblem('GET /api/public-config', 200, short)).toMatch(/^intro_video_url: /);
    expect(answerProblem('GET /api/public-config', 200, { ...CONFIG, contact_email: 7 })).toMatch(
      /^contact_email: /,
    );
    expect(
      answerProblem('GET /api/account/training-consent', 200, {
        consent: true,
        consent_at: null,
        revoked_at: null,
        corrected_frames: 0,
        by: { admin: true },
      }),
    ).toBe('fields the schema lacks: by');
    expect(
      answerProblem('GET /api/locations', 200, {
        locations: [{ id: 1, name: 'N', files: 0, x: 1 }],
      }),
    ).toBe('fields the schema lacks: locations[0].x');
  });

  it('holds a success to its status, and a 204 to no body', () => {
    expect(answerProblem('POST /api/locations/', 201, {})).toBeNull(); // not a route
    expect(answerProblem('GET /api/public-config', 201, CONFIG)).toBe(
      'answered 201, the contract says 200',
    );
    expect(answerProblem('DELETE /api/locations/:id', 204, undefined)).toBeNull();
    expect(answerProblem('DELETE /api/locations/:id', 204, { gone: true })).toBe(
      'answered a body, the contract says none',
    );
    expect(answerProblem('GET /api/public-config', 404, { error: {} })).toBeNull();
  });

  it('leaves files alone, a range (206) included', () => {
    expect(answerProblem('GET /api/files/:id/media', 206, Buffer.from('bytes'))).toBeNull();
    expect(answerProblem('GET /api/files/:id/report.csv', 200, 'a,b\n1,2\n')).toBeNull();
  });
});

describe('answerCheck over HTTP', () => {
  let server: http.Server;
  let base = '';
  let answer: unknown = CONFIG;
  beforeAll(async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(errorMiddleware(silentLogger));
    koa.use(answerCheck());
    const router = new Router();
    router.get('/api/public-config', (ctx) => {
      ctx.body = answer;
    });
    koa.use(router.routes());
    const handle = koa.callback();
    server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes a route’s answer that follows the contract, and fails one that does not', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const good = await fetch(`${base}/api/public-config`);
      expect([good.status, await good.json()]).toEqual([200, CONFIG]);
      answer = { ...CONFIG, intro_video_url: null };
      const bad = await fetch(`${base}/api/public-config`);
      expect(bad.status).toBe(500);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INTERNAL');
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(
        /^\[answer-check\] The answer of GET \/api\/public-config breaks the contract: intro_video_url: /,
      );
    } finally {
      stderr.mockRestore();
    }
  });
});
