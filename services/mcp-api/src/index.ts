export { createApi, type Api, type ApiDependencies, type ReasoningNote, type RunAnswer } from './api.js';
export { FIND_RESPONSE_MAX_BYTES, FindArgumentsSchema, type FindResponse } from './find.js';
export { createMcpServer } from './mcp-server.js';
export { startHttpServer, type HttpServerOptions, type RunningHttpServer } from './http.js';
export { startStdioServer } from './stdio.js';
export { INSTRUCTIONS, instructionsFor } from './instructions.js';
export { REASONING_META_KEY } from './tools.js';
export { projectFind, projectResult } from './projection.js';
export { AuthFileSchema, createAuthenticator, loadAuthFile, parseAuthFile, tenantOf, tokenDigest, type AuthFile, type Authenticator } from './auth.js';
