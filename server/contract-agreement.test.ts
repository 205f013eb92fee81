// The contract (contract/) stands alone, so what it repeats of the engine and the server is
// checked here: the product classes, the engine's error codes, and each error class's status
// and default message.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENGINE_ERRORS, HONEYBEE_CLASSES, PRODUCT_CLASSES } from '../engine/vocabulary.ts';
import * as contractClasses from '../contract/classes.ts';
import { ENGINE_ERROR_STATUS, ERROR_MESSAGES, ERROR_STATUS } from '../contract/errors.ts';
import {
  Conflict,
  Forbidden,
  InsufficientStorage,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  UnsupportedMediaType,
  ValidationError,
} from './errors.ts';
import { classify } from './middleware/errors.ts';
import { parseWith } from './contract.ts';

describe('the contract agrees with the engine and the server', () => {
  it('names the engine’s product classes, in its order', () => {
    expect(contractClasses.PRODUCT_CLASSES).toEqual(PRODUCT_CLASSES);
    expect(contractClasses.HONEYBEE_CLASSES).toEqual(HONEYBEE_CLASSES);
  });

  it('lists exactly the engine’s error codes', () => {
    expect(Object.keys(ENGINE_ERROR_STATUS).sort()).toEqual(Object.keys(ENGINE_ERRORS).sort());
  });

  it('gives each server error the status and default message of its code', () => {
    const errors = [
      new ValidationError(ERROR_MESSAGES.VALIDATION),
      new Unauthorized(),
      new Forbidden(),
      new NotFound(),
      new Conflict(ERROR_MESSAGES.CONFLICT),
      new PayloadTooLarge(ERROR_MESSAGES.PAYLOAD_TOO_LARGE),
      new UnsupportedMediaType(ERROR_MESSAGES.UNSUPPORTED_MEDIA_TYPE),
      new RateLimited(),
      new ServiceUnavailable(),
      new InsufficientStorage(),
    ];
    for (const err of errors) {
      const c = classify(err);
      expect([c.code, c.status, c.message]).toEqual([
        err.code,
        ERROR_STATUS[err.code],
        ERROR_MESSAGES[err.code],
      ]);
    }
    expect(classify(new Error('boom'))).toMatchObject({
      code: 'INTERNAL',
      status: ERROR_STATUS.INTERNAL,
      message: ERROR_MESSAGES.INTERNAL,
    });
  });

  it('turns a schema’s problems into one ValidationError naming each field', () => {
    const schema = z.object({
      name: z.string({ error: 'Enter a name.' }),
      size: z.number().int({ error: 'A whole number.' }),
    });
    expect(parseWith(schema, { name: 'hive', size: 2 })).toEqual({ name: 'hive', size: 2 });
    let thrown: unknown;
    try {
      parseWith(schema, { size: 1.5 });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).fields).toEqual({
      name: 'Enter a name.',
      size: 'A whole number.',
    });
    expect((thrown as ValidationError).message).toBe('Enter a name.');
  });
});
