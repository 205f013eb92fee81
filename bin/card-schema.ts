/**
 * Writes models/card.schema.json, the model card's JSON Schema, from the card's zod schema in
 * engine/detection/model-card.ts (its one definition): `npm run card-schema` after changing it.
 * training/card.py validates each card it writes against the file; tests/structure checks that
 * the committed file is what zod generates.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MODEL_CARD_SCHEMA_PATH, modelCardJsonSchemaText } from '../engine/index.ts';

await writeFile(MODEL_CARD_SCHEMA_PATH, modelCardJsonSchemaText());
console.log(`wrote ${path.relative(process.cwd(), MODEL_CARD_SCHEMA_PATH)}`);
