/**
 * The delivery store port: every delivery a send or campaign made, kept as the batches
 * they came in, queried, counted and bucketed by time.
 */
import type { DeliveryFilterSchema } from '../../schemas/control.js';
import type { Delivery } from '../../schemas/records.js';
import type { FilterOf, ListResult, Page } from './lists.js';
import type { Ids } from './platform.js';

/** What GET /__inspect/deliveries filters on, as its schema parses it (`since`, `until`: epoch ms, inclusive). */
export type DeliveryFilter = FilterOf<typeof DeliveryFilterSchema>;

/** Deliveries created in [start, start + bucketMs) on the emulator clock, by status. */
export interface DeliveryBucket {
  /** Epoch ms of the bucket's start. */
  start: number;
  sent: number;
  failed: number;
}

/** A DeliveryBucket of the deliveries that went through one channel type. */
export interface ChannelDeliveryBucket extends DeliveryBucket {
  channel: string;
}

/** The fields every delivery of one send shares, named as on Delivery (filters read either). */
export type SharedDeliveryFields = Pick<
  Delivery,
  | 'appId'
  | 'notificationId'
  | 'campaignId'
  | 'templateId'
  | 'templateKey'
  | 'channels'
  | 'mode'
  | 'title'
  | 'tag'
  | 'pushData'
  | 'createdAt'
>;

/** The content a template renders for one set of variables: a fresh object per call. */
export type RenderContent = (variables: Record<string, unknown>) => Record<string, unknown>;

/**
 * One value for every user of a batch, or one per user (in the order of its user ids): given,
 * or read by index when a delivery is built (a campaign's variables stay packed in its store).
 */
export type PerUser<T> =
  { readonly all: T } | { readonly each: readonly T[] } | { readonly eachAt: (index: number) => T };

/** How a delivery failed: its record's `failureReason` (never null here) and `scenario`. */
export interface DeliveryFailureMark {
  reason: NonNullable<Delivery['failureReason']>;
  scenario: Delivery['scenario'];
}

/** The deliveries of one send (or one chunk of a campaign), as plain data. */
export interface DeliveryBatch {
  shared: SharedDeliveryFields;
  userIds: readonly string[];
  variables: PerUser<Record<string, unknown>>;
  /**
   * A delivery's content from its variables: the template's content as it was at the send,
   * and pure, so the store may keep this and render when a delivery is read (deliveries.ts).
   */
  render: RenderContent;
  /** Failed deliveries by index into userIds; every other one was sent. */
  failures: ReadonlyMap<number, DeliveryFailureMark>;
}

/** A stored batch read back by index: its delivery ids, and each delivery as a record. */
export interface StoredDeliveries {
  readonly length: number;
  idAt(index: number): string;
  at(index: number): Delivery;
}

export interface DeliveryStore {
  /**
   * Stores a batch; its deliveries get ids from `ids`, in user order (what one objectId()
   * call per delivery would give). How the batch is held is the store's business.
   */
  addDeliveries(batch: DeliveryBatch, ids: Ids): StoredDeliveries;
  queryDeliveries(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  countDeliveries(filter: DeliveryFilter): number;
  /** One delivery by its id (newest first scan; undefined when unknown or dropped by the cap). */
  getDelivery(id: string): Delivery | undefined;
  /** Matching deliveries counted per time bucket (`bucketMs` wide, from the epoch) and status. */
  countDeliveriesByTime(filter: DeliveryFilter, bucketMs: number): DeliveryBucket[];
  /** The same per channel type a delivery went through (one that went through two counts in both). */
  countDeliveriesByChannelAndTime(filter: DeliveryFilter, bucketMs: number): ChannelDeliveryBucket[];
}
