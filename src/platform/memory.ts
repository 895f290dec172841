/**
 * The process's memory as /__health reports it, and the watch that logs one warning line
 * when the heap passes 80% of its limit and one when it is back under (a container near
 * its limit says so in its log before it is killed, not after).
 */
import { getHeapStatistics } from 'node:v8';
import type { Logger } from './logger.js';

export interface MemoryReading {
  rssBytes: number;
  heapUsedBytes: number;
  /** The V8 heap's limit (--max-old-space-size, or Node's default for the machine). */
  heapLimitBytes: number;
}

export type MemoryReader = () => MemoryReading;

/** The real process: V8's heap statistics and the resident set size (cheap: no heap walk). */
export const readProcessMemory: MemoryReader = () => {
  const heap = getHeapStatistics();
  return {
    rssBytes: process.memoryUsage.rss(),
    heapUsedBytes: heap.used_heap_size,
    heapLimitBytes: heap.heap_size_limit,
  };
};

/** Share of the heap limit past which the watch warns. */
export const HEAP_WARNING_SHARE = 0.8;

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/**
 * Reads the memory every `intervalMs` (an unref'd timer) and logs a warning on each
 * crossing of HEAP_WARNING_SHARE, never on every reading. `check` reads once now (tests).
 */
export function watchHeap(read: MemoryReader, logger: Logger, intervalMs = 5_000) {
  let high = false;
  const check = () => {
    const { heapUsedBytes, heapLimitBytes } = read();
    const above = heapUsedBytes > heapLimitBytes * HEAP_WARNING_SHARE;
    if (above === high) return;
    high = above;
    const figures = `${mib(heapUsedBytes)} of ${mib(heapLimitBytes)}`;
    if (above)
      logger.warn(
        `heap past ${HEAP_WARNING_SHARE * 100}% of its limit (${figures}): lower the retention caps ` +
          `(--max-deliveries and the others) or give Node more heap (--max-old-space-size).`,
      );
    else logger.warn(`heap back under ${HEAP_WARNING_SHARE * 100}% of its limit (${figures}).`);
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
