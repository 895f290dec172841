/**
 * One clock per app (docs/reference.md#clock): every app follows the shared clock until it
 * is given one of its own (`POST /__clock?appId=`), which starts at the shared clock's current
 * instant and then moves alone; `DELETE /__clock?appId=` puts the app back on the shared one.
 * `clockFor(appId)` is the app's view of time: one Map lookup, then the same calls as the
 * shared clock. Work scheduled through the view (a scheduled campaign) moves with the app
 * when it switches between its own clock and the shared one.
 */
import type { Clock } from '../domain/ports.js';
import { EmulatorClock, type ClockMode } from './clock.js';

/** An app's own clock as the data file and a trace keep it. */
export interface OwnClockState {
  mode: ClockMode;
  /** ISO instant of a manual clock (ignored for a real one). */
  now: string;
}

/** Every app that runs on its own clock, by app id. */
export type AppClocksSnapshot = Record<string, OwnClockState>;

interface AppTimer {
  at: number;
  fn: () => void;
  cancel: () => void;
}

/** Idle views (shared clock, nothing scheduled) are dropped past this many apps: a new view is the same. */
const SWEEP_AT = 10_000;

/** One app's view of time: its own clock when it has one, else the shared clock. */
class AppClock implements Clock {
  #own: EmulatorClock | undefined;
  readonly #timers = new Set<AppTimer>();

  constructor(private readonly shared: EmulatorClock) {}

  /** The clock the app reads now. */
  get current(): EmulatorClock {
    return this.#own ?? this.shared;
  }

  get hasOwn(): boolean {
    return this.#own !== undefined;
  }

  get idle(): boolean {
    return this.#own === undefined && this.#timers.size === 0;
  }

  now(): number {
    return (this.#own ?? this.shared).now();
  }

  nowIso(): string {
    return (this.#own ?? this.shared).nowIso();
  }

  schedule(atMs: number, fn: () => void): () => void {
    const timer: AppTimer = { at: atMs, fn, cancel: () => {} };
    this.#timers.add(timer);
    this.#arm(timer);
    return () => {
      timer.cancel();
      this.#timers.delete(timer);
    };
  }

  /** Switches the app to `own` (or back to the shared clock), moving what it has scheduled along. */
  switchTo(own: EmulatorClock | undefined): void {
    for (const timer of this.#timers) timer.cancel();
    this.#own?.close();
    this.#own = own;
    for (const timer of this.#timers) this.#arm(timer);
  }

  #arm(timer: AppTimer): void {
    timer.cancel = this.current.schedule(timer.at, () => {
      this.#timers.delete(timer);
      timer.fn();
    });
  }
}

export class AppClocks {
  readonly #views = new Map<string, AppClock>();

  /** `onChange(appId)` is told after an app's own clock is made, moved or dropped (the data file keeps it). */
  constructor(
    readonly shared: EmulatorClock,
    private readonly onChange: (appId: string) => void = () => {},
  ) {}

  /** App `appId`'s view of time (the shared clock's, until it has its own). */
  clockFor(appId: string): Clock {
    return this.#views.get(appId) ?? this.#newView(appId);
  }

  /** The clock app `appId` reads now: its own, or the shared one. */
  currentOf(appId: string): EmulatorClock {
    return this.#views.get(appId)?.current ?? this.shared;
  }

  scopeOf(appId: string): 'app' | 'shared' {
    return this.#views.get(appId)?.hasOwn ? 'app' : 'shared';
  }

  /**
   * Moves app `appId`'s own clock with `move` (made first, at the shared clock's instant and
   * frozen there, when the app has none). Work the app scheduled that comes due fires during
   * the move, as on the shared clock.
   */
  move(appId: string, move: (own: EmulatorClock) => void): EmulatorClock {
    const view = this.#views.get(appId) ?? this.#newView(appId);
    if (!view.hasOwn) view.switchTo(new EmulatorClock(this.shared.now()));
    move(view.current);
    this.onChange(appId);
    return view.current;
  }

  /** Back to the shared clock: one app's, or every app's. */
  release(appId?: string): void {
    const apps = appId === undefined ? [...this.#views.keys()] : [appId];
    for (const id of apps) {
      const view = this.#views.get(id);
      if (!view?.hasOwn) continue;
      view.switchTo(undefined);
      this.onChange(id);
    }
  }

  /** Every app's own clock, as plain data. */
  snapshot(): AppClocksSnapshot {
    const out: AppClocksSnapshot = {};
    for (const [appId, view] of this.#views) if (view.hasOwn) out[appId] = this.stateOf(appId)!;
    return out;
  }

  /** App `appId`'s own clock as plain data; null when it follows the shared clock. */
  stateOf(appId: string): OwnClockState | null {
    const view = this.#views.get(appId);
    return view?.hasOwn ? { mode: view.current.mode, now: view.current.nowIso() } : null;
  }

  /** Gives the apps of `snapshot` their own clocks as they were (every other app keeps its own). */
  restore(snapshot: AppClocksSnapshot): void {
    for (const [appId, state] of Object.entries(snapshot)) {
      const view = this.#views.get(appId) ?? this.#newView(appId);
      view.switchTo(state.mode === 'real' ? new EmulatorClock() : new EmulatorClock(state.now));
    }
  }

  close(): void {
    for (const view of this.#views.values()) view.switchTo(undefined);
    this.#views.clear();
  }

  #newView(appId: string): AppClock {
    if (this.#views.size >= SWEEP_AT) for (const [id, v] of this.#views) if (v.idle) this.#views.delete(id);
    const view = new AppClock(this.shared);
    this.#views.set(appId, view);
    return view;
  }
}
