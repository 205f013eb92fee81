import { defineConfig } from 'vitest/config';

// The model-quality tier (`npm run test:model`, run by .ci/run after `npm test`): the shipped
// model's accuracy and the tracker's figures on the labelled data in ../shared/datasets, through
// the real CLI and engine. Each file skips with a message where the datasets are absent. Apart
// from `npm test` because they are minutes of inference on two cores, and a new model moves them
// all at once.
export default defineConfig({
  test: {
    name: 'model',
    include: ['tests/model/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    maxConcurrency: 2,
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
  },
});
