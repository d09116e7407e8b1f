import { readFileSync } from 'node:fs';

/** Version of the MCP server, read once from this package's package.json. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
