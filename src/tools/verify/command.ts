/**
 * `notification-emulator verify`: reads the live account's templates and channels as `pull`
 * does, starts an emulator holding exactly them, sends the battery (battery.ts) to both and
 * reports each difference. Exit 0 all agree, 1 any differ, 2 the live service could not be
 * asked (or bad usage). The emulator is started by the caller's function: the CLI passes
 * one built on startEmulator, which this layer may not import.
 */
import { writeFileSync } from 'node:fs';
import { templateFileOf } from '../fixture-set.js';
import { createLiveClient, LiveReadError, type LiveClient } from '../live/client.js';
import {
  clientFor,
  COMMON_FLAGS_HELP,
  defaultIo,
  readLive,
  runLiveCommand,
  type LiveCommandIo,
  type LiveOptions,
} from '../live-commands.js';
import { BATTERY, probeTarget, type Probe, type ProbeContext } from './battery.js';
import { compareAnswers, errorCodeOf, type ProbeAnswer } from './compare.js';
import { buildReport, renderJunit, renderText, type ProbeResult } from './report.js';

export const VERIFY_HELP = `Usage: notification-emulator verify --app-id A (--region R | --base-url URL)
         [--json] [--junit FILE]

Reads the live account's templates and channels, starts an emulator holding exactly them,
sends the same ${BATTERY.length} probes to both (reads, and writes the service must refuse before
anything is delivered or stored: docs/verify.md lists each and why it is safe) and reports
every difference in status, error code and the shape of the answers.
Exit 0 when all agree, 1 when any differ, 2 when the live service could not be asked.
  --json              print the report as JSON
  --junit FILE        also write the report as JUnit XML (one test case per probe)
${COMMON_FLAGS_HELP}
`;

/** An emulator the command starts: the base URL its API answers under, and how to stop it. */
export interface LocalEmulator {
  baseUrl: string;
  close(): Promise<void>;
}

/** What the emulator is to hold: the live account's app id and key, templates and channels (fixture format). */
export interface LocalAccount {
  appId: string;
  apiKey: string;
  templates: unknown[];
  channels: unknown[];
}

export type StartLocalEmulator = (account: LocalAccount) => Promise<LocalEmulator>;

/** Why the live service could not be asked, from the failed read. */
function cannotAsk(error: LiveReadError): string {
  if (error.status === undefined) return 'the live service is unreachable';
  if (error.status === 401 || error.status === 403) return 'the live service refused the API key';
  if (error.status === 404) return 'the live service does not know this account';
  return 'the live service did not answer the reads';
}

async function answerOf(client: LiveClient, probe: Probe, path: string): Promise<ProbeAnswer> {
  const response = await client.send(path, { method: probe.method, headers: probe.headers, body: probe.body });
  return { status: response.status, contentType: response.headers.get('content-type'), text: response.text };
}

function summary(answer: ProbeAnswer) {
  let code: string | null = null;
  try {
    code = errorCodeOf(JSON.parse(answer.text));
  } catch {
    // Not JSON: no code to show.
  }
  return { status: answer.status, code };
}

/** Each probe sent to both, one at a time (the live service sees no burst). */
async function runBattery(live: LiveClient, emulator: LiveClient, context: ProbeContext): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const probe of BATTERY) {
    const target = probeTarget(probe, context);
    const base = { probe: probe.name, method: probe.method };
    if ('skipped' in target) {
      const none = { live: null, emulator: null, differences: [] };
      results.push({ ...base, path: null, ...none, verdict: 'skipped', skipped: target.skipped });
      continue;
    }
    const liveAnswer = await answerOf(live, probe, target.path);
    const emulatorAnswer = await answerOf(emulator, probe, target.path).catch((error: unknown) => {
      // Not the live service's failure: exit 1 with the reason, not 2.
      throw error instanceof LiveReadError ? new Error(`the emulator did not answer: ${error.message}`) : error;
    });
    const differences = compareAnswers(liveAnswer, emulatorAnswer, probe);
    results.push({
      ...base,
      path: target.path,
      live: summary(liveAnswer),
      emulator: summary(emulatorAnswer),
      verdict: differences.length ? 'differs' : 'agree',
      differences,
    });
  }
  return results;
}

async function verify(options: LiveOptions, io: LiveCommandIo, startLocal: StartLocalEmulator): Promise<number> {
  let account;
  try {
    ({ snapshot: account } = await readLive(options, io, 'verify'));
  } catch (error) {
    if (!(error instanceof LiveReadError)) throw error;
    io.stderr.write(`notification-emulator verify: ${cannotAsk(error)}: ${error.message}\n`);
    return 2;
  }
  const templates = account.templates.map(templateFileOf);
  const channels = account.channels ?? [];
  const local = await startLocal({ appId: options.appId, apiKey: options.apiKey, templates, channels });
  let probes: ProbeResult[];
  try {
    const first = account.templates[0];
    const context: ProbeContext = {
      template: first ? { id: first.id, key: first.key } : null,
      templateKeys: new Set(account.templates.map((t) => t.key)),
    };
    const emulator = createLiveClient({ ...options, baseUrl: local.baseUrl, maxRetryWaitMs: 60_000 });
    probes = await runBattery(clientFor(options, io, 'verify'), emulator, context);
  } catch (error) {
    if (!(error instanceof LiveReadError)) throw error;
    io.stderr.write(`notification-emulator verify: ${cannotAsk(error)}: ${error.message}\n`);
    return 2;
  } finally {
    await local.close();
  }
  const report = buildReport(
    options.appId,
    options.baseUrl,
    { templates: templates.length, channels: channels.length },
    probes,
  );
  const junit = options.values.junit;
  if (typeof junit === 'string' && junit) {
    try {
      writeFileSync(junit, renderJunit(report));
    } catch (error) {
      io.stderr.write(`notification-emulator verify: cannot write --junit ${junit}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  io.stdout.write(options.values.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report));
  return report.ok ? 0 : 1;
}

export function runVerify(
  argv: string[],
  startLocal: StartLocalEmulator,
  io: LiveCommandIo = defaultIo(),
): Promise<number> {
  const flags = { json: { type: 'boolean' }, junit: { type: 'string' } } as const;
  return runLiveCommand('verify', VERIFY_HELP, flags, argv, io, (options, out) => verify(options, out, startLocal));
}
