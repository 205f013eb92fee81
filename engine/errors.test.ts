import { describe, expect, it } from 'vitest';
import * as errors from './errors.ts';
import { ENGINE_ERROR_CLASSES, ENGINE_ERRORS, EngineError, engineErrorCode } from './errors.ts';

/** Every concrete EngineError subclass this module exports, found by walking its exports. */
function declaredErrorClasses(): Array<new (message: string) => EngineError> {
  return (Object.values(errors) as unknown[]).filter(
    (value): value is new (message: string) => EngineError =>
      typeof value === 'function' &&
      value !== EngineError &&
      value.prototype instanceof EngineError,
  );
}

describe('engine error codes', () => {
  it('lists every declared error class, each with metadata for its code', () => {
    const declared = declaredErrorClasses();
    expect(declared.length).toBeGreaterThanOrEqual(9);
    expect(new Set<unknown>(ENGINE_ERROR_CLASSES)).toEqual(new Set<unknown>(declared));
    for (const cls of declared) {
      const err = new cls('x');
      expect(Object.keys(ENGINE_ERRORS), cls.name).toContain(err.code);
      expect(engineErrorCode(err)).toBe(err.code);
    }
  });

  it('gives each code a distinct class, a sentence, a hint and a cause', () => {
    const codes = ENGINE_ERROR_CLASSES.map((cls) => new cls('x', 'size').code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(ENGINE_ERRORS).sort()).toEqual([...codes].sort());
    for (const info of Object.values(ENGINE_ERRORS)) {
      expect(info.userMessage).toMatch(/^[A-Z].*\.$/);
      expect(info.hint.length).toBeGreaterThan(10);
      expect(['input', 'installation', 'load']).toContain(info.cause);
    }
  });

  it('recognises codes, not look-alikes', () => {
    expect(engineErrorCode(Object.assign(new Error('e'), { code: 'CORRUPT_MEDIA' }))).toBe(
      'CORRUPT_MEDIA',
    );
    expect(engineErrorCode(Object.assign(new Error('e'), { code: 'ENOENT' }))).toBeNull();
    expect(engineErrorCode(Object.assign(new Error('e'), { code: 'toString' }))).toBeNull();
    expect(engineErrorCode({ code: 'CORRUPT_MEDIA' })).toBeNull();
  });
});
