/**
 * Time, ids, randomness and yielding: what the domain takes from the platform instead of
 * reading Node or the wall clock itself.
 */

export interface Clock {
  /** Epoch milliseconds on the emulator's clock (real or manual). */
  now(): number;
  /** `now()` as ISO 8601 text (what toISOString gives), the form every record stores. */
  nowIso(): string;
  /** Calls `fn` once the clock reaches `atMs`; at once on a manual advance past it. Returns a cancel function. */
  schedule(atMs: number, fn: () => void): () => void;
}

/**
 * Each app's clock (an app follows the shared clock until it has its own): what the domain
 * reads time from for an app's records and schedules that app's work with.
 */
export interface AppClockSource {
  clockFor(appId: string): Clock;
}

/** Ids reserved together, named by index when asked. */
export interface IdRange {
  /** Text every id of the range starts with: a store finds the range of an id by it. */
  readonly prefix: string;
  /** The id at `index` of the range. */
  at(index: number): string;
  /** The index `id` has in the range, or -1, found without naming every id of the range. */
  indexOf(id: string): number;
}

export interface Ids {
  /** 24 lowercase hex characters, ObjectId-shaped (timestamp + random + counter). */
  objectId(): string;
  /** Reserves `count` consecutive ids (what `count` objectId() calls would give) and names them by index, lazily. */
  objectIds(count: number): IdRange;
  /** `notif_` + 24 hex. */
  notificationId(): string;
}

export interface RandomSource {
  /** Uniform in [0, 1), from the instance's seeded generator. */
  next(): number;
  /** Where the generator stands in its sequence (a trace keeps it); a source a test injects may not say. */
  state?(): number;
  /** Goes on from a `state()` saved earlier: the draws that follow are the ones that followed then. */
  resume?(state: number): void;
}

/** How background work yields: injected so the domain needs no timers of its own. */
export interface CampaignRuntime {
  /** Runs `fn` on a later turn of the event loop (setImmediate on Node). */
  defer(fn: () => void): void;
  /** Monotonic milliseconds, for the per-chunk time budget. */
  elapsed(): number;
}
