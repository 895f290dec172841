/**
 * verify's report, without HTTP: the table (aligned columns, differences and skips under
 * their probe, the summary line) and the JUnit document (escaped, one test case per probe,
 * a failure per difference, failures counted per probe).
 */
import { describe, expect, it } from 'vitest';
import { buildReport, renderJunit, renderText, type ProbeResult } from '../../src/tools/verify/report.js';

const probes: ProbeResult[] = [
  {
    probe: 'templates list',
    method: 'GET',
    path: '/api/templates?limit=100&x=<1>',
    live: { status: 200, code: null },
    emulator: { status: 200, code: null },
    verdict: 'differs',
    differences: ['templates[].x_new: only live', 'templates[id=a"b].name: "A & B" live, "C" emulator'],
  },
  {
    probe: 'template by id',
    method: 'GET',
    path: null,
    live: null,
    emulator: null,
    verdict: 'skipped',
    differences: [],
    skipped: 'the account has no template',
  },
  {
    probe: 'wrong API key',
    method: 'GET',
    path: '/api/templates',
    live: { status: 401, code: 'ERR_UNAUTHORIZED' },
    emulator: { status: 401, code: 'ERR_UNAUTHORIZED' },
    verdict: 'agree',
    differences: [],
  },
];
const report = buildReport('shop', 'http://live.example/v3/business-messaging', { templates: 0, channels: 1 }, probes);

describe('the verify report', () => {
  it('counts the verdicts and is not ok when any probe differs', () => {
    expect(report).toMatchObject({ ok: false, counts: { agree: 1, differs: 1, skipped: 1 } });
    expect(buildReport('shop', 'x', { templates: 0, channels: 0 }, probes.slice(1)).ok).toBe(true);
  });

  it('prints an aligned table, each difference and skip under its probe, and one summary line', () => {
    expect(renderText(report)).toBe(
      [
        'verify: app shop: http://live.example/v3/business-messaging ' +
          'against an emulator holding its 0 template(s) and 1 channel(s)',
        'probe           live                  emulator              verdict',
        'templates list  200                   200                   differs',
        '    - templates[].x_new: only live',
        '    - templates[id=a"b].name: "A & B" live, "C" emulator',
        'template by id  -                     -                     skipped',
        '    (not sent: the account has no template)',
        'wrong API key   401 ERR_UNAUTHORIZED  401 ERR_UNAUTHORIZED  agree',
        'verify: 3 probes: 1 agree, 1 differ, 1 skipped; ' + 'the emulator answers differently from the live service',
        '',
      ].join('\n'),
    );
  });

  it('writes JUnit with every text escaped, a failure per difference, and failures counted per probe', () => {
    const xml = renderJunit(report);
    expect(xml).toContain('<testsuite name="notification-emulator verify (shop)" tests="3" failures="1" skipped="1">');
    expect(xml).toContain('name="templates list (GET /api/templates?limit=100&amp;x=&lt;1&gt;)"');
    expect(xml).toContain(
      '<failure type="difference" message="templates[id=a&quot;b].name: ' +
        '&quot;A &amp; B&quot; live, &quot;C&quot; emulator">',
    );
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain('<skipped message="the account has no template"/>');
    expect(xml).toContain('<testcase classname="verify" name="wrong API key (GET /api/templates)"/>');
    expect(xml.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/&/);
  });
});
