/**
 * The trace writer gives the event loop back while it works, records passed over included: a
 * one-app export of a big state walks every other app's records too, and /__health must keep
 * being answered meanwhile.
 */
import { expect, it } from 'vitest';
import { captureTrace } from '../../src/trace/capture.js';
import { PASSED_OVER, TRACE_LIST_NAMES, type TraceHeader, type TraceSource } from '../../src/trace/schema.js';
import { traceChunks } from '../../src/trace/write.js';
import { callOk, makeTestApp, manualClock } from '../helpers/app.js';

/** The header of a fresh emulator's export: the lists are the test's. */
async function header(): Promise<TraceHeader> {
  const text = await (await makeTestApp({ clock: manualClock(), scenarios: [] }).request('/__export')).text();
  return JSON.parse(text.slice(0, text.indexOf('\n') - 1) + '}') as TraceHeader;
}

it('gives the event loop back while it passes over records of other apps', async () => {
  let turned = false;
  let passed = 0;
  const LIMIT = 20_000_000;
  // Passes over records until the event loop has had a turn (or LIMIT: the writer never gave it back).
  function* others(): Generator<typeof PASSED_OVER> {
    for (; passed < LIMIT && !turned; passed++) yield PASSED_OVER;
  }
  const empty = Object.fromEntries(TRACE_LIST_NAMES.map((name) => [name, []])) as unknown as Omit<
    TraceSource,
    keyof TraceHeader
  >;
  const source: TraceSource = { ...(await header()), ...empty, deliveries: others() };
  setImmediate(() => (turned = true));
  let text = '';
  for await (const chunk of traceChunks(source)) text += chunk;
  expect(turned).toBe(true);
  expect(passed).toBeLessThan(LIMIT);
  expect(JSON.parse(text)).toMatchObject({ format: 'notification-emulator-trace', deliveries: [] });
});

it("hands the writer every other app's record as passed over, not one long walk to the next of its own", async () => {
  const app = makeTestApp({ clock: manualClock(), scenarios: [] });
  const send = (appId: string, targets: string[]) =>
    callOk(
      app,
      'POST',
      '/api/notifications/send',
      { template: { key: 'plain' }, targets, mode: 'batch' },
      {
        appId,
        apiKey: 'k',
      },
    );
  await send('app-a', ['a1', 'a2', 'a3']);
  await send('app-b', ['b1']);
  const listed = [...captureTrace(app.emulator, 'app-b').deliveries];
  expect(listed.map((d) => (d === PASSED_OVER ? 'passed over' : d.userId))).toEqual([
    'passed over',
    'passed over',
    'passed over',
    'b1',
  ]);
});
