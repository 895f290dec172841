/**
 * Seeded randomness and ids, one source per emulator instance, so `--seed` makes a run
 * reproducible and two emulators in one process never share a stream.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Clock, IdRange, Ids, RandomSource } from '../domain/ports.js';

/** mulberry32: tiny, fast, good enough for fault probabilities and test data. */
export function createRandom(seed?: number): Required<RandomSource> & { readonly seed: number } {
  const initial = seed ?? randomInt(0, 2 ** 31);
  let state = initial >>> 0;
  return {
    seed: initial,
    state: () => state,
    resume(saved) {
      state = saved >>> 0;
    },
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

function randomHex(random: RandomSource, length: number): string {
  let out = '';
  while (out.length < length)
    out += Math.floor(random.next() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return out.slice(0, length);
}

/** The 6 hex digits of an id's counter (which wraps at 2^24). */
const counterHex = (value: number): string => ((value % 0x1000000) + 0x1000000).toString(16).slice(1);

/**
 * `count` ids from counter `first` under one prefix, named when asked. An object of three
 * fields rather than closures: every send stores one (a realtime send keeps its range instead
 * of its id), and each object kept is work for the garbage collector.
 */
class ObjectIdRange implements IdRange {
  constructor(
    readonly prefix: string,
    private readonly first: number,
    private readonly count: number,
  ) {}

  at(index: number): string {
    return this.prefix + counterHex(this.first + index);
  }

  /** The prefix, then the counter read back from the last 6 hex digits (the range may wrap). */
  indexOf(id: string): number {
    if (id.length !== 24 || !id.startsWith(this.prefix)) return -1;
    const index = (Number.parseInt(id.slice(18), 16) - this.first + 0x1000000) % 0x1000000;
    return index < this.count && this.at(index) === id ? index : -1;
  }
}

/** Where an id source stands: its 10 machine hex digits and the counter of the last id it gave. */
export interface IdSequence {
  machine: string;
  counter: number;
}

/** Ids whose sequence can be saved and taken up again (a trace's export and import). */
export interface SequencedIds extends Ids {
  sequence(): IdSequence;
  /** Goes on from `saved`: the ids given next follow the saved ones and never repeat them. */
  resume(saved: IdSequence): void;
}

/** ObjectId-shaped ids: 4-byte seconds of the emulator clock, 5 random bytes, 3-byte counter. */
export function createIds(clock: Clock, random: RandomSource): SequencedIds {
  let counter = Math.floor(random.next() * 0xffffff);
  let machine = randomHex(random, 10);
  // The seconds + machine prefix changes at most once a second: built once per second, not per id.
  let prefixSeconds = -1;
  let prefix = '';
  const currentPrefix = (): string => {
    const seconds = Math.floor(clock.now() / 1000) % 0x100000000;
    if (seconds !== prefixSeconds) {
      prefixSeconds = seconds;
      prefix = seconds.toString(16).padStart(8, '0') + machine;
    }
    return prefix;
  };
  const objectId = (): string => {
    counter = (counter + 1) % 0x1000000;
    return currentPrefix() + counterHex(counter);
  };
  const objectIds = (count: number): IdRange => {
    const first = (counter + 1) % 0x1000000;
    counter = (counter + count) % 0x1000000;
    return new ObjectIdRange(currentPrefix(), first, count);
  };
  return {
    objectId,
    objectIds,
    notificationId: () => `notif_${objectId()}`,
    sequence: () => ({ machine, counter }),
    resume(saved) {
      machine = saved.machine;
      counter = saved.counter;
      prefixSeconds = -1;
    },
  };
}

/** A stable 24-hex id derived from a template key (docs/reference.md#templates: id optional in fixtures). */
export function stableIdFromKey(key: string): string {
  return stableId(`template:${key}`);
}

/** 24 hex characters derived from `text`: the same on every run. */
export function stableId(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 24);
}
