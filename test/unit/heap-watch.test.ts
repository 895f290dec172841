/**
 * The heap watch (src/platform/memory.ts): one warning line per crossing of 80% of the heap
 * limit, up and back down, read from an injected reader; and /__health reports the reading.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { watchHeap, type MemoryReading } from '../../src/platform/memory.js';
import { createLogger } from '../../src/platform/logger.js';
import { call, makeTestApp } from '../helpers/app.js';

const MiB = 1024 * 1024;
const reading = (heapUsedMiB: number): MemoryReading => ({
  rssBytes: 300 * MiB,
  heapUsedBytes: heapUsedMiB * MiB,
  heapLimitBytes: 100 * MiB,
});

describe('heap watch', () => {
  const stops: (() => void)[] = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it('warns once when the heap passes 80% of its limit and once when it is back under', () => {
    const lines: string[] = [];
    let current = reading(50);
    const watch = watchHeap(
      () => current,
      createLogger('warn', (l) => lines.push(l)),
      60_000,
    );
    stops.push(watch.stop);
    watch.check();
    expect(lines).toEqual([]);
    current = reading(81);
    watch.check();
    current = reading(95);
    watch.check();
    expect(lines).toEqual([
      '[notification-emulator] warn: heap past 80% of its limit (81 MiB of 100 MiB): lower the retention caps ' +
        '(--max-deliveries and the others) or give Node more heap (--max-old-space-size).',
    ]);
    current = reading(80);
    watch.check();
    watch.check();
    expect(lines.slice(1)).toEqual([
      '[notification-emulator] warn: heap back under 80% of its limit (80 MiB of 100 MiB).',
    ]);
    current = reading(90);
    watch.check();
    expect(lines).toHaveLength(3);
  });

  it('/__health reports the memory the reader gives', async () => {
    const app = makeTestApp({ memory: () => reading(42) });
    const res = await call<{ memory: MemoryReading }>(app, 'GET', '/__health');
    expect(res.body.memory).toEqual({ rssBytes: 300 * MiB, heapUsedBytes: 42 * MiB, heapLimitBytes: 100 * MiB });
    await app.emulator.close();
  });

  it('/__health reports the process memory by default', async () => {
    const app = makeTestApp();
    const { memory } = (await call<{ memory: MemoryReading }>(app, 'GET', '/__health')).body;
    expect(memory.rssBytes).toBeGreaterThan(memory.heapUsedBytes);
    expect(memory.heapLimitBytes).toBeGreaterThan(memory.heapUsedBytes);
    await app.emulator.close();
  });
});
