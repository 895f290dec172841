/**
 * What `verify` prints: a table of probe, live answer, emulator answer and verdict, each
 * difference on its own line under its probe, then one summary line; and the same report as
 * a JUnit document (one test case per probe, one failure per difference) for CI dashboards.
 */

export type Verdict = 'agree' | 'differs' | 'skipped';

/** One side's answer as the report shows it. */
export interface AnswerSummary {
  status: number;
  /** `error.code` when the answer is an error envelope. */
  code: string | null;
}

export interface ProbeResult {
  probe: string;
  method: string;
  /** The path as sent (null when skipped). */
  path: string | null;
  live: AnswerSummary | null;
  emulator: AnswerSummary | null;
  verdict: Verdict;
  differences: string[];
  /** Why a skipped probe was not sent. */
  skipped?: string;
}

export interface VerifyReport {
  ok: boolean;
  appId: string;
  live: string;
  /** What the emulator was given: the live account's templates and channels. */
  emulator: { templates: number; channels: number };
  counts: Record<Verdict, number>;
  probes: ProbeResult[];
}

export function buildReport(
  appId: string,
  live: string,
  emulator: VerifyReport['emulator'],
  probes: ProbeResult[],
): VerifyReport {
  const counts: Record<Verdict, number> = { agree: 0, differs: 0, skipped: 0 };
  for (const p of probes) counts[p.verdict]++;
  return { ok: counts.differs === 0, appId, live, emulator, counts, probes };
}

const cell = (answer: AnswerSummary | null) =>
  answer ? `${answer.status}${answer.code ? ` ${answer.code}` : ''}` : '-';

/** The report as the table a person reads. */
export function renderText(report: VerifyReport): string {
  const header = ['probe', 'live', 'emulator', 'verdict'];
  const rows = report.probes.map((p) => [p.probe, cell(p.live), cell(p.emulator), p.verdict]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [
    `verify: app ${report.appId}: ${report.live} against an emulator holding its ` +
      `${report.emulator.templates} template(s) and ${report.emulator.channels} channel(s)`,
    line(header),
  ];
  report.probes.forEach((p, i) => {
    out.push(line(rows[i]!));
    for (const d of p.differences) out.push(`    - ${d}`);
    if (p.skipped) out.push(`    (not sent: ${p.skipped})`);
  });
  const { agree, differs, skipped } = report.counts;
  out.push(
    `verify: ${report.probes.length} probes: ${agree} agree, ${differs} differ` +
      `${skipped ? `, ${skipped} skipped` : ''}` +
      (differs
        ? '; the emulator answers differently from the live service'
        : '; the emulator answers as the live service does'),
  );
  return out.join('\n') + '\n';
}

const xml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The report as JUnit XML: one test case per probe, a failure per difference. */
export function renderJunit(report: VerifyReport): string {
  const { agree, differs, skipped } = report.counts;
  const tests = agree + differs + skipped;
  // A failing test case counts once, however many differences it lists.
  const failures = differs;
  const suite = `notification-emulator verify (${report.appId})`;
  const cases = report.probes.map((p) => {
    const name = xml(`${p.probe}${p.path ? ` (${p.method} ${p.path})` : ''}`);
    const inner = [
      ...p.differences.map((d) => `      <failure type="difference" message="${xml(d)}">${xml(d)}</failure>`),
      ...(p.skipped ? [`      <skipped message="${xml(p.skipped)}"/>`] : []),
    ];
    const open = `    <testcase classname="verify" name="${name}"`;
    return inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xml(suite)}" tests="${tests}" failures="${failures}" skipped="${skipped}">\n` +
    `  <testsuite name="${xml(suite)}" tests="${tests}" failures="${failures}" skipped="${skipped}">\n` +
    (cases.length ? `${cases.join('\n')}\n` : '') +
    '  </testsuite>\n</testsuites>\n'
  );
}
