/**
 * Output adapters keyed by the card's `output.format`. A new export layout is one new file and
 * one line here.
 */
import type { OutputAdapter } from './types.ts';
import { yoloAdapter } from './yolo.ts';

const ADAPTERS: ReadonlyMap<string, OutputAdapter> = new Map(
  [yoloAdapter].map((adapter) => [adapter.format, adapter]),
);

export const OUTPUT_FORMATS: readonly string[] = [...ADAPTERS.keys()];

export function adapterFor(format: string): OutputAdapter | undefined {
  return ADAPTERS.get(format);
}

export type { Candidates, DecodeOptions, OutputAdapter, OutputTensor } from './types.ts';
export { decodeYolo, yoloAdapter } from './yolo.ts';
