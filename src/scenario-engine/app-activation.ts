/**
 * Each app's own scenario activation (docs/reference.md#scenarios): an app with its own active
 * set is ruled by it alone (the global set no longer applies to it), and draws its
 * `probability` rules from a random source of its own, so with --seed an app's sequence of
 * draws does not depend on what other apps do.
 */
import type { RandomSource } from '../domain/ports.js';

/** Every app's own active set, by app id: what a data file and a trace keep. */
export type AppActivationSnapshot = Record<string, string[]>;

export class AppActivation {
  readonly #sets = new Map<string, string[]>();
  readonly #randoms = new Map<string, RandomSource>();

  /** `randomFor(appId)` makes an app's random source (seeded from --seed and the app id). */
  constructor(private readonly randomFor: (appId: string) => RandomSource) {}

  /** App `appId`'s own set, or undefined while the global set applies to it. */
  setOf(appId: string | null): readonly string[] | undefined {
    return appId === null || this.#sets.size === 0 ? undefined : this.#sets.get(appId);
  }

  set(appId: string, names: readonly string[]): void {
    this.#sets.set(appId, [...new Set(names)]);
  }

  /** Back to the global set; false when the app had none of its own. */
  clear(appId: string): boolean {
    return this.#sets.delete(appId);
  }

  /** Drops an unloaded scenario from every app's set; returns the apps whose set changed. */
  drop(name: string): string[] {
    const changed = [...this.#sets].filter(([, names]) => names.includes(name)).map(([appId]) => appId);
    for (const appId of changed)
      this.#sets.set(
        appId,
        this.#sets.get(appId)!.filter((n) => n !== name),
      );
    return changed;
  }

  /** App `appId`'s random source (made on first draw). */
  random(appId: string): RandomSource {
    let random = this.#randoms.get(appId);
    if (!random) this.#randoms.set(appId, (random = this.randomFor(appId)));
    return random;
  }

  /** One app's (or every app's) sequence of draws starts over, as after a start with --seed. */
  restartDraws(appId?: string): void {
    if (appId === undefined) this.#randoms.clear();
    else this.#randoms.delete(appId);
  }

  /** Every app back to the global set (POST /__reset). */
  clearAll(): string[] {
    const apps = [...this.#sets.keys()];
    this.#sets.clear();
    return apps;
  }

  snapshot(): AppActivationSnapshot {
    return Object.fromEntries([...this.#sets].map(([appId, names]) => [appId, [...names]]));
  }
}
