/**
 * Rule counters (`matched`, `applied`) of the scenario engine, one set per layer: the global
 * activation, each app's own activation (`app` + app id) and each app's header activation
 * (`header` + app id), so parallel tests on different apps never share a count.
 */

export interface Counter {
  matched: number;
  applied: number;
}

/** Whose counts: the global set, an app's own set, or an app's x-emulator-scenario header. */
export type Layer = 'global' | `app:${string}` | `header:${string}`;

/** The counter table as plain data: [layer, scenario, rule index, matched, applied] rows. */
export type CountersSnapshot = [Layer, string, number, number, number][];

const SEP = '\u0000';

export class RuleCounters {
  readonly #counters = new Map<string, Counter>();

  /** The counter of rule `index` of `name` in `layer`, made on first use. */
  of(layer: Layer, name: string, index: number): Counter {
    const key = `${name}${SEP}${index}${SEP}${layer}`;
    let c = this.#counters.get(key);
    if (!c) this.#counters.set(key, (c = { matched: 0, applied: 0 }));
    return c;
  }

  /** The counter if it has counted anything (reads make none). */
  peek(layer: Layer, name: string, index: number): Counter | undefined {
    return this.#counters.get(`${name}${SEP}${index}${SEP}${layer}`);
  }

  /** The sum over every layer `pick` keeps (GET /__scenarios without an app shows every app's header counts). */
  sum(name: string, index: number, pick: (layer: Layer) => boolean): Counter {
    const total = { matched: 0, applied: 0 };
    const prefix = `${name}${SEP}${index}${SEP}`;
    for (const [key, c] of this.#counters) {
      if (!key.startsWith(prefix) || !pick(key.slice(prefix.length) as Layer)) continue;
      total.matched += c.matched;
      total.applied += c.applied;
    }
    return total;
  }

  /** Forgets the counts of one scenario (its definition changed, or it was unloaded). */
  clearScenario(name: string): void {
    for (const key of this.#counters.keys()) if (key.startsWith(`${name}${SEP}`)) this.#counters.delete(key);
  }

  /** Forgets the counts of the layers `pick` keeps, or all. */
  clear(pick?: (layer: Layer) => boolean): void {
    if (!pick) return this.#counters.clear();
    for (const key of this.#counters.keys()) if (pick(key.split(SEP)[2] as Layer)) this.#counters.delete(key);
  }

  /** The counts of the layers `pick` keeps (all when none), as rows. */
  snapshot(pick?: (layer: Layer) => boolean): CountersSnapshot {
    const rows: CountersSnapshot = [];
    for (const [key, c] of this.#counters) {
      const [name, index, layer] = key.split(SEP) as [string, string, Layer];
      if (!pick || pick(layer)) rows.push([layer, name, Number(index), c.matched, c.applied]);
    }
    return rows;
  }

  /** Replaces the counts of the layers `pick` keeps (all when none) with `rows`. */
  restore(rows: CountersSnapshot, pick?: (layer: Layer) => boolean): void {
    this.clear(pick);
    for (const [layer, name, index, matched, applied] of rows)
      if (!pick || pick(layer)) Object.assign(this.of(layer, name, index), { matched, applied });
  }
}
