import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources: the workspaces' `jacobian-source` export condition
// (package.json `exports`) comes before the compiled `dist/` that `jacobian` runs. The rest are
// Node's own conditions: dependencies load as Node loads them (not their bundler `module` builds).
const conditions = ['jacobian-source', 'node'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'shared/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'test/src/**/*.test.ts', 'bench/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
