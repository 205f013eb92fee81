/**
 * The model card has one definition, the zod schema the engine validates with; training/card.py
 * validates each card it writes against models/card.schema.json, generated from it. A change to
 * the schema without `npm run card-schema` would let Python write cards the engine refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODEL_CARD_SCHEMA_PATH, modelCardJsonSchemaText } from '../../engine/index.ts';

describe('models/card.schema.json', () => {
  it('is what the zod schema generates', () => {
    const committed = readFileSync(MODEL_CARD_SCHEMA_PATH, 'utf8');
    expect(committed, 'stale: run `npm run card-schema` and commit the file').toBe(
      modelCardJsonSchemaText(),
    );
  });
});
