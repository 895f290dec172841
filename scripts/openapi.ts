/**
 * `npm run openapi`: writes openapi.json at the repo root from the schemas (src/openapi/).
 * test/openapi/document.test.ts fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { openApiText } from '../src/openapi/document.js';
import { VERSION } from '../src/version.js';

const file = new URL('../openapi.json', import.meta.url);
writeFileSync(file, openApiText(VERSION));
process.stdout.write(`wrote ${file.pathname}\n`);
