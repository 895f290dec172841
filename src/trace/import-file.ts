/** What --import needs, in one module loaded only when a trace is imported at start (server.ts). */
export { readTraceFile } from './file.js';
export { TraceProblem } from './read.js';
export { applyTrace } from './apply.js';
