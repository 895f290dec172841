/**
 * What the delivery log holds on its line: a delivery record (loaded from a data file), a
 * run (delivery-run.ts), or a run of one (a realtime send), read through one set of
 * accessors. A record and a run of one name their user and status alike.
 */
import type { Delivery } from '../../schemas/records.js';
import type { SharedDeliveryFields } from '../../domain/ports.js';
import { deliveryAt, memberStatus, OneDelivery, type DeliveryRun } from './delivery-run.js';

/** A run as the log holds it: its first `start` members were dropped by the retention cap. */
export class RunEntry {
  constructor(
    /** Replaced once by the same run with its user ids packed (delivery-log.ts, packSoon). */
    public run: DeliveryRun,
    public start = 0,
  ) {}
}

export type Entry = Delivery | RunEntry | OneDelivery;

export const sharedOf = (e: Entry): SharedDeliveryFields =>
  e instanceof RunEntry ? e.run.shared : e instanceof OneDelivery ? e.shared : e;
/** Members before this one were dropped by the cap. */
export const firstMember = (e: Entry): number => (e instanceof RunEntry ? e.start : 0);
/** Members the entry was added with, dropped ones included. */
export const memberCount = (e: Entry): number => (e instanceof RunEntry ? e.run.userIds.length : 1);
export const userAt = (e: Entry, i: number): string => (e instanceof RunEntry ? e.run.userIds.at(i)! : e.userId);
export const statusAt = (e: Entry, i: number): string => (e instanceof RunEntry ? memberStatus(e.run, i) : e.status);
export const memberAt = (e: Entry, i: number): Delivery =>
  e instanceof RunEntry ? deliveryAt(e.run, i) : e instanceof OneDelivery ? e.toDelivery() : e;

/** The member whose delivery id is `id`, dropped ones included, or -1: a range is asked, not named id by id. */
export const memberWithId = (e: Entry, id: string): number =>
  e instanceof RunEntry ? e.run.ids.indexOf(id) : e.id === id ? 0 : -1;

/** Characters an id block leaves off the end of an id (idBlock). */
const BLOCK_TAIL = 2;

/**
 * The text a block of ids shares: all but the last two characters. Of an ObjectId, whose last
 * six hex digits count up, that is a block of 256 made in one second by one emulator, so a key
 * per block stands for hundreds of sends where a key per id is one per send; whoever reads a
 * block tests its entries for the one id (at most 256 realtime sends: ~0.03 ms). Any id has a
 * block (a short one's is "").
 */
export const idBlock = (id: string): string => id.slice(0, Math.max(0, id.length - BLOCK_TAIL));

/** Text every delivery id of the entry starts with (a record's own id: it has one). */
export function idPrefixOf(e: Entry): string {
  if (e instanceof RunEntry) return e.run.ids.prefix;
  // A send of one has one id: its block, where the range's prefix would be shared by every
  // realtime send of the second (tens of thousands).
  return e instanceof OneDelivery ? idBlock(e.id) : e.id;
}

/** Failed members, dropped ones included. */
export const failedCount = (e: Entry): number =>
  e instanceof RunEntry ? e.run.failures.size : e.status === 'failed' ? 1 : 0;

/** Failed members before member `before` (the ones a partly dropped run has lost). */
export function failedBefore(e: Entry, before: number): number {
  if (!(e instanceof RunEntry)) return 0;
  let failed = 0;
  for (const index of e.run.failures.keys()) if (index < before) failed++;
  return failed;
}

/** Live members that failed. */
export const liveFailures = (e: Entry): number => failedCount(e) - failedBefore(e, firstMember(e));

/** Live members whose status is `status` (every live member when undefined), counted without visiting them. */
export function liveMatches(e: Entry, status: string | undefined): number {
  const live = memberCount(e) - firstMember(e);
  if (status === undefined) return live;
  if (status === 'failed') return liveFailures(e);
  return status === 'sent' ? live - liveFailures(e) : 0;
}

/** The live members of `e` whose status is `status` (all when undefined), ascending. */
export function liveMembersWith(e: Entry, status: string | undefined): number[] {
  // A run's failures are few next to its members: read from its map, not found member by member.
  if (status === 'failed' && e instanceof RunEntry)
    return [...e.run.failures.keys()].filter((i) => i >= e.start).sort((a, b) => a - b);
  const members: number[] = [];
  for (let i = firstMember(e); i < memberCount(e); i++)
    if (status === undefined || statusAt(e, i) === status) members.push(i);
  return members;
}
