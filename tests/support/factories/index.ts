/**
 * One factory per entity a test sets up, each with defaults a test overrides only where its
 * behaviour depends on it: users (and a signed-in client), hive locations, files (a row with
 * known results, or an upload, analysed on request) and corrected frames.
 */
export * from './user.ts';
export * from './location.ts';
export * from './file.ts';
export * from './corrected-frame.ts';
