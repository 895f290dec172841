/**
 * The emulator's clock: real time by default, or manual time that tests and
 * `POST /__clock` move. Scheduled work (campaigns with `scheduledAt`) is registered here
 * and fires on a real timer, or at once when manual time is moved past it.
 */
import type { Clock } from '../domain/ports.js';
import { instantProblem } from '../domain/instants.js';

export type ClockMode = 'real' | 'manual';

interface Timer {
  at: number;
  fn: () => void;
  handle: NodeJS.Timeout | undefined;
}

/** Node timers cannot wait longer than this; longer waits re-arm. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class EmulatorClock implements Clock {
  #mode: ClockMode;
  #manualNow: number;
  /** How the clock started, for reset(). */
  readonly #start: { mode: ClockMode; at: number };
  readonly #timers = new Set<Timer>();
  /** The start of the ISO text for one second (`2030-01-01T00:00:00.`): built once per second, not per record. */
  #isoSecond = { second: Number.NaN, prefix: '' };
  /**
   * The last text given and its instant. Records made in the same millisecond (a load test
   * makes dozens) then keep one string between them rather than one each: every string kept
   * is an object the garbage collector copies and marks (docs/performance.md).
   */
  #lastIsoMs = Number.NaN;
  #lastIsoText = '';

  /** With `start`, the clock begins in manual mode at that instant. */
  constructor(start?: Date | string | number) {
    this.#mode = start === undefined ? 'real' : 'manual';
    this.#manualNow = start === undefined ? 0 : new Date(start).getTime();
    if (start !== undefined && instantProblem(this.#manualNow) !== null)
      throw new RangeError(`clock: start ${String(start)} ${instantProblem(this.#manualNow)}`);
    this.#start = { mode: this.#mode, at: this.#manualNow };
  }

  /** Back to how it started: real time, or manual time at the start instant. Scheduled callbacks stay. */
  reset(): void {
    if (this.#start.mode === 'real') return this.useRealTime();
    this.#mode = 'manual';
    this.#manualNow = this.#start.at;
    for (const timer of this.#timers) clearTimeout(timer.handle);
  }

  get mode(): ClockMode {
    return this.#mode;
  }

  now(): number {
    return this.#mode === 'real' ? Date.now() : this.#manualNow;
  }

  nowIso(): string {
    const ms = this.now();
    if (ms !== this.#lastIsoMs) {
      this.#lastIsoMs = ms;
      this.#lastIsoText = this.#isoOf(ms);
    }
    return this.#lastIsoText;
  }

  #isoOf(ms: number): string {
    const second = Math.floor(ms / 1000);
    // Outside four-digit years toISOString has another shape: no shortcut there.
    if (ms < 0 || ms >= 253402300800000) return new Date(ms).toISOString();
    if (second !== this.#isoSecond.second)
      this.#isoSecond = { second, prefix: new Date(second * 1000).toISOString().slice(0, 20) };
    return `${this.#isoSecond.prefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
  }

  schedule(atMs: number, fn: () => void): () => void {
    const timer: Timer = { at: atMs, fn, handle: undefined };
    this.#timers.add(timer);
    this.#arm(timer);
    return () => this.#cancel(timer);
  }

  /** Switches to manual time (from the current instant) and moves it forward. */
  advance(ms: number): void {
    this.#toManual(this.now() + ms);
  }

  /** Switches to manual time and sets it. */
  set(instant: Date | string | number): void {
    this.#toManual(new Date(instant).getTime());
  }

  useRealTime(): void {
    this.#mode = 'real';
    for (const timer of this.#timers) this.#arm(timer);
  }

  /** Number of pending scheduled callbacks. */
  get pending(): number {
    return this.#timers.size;
  }

  close(): void {
    for (const timer of this.#timers) clearTimeout(timer.handle);
    this.#timers.clear();
  }

  #toManual(instant: number): void {
    // Callers check first (a 400 for the request); this keeps a bad instant from ever being set.
    const problem = instantProblem(instant);
    if (problem !== null) throw new RangeError(`clock: ${instant} ${problem}`);
    this.#mode = 'manual';
    this.#manualNow = instant;
    for (const timer of this.#timers) clearTimeout(timer.handle);
    this.#fireDue();
  }

  #fireDue(): void {
    const due = [...this.#timers].filter((t) => t.at <= this.now()).sort((a, b) => a.at - b.at);
    for (const timer of due) {
      this.#cancel(timer);
      timer.fn();
    }
  }

  #arm(timer: Timer): void {
    clearTimeout(timer.handle);
    timer.handle = undefined;
    if (this.#mode !== 'real') return;
    const wait = timer.at - Date.now();
    if (wait <= 0) {
      // Fire on the next turn so callers finish registering first.
      timer.handle = setTimeout(() => this.#fireDue(), 0);
    } else {
      // Re-armed when not due yet: past MAX_TIMEOUT_MS, and when the timer (monotonic clock)
      // comes due a millisecond before Date.now() reaches the instant, which would lose it.
      timer.handle = setTimeout(
        () => (Date.now() < timer.at ? this.#arm(timer) : this.#fireDue()),
        Math.min(wait, MAX_TIMEOUT_MS),
      );
    }
    timer.handle.unref();
  }

  #cancel(timer: Timer): void {
    clearTimeout(timer.handle);
    this.#timers.delete(timer);
  }
}

/** Wall-clock milliseconds for uptime and durations, independent of the emulator clock. */
export const realNow = (): number => performance.timeOrigin + performance.now();

/** Where request durations and uptime are read from: realNow, or one a test injects to fix them. */
export type Stopwatch = () => number;
