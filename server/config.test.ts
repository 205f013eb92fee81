import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      sqliteFile: path.resolve('./data/hivesight.sqlite'),
      sqliteReadConnections: 3,
      publicUrl: 'http://localhost:8000',
      publicOrigin: 'http://localhost:8000',
      secureCookies: false,
      smtpUrl: null,
      sessionIdleDays: 7,
      mediaRetentionHours: 24,
      contactEmail: 'contact@hivesight.example',
      researchArticleUrl: 'https://doi.org/10.3390/agriculture15101019',
      adminEmail: null,
      model: null,
      fps: 5,
      workerConcurrency: 1,
      jobLeaseSeconds: 300,
      jobMaxAttempts: 3,
      maxVideoSeconds: 600,
      mediaTimeoutSeconds: 120,
      analysisThread: true,
      trustProxy: false,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads every key it knows', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/hs',
      DATABASE_URL: 'postgres://u@db:5432/hs',
      PUBLIC_URL: 'https://bees.example.org/',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Bees <b@bees.example.org>',
      SESSION_IDLE_DAYS: '1.5',
      MEDIA_RETENTION_HOURS: '2',
      CONTACT_EMAIL: 'team@bees.example.org',
      ADMIN_EMAIL: 'Boss@Bees.example.org',
      ADMIN_PASSWORD: 'long-enough',
      HIVESIGHT_MODEL: 'models/x.json',
      HIVESIGHT_FPS: '2.5',
      WORKER_CONCURRENCY: '0',
      TRUST_PROXY: 'yes',
      MEDIA_TIMEOUT_SECONDS: '30',
      ANALYSIS_THREAD: 'off',
      SQLITE_READ_CONNECTIONS: '5',
      RATE_LIMIT_MAX_PER_EMAIL_ALL_IPS: '50',
      REGISTER_RATE_LIMIT_MAX_PER_IP: '7',
      RATE_LIMIT_SLOW_AFTER_PER_EMAIL_ALL_IPS: '12',
      REGISTER_RATE_LIMIT_SLOW_AFTER_ALL_IPS: '40',
      UPLOAD_QUOTA_SCALE: '2.5',
    });
    expect(c.port).toBe(9000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.rateLimitMaxPerEmailAllIps).toBe(50);
    expect(c.registerRateLimitMaxPerIp).toBe(7);
    expect(c.rateLimitSlowAfterPerEmailAllIps).toBe(12);
    expect(c.registerSlowAfterAllIps).toBe(40);
    expect(c.uploadQuotaScale).toBe(2.5);
    expect(c.dataDir).toBe('/srv/hs');
    expect(c.databaseUrl).toBe('postgres://u@db:5432/hs');
    expect(c.publicUrl).toBe('https://bees.example.org');
    expect(c.publicOrigin).toBe('https://bees.example.org');
    expect(c.secureCookies).toBe(true);
    expect(c.sessionIdleDays).toBe(1.5);
    expect(c.adminEmail).toBe('boss@bees.example.org');
    expect(c.fps).toBe(2.5);
    expect(c.workerConcurrency).toBe(0);
    expect(c.trustProxy).toBe(true);
    expect(c.model).toBe('models/x.json');
    expect(c.mediaTimeoutSeconds).toBe(30);
    expect(c.analysisThread).toBe(false);
    expect(c.sqliteReadConnections).toBe(5);
  });

  it('fails once, naming every bad key', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'not a url',
        SMTP_URL: 'http://mail',
        SESSION_IDLE_DAYS: '-1',
        WORKER_CONCURRENCY: '1.5',
        TRUST_PROXY: 'maybe',
        ADMIN_EMAIL: 'nope',
        SQLITE_READ_CONNECTIONS: '0',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(Object.keys(problems).sort()).toEqual(
      [
        'ADMIN_EMAIL',
        'ADMIN_PASSWORD',
        'DATABASE_URL',
        'PORT',
        'PUBLIC_URL',
        'SESSION_IDLE_DAYS',
        'SMTP_URL',
        'SQLITE_READ_CONNECTIONS',
        'TRUST_PROXY',
        'WORKER_CONCURRENCY',
      ].sort(),
    );
    expect((error as Error).message).toMatch(/PORT .*eighty/);
  });

  it('needs ADMIN_PASSWORD (8+) with ADMIN_EMAIL and vice versa', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' })).toThrow(
      /ADMIN_PASSWORD/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'long-enough' })).toThrow(/ADMIN_EMAIL/);
  });
});
