import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'shared/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'test/src/**/*.test.ts', 'bench/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
