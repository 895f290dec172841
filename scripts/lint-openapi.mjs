/**
 * Lints openapi.json with Redocly's recommended rules and operation-description (@redocly/openapi-core,
 * the library behind Redocly's CLI): any problem, warnings included, fails `npm test`.
 */
import { createConfig, lint } from '@redocly/openapi-core';

// Recommended, plus a description on every operation (Spectral's oas ruleset asks for it too).
const config = await createConfig({ extends: ['recommended'], rules: { 'operation-description': 'error' } });
const problems = await lint({ ref: 'openapi.json', config });
for (const p of problems) {
  const where = p.location?.[0]?.pointer ?? '';
  console.error(`openapi.json${where ? ` ${where}` : ''}: ${p.severity} ${p.ruleId}: ${p.message}`);
}
if (problems.length) {
  console.error(`${problems.length} problem(s) in openapi.json (Redocly recommended rules)`);
  process.exit(1);
}
console.log('openapi.json: no problems (Redocly recommended rules)');
