/**
 * The fault kinds' table (src/scenario-engine/fault-kinds.ts) is what the file schema, the
 * engine and the HTTP adapter read: the schema's exclusive kinds are the table's final
 * ones, every kind explains itself, and the final request kinds make a fault.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, explainFault, isDeliveryFault, toRequestFault } from '../../src/scenario-engine/fault-kinds.js';
import { parseScenario } from '../../src/scenario-engine/load-scenarios.js';

const EXAMPLES = {
  delayMs: { delayMs: 5 },
  error: { error: 'ERR_OPERATION_FAILED' },
  status: { status: 503, body: 'down' },
  rateLimit: { rateLimit: { retryAfterSec: 2 } },
  drop: { drop: true },
  failDelivery: { failDelivery: 'unreachable' },
} as const;

const fields = Object.keys(FAULT_KINDS) as (keyof typeof FAULT_KINDS)[];
const finals = fields.filter((k) => FAULT_KINDS[k].final);

const load = (fault: object) => parseScenario({ name: 's', rules: [{ fault }] }, 'test');

describe('fault kinds', () => {
  it.each(fields)('%s: loads alone, explains itself, is of its level', (field) => {
    const loaded = load(EXAMPLES[field]);
    if (!('scenario' in loaded)) throw new Error(loaded.problems.join('\n'));
    const fault = loaded.scenario.rules[0]!.fault;
    expect(explainFault(fault)).not.toBe('');
    expect(isDeliveryFault(fault)).toBe(FAULT_KINDS[field].level === 'delivery');
    const requestFault = toRequestFault(fault);
    const decides = FAULT_KINDS[field].final && FAULT_KINDS[field].level === 'request';
    expect(requestFault?.kind ?? null).toBe(decides ? field : null);
  });

  it('refuses any two final kinds in one rule, naming both', () => {
    for (const a of finals)
      for (const b of finals.filter((k) => k !== a)) {
        const loaded = load({ ...EXAMPLES[a], ...EXAMPLES[b] });
        expect(loaded).toHaveProperty('problems');
        expect((loaded as { problems: string[] }).problems.join('\n')).toMatch(/combines \w+ and \w+/);
      }
  });

  it('lets a non-final kind join any final one', () => {
    for (const joining of fields.filter((k) => !FAULT_KINDS[k].final))
      for (const final of finals) expect(load({ ...EXAMPLES[joining], ...EXAMPLES[final] })).toHaveProperty('scenario');
  });

  it('names every kind when a rule has none', () => {
    const loaded = load({}) as { problems: string[] };
    expect(loaded.problems.join('\n')).toContain(`needs one of ${finals.join(', ')} or delayMs`);
  });
});
