/**
 * The data the screenshots (and a few tests) show: sends over the last hour of a manual clock,
 * failures from a scenario, a finished and a scheduled campaign, an active scenario.
 */
import { EmulatorClock, type RunningEmulator } from '../../src/index.js';
import type { MemoryReading } from '../../src/platform/memory.js';
import { campaign, IMAGE_URL, PAGE_CLOCK_START, send, sendCampaign, startPageEmulator } from './harness.js';

const MIB = 1024 * 1024;
/** What /__health shows of memory: the same on every run. */
const MEMORY: MemoryReading = { rssBytes: 182 * MIB, heapUsedBytes: 64 * MIB, heapLimitBytes: 4144 * MIB };

/**
 * A stopwatch that follows the manual clock (uptime: the seeded hour) and moves on a little at
 * each read, by a step that varies in a fixed pattern: request durations look measured and are
 * the same on every run, as long as requests come one at a time (the seed sends them so).
 */
function clockStopwatch(clock: EmulatorClock): () => number {
  let last = 0;
  let reads = 0;
  return () => (last = Math.max(last, clock.now()) + 0.25 + ((reads++ * 7) % 13) * 0.11);
}

/** Seed 7 on a manual clock, with a fixed stopwatch and memory reading: ids, times and figures repeat. */
export async function startSeeded(options: { adminToken?: string } = {}): Promise<RunningEmulator> {
  const clock = new EmulatorClock(PAGE_CLOCK_START);
  return startPageEmulator({
    seed: 7,
    scenarios: undefined,
    scenariosDir: 'scenarios',
    clock,
    stopwatch: clockStopwatch(clock),
    memory: () => MEMORY,
    ...options,
  });
}

export async function seed(emu: RunningEmulator): Promise<{ campaignId: string; scheduledId: string }> {
  const names = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Ken', 'Radia'];
  for (let minute = 0; minute < 50; minute++) {
    const users = Array.from({ length: 1 + ((minute * 7) % 5) }, (_, i) => `user-${minute}${i}`);
    await send(
      emu,
      users,
      {
        name: names[minute % names.length],
        discount_code: `BF-${100 + minute}`,
        hero: { url: IMAGE_URL, width: 600, height: 300 },
      },
      { headers: minute % 6 === 0 ? { 'x-emulator-scenario': 'flaky-devices' } : {} },
    );
    if (minute % 9 === 4) {
      await send(
        emu,
        [`user-9${minute}`],
        { name: 'Eve', discount_code: 'BF-X' },
        { headers: { 'x-emulator-scenario': 'flaky-devices' } },
      );
    }
    await emu.client.clock.advance(60_000);
  }
  await send(emu, ['user-1'], { name: 'Ada' }); // a 400: discount_code missing
  await send(
    emu,
    ['user-2'],
    { customerName: 'Grace', orderId: 'ORD-1', cta: { type: 'web', data: 'https://shop.example/o/1' } },
    { template: 'order-confirmation' },
  );
  const campaignId = await campaign(
    emu,
    'Black Friday launch',
    Array.from({ length: 40 }, (_, i) => `user-${1000 + i}`),
  );
  await sendCampaign(emu, campaignId);
  await emu.client.waitForDeliveries({ campaignId }, { count: 40 });
  const scheduledId = await campaign(emu, 'Cyber Monday teaser', ['user-1', 'user-2', 'user-3']);
  await sendCampaign(emu, scheduledId, '2030-11-29T12:00:00Z');
  await campaign(emu, 'Holiday draft', ['user-4']);
  await emu.client.scenarios.activate(['slow-network']);
  return { campaignId, scheduledId };
}
