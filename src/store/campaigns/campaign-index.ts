/**
 * Campaigns by app, by status and by both, each list in creation order, so a filtered page
 * of campaigns is sliced from one list instead of filtering every campaign. A campaign moves
 * between status lists as it changes (draft → sending → sent…): found by binary search on
 * its creation number, never by a pass over the list.
 */
import type { CampaignFilter, ListResult, Page } from '../../domain/ports.js';
import { firstAtOrAfter } from '../common/position-index.js';

const SEP = '\u0000';
const keysOf = (appId: string, status: string) => [
  '',
  `a${SEP}${appId}`,
  `s${SEP}${status}`,
  `b${SEP}${appId}${SEP}${status}`,
];

function keyOf({ appId, status }: CampaignFilter): string {
  if (appId !== undefined && status !== undefined) return `b${SEP}${appId}${SEP}${status}`;
  if (appId !== undefined) return `a${SEP}${appId}`;
  return status === undefined ? '' : `s${SEP}${status}`;
}

export class CampaignIndex {
  /** Campaign id → its creation number; and back. */
  readonly #seqOf = new Map<string, number>();
  readonly #idOf = new Map<number, string>();
  /** Key → creation numbers, ascending. */
  readonly #lists = new Map<string, number[]>();
  #next = 0;

  /** A new campaign (the newest). */
  add(id: string, appId: string, status: string): void {
    const seq = this.#next++;
    this.#seqOf.set(id, seq);
    this.#idOf.set(seq, id);
    for (const key of keysOf(appId, status)) {
      const list = this.#lists.get(key);
      if (list) list.push(seq);
      else this.#lists.set(key, [seq]);
    }
  }

  /** A campaign whose status changed from `before` to `after`. */
  move(id: string, appId: string, before: string, after: string): void {
    const seq = this.#seqOf.get(id);
    if (seq === undefined || before === after) return;
    const [, , ...was] = keysOf(appId, before);
    const [, , ...now] = keysOf(appId, after);
    for (const key of was) this.#take(key, seq);
    for (const key of now) {
      const list = this.#lists.get(key);
      if (list) list.splice(firstAtOrAfter(list, seq), 0, seq);
      else this.#lists.set(key, [seq]);
    }
  }

  remove(id: string, appId: string, status: string): void {
    const seq = this.#seqOf.get(id);
    if (seq === undefined) return;
    this.#seqOf.delete(id);
    this.#idOf.delete(seq);
    for (const key of keysOf(appId, status)) this.#take(key, seq);
  }

  clear(): void {
    this.#seqOf.clear();
    this.#idOf.clear();
    this.#lists.clear();
  }

  /** The ids of one page (creation order, or newest first with `desc`) and how many match. */
  page(filter: CampaignFilter, page: Page): ListResult<string> {
    const list = this.#lists.get(keyOf(filter)) ?? [];
    const desc = page.order === 'desc';
    const items: string[] = [];
    for (let k = page.offset; k < list.length && items.length < page.limit; k++)
      items.push(this.#idOf.get(list[desc ? list.length - 1 - k : k]!)!);
    return { total: list.length, items };
  }

  #take(key: string, seq: number): void {
    const list = this.#lists.get(key);
    if (!list) return;
    const at = firstAtOrAfter(list, seq);
    if (list[at] === seq) list.splice(at, 1);
    if (list.length === 0) this.#lists.delete(key);
  }
}
