import { readFileSync } from 'node:fs';

/** Version of this runner package, read once from its package.json. */
export const RUNNER_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
