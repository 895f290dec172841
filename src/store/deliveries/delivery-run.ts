/**
 * How the delivery log holds a batch (ports.ts DeliveryBatch): one record with per-user
 * columns, the user ids packed into one string, the delivery ids named by index from a
 * reserved range, the content rendered when read. Delivery objects are built only when
 * someone reads them, so a 10,000-target send stores a few heap objects instead of 10,000,
 * and a batch of one (a realtime send) a handful (SingleDelivery). The domain never sees this
 * format: it hands the store a plain batch.
 */
import type { Delivery } from '../../schemas/records.js';
import type {
  IdRange,
  DeliveryBatch,
  DeliveryFailureMark,
  Ids,
  PerUser,
  RenderContent,
  SharedDeliveryFields,
  StoredDeliveries,
} from '../../domain/ports.js';
import { PackedText } from '../common/packed-text.js';

/** Read-only list access: an array, or strings packed into one (see packStrings). */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Where `value` sits in the list, ascending: found in the packed text when packed, else member by member. */
export function indexesOf(list: StringList, value: string): number[] {
  if (list instanceof PackedText) return list.indexesOf(value);
  const found: number[] = [];
  for (let i = 0; i < list.length; i++) if (list.at(i) === value) found.push(i);
  return found;
}

/**
 * The strings in one heap string plus end offsets (packed-text.ts). A stored batch then holds
 * two objects instead of 10,000 strings, which the garbage collector would copy when they
 * survive and mark on every full collection (bench/: batch send, and a million stored deliveries).
 */
export const packStrings = (values: readonly string[]): StringList => PackedText.of(values);

export interface DeliveryRun {
  /** Held by reference: every member's record reads these. */
  readonly shared: SharedDeliveryFields;
  readonly userIds: StringList;
  /** Delivery id of member `i` (a range reserved when the run is stored; see Ids.objectIds). */
  readonly ids: IdRange;
  readonly variables: PerUser<Record<string, unknown>>;
  readonly render: RenderContent;
  /** Failed members by index; every other member was sent. */
  readonly failures: ReadonlyMap<number, DeliveryFailureMark>;
}

/** A batch as a run: its ids reserved in one step; its user ids as given (see packedRun). */
export function runOf(batch: DeliveryBatch, ids: Ids): DeliveryRun {
  const userIds = batch.userIds;
  return {
    shared: batch.shared,
    userIds,
    ids: ids.objectIds(userIds.length),
    variables: batch.variables,
    render: batch.render,
    failures: batch.failures,
  };
}

/** The same run with its user ids packed into one string (packStrings), or the run itself when they are. */
export function packedRun(run: DeliveryRun): DeliveryRun {
  if (!Array.isArray(run.userIds)) return run;
  return { ...run, userIds: packStrings(run.userIds as readonly string[]) };
}

/** The stored run as the domain reads it back (ids and records by index). */
export const storedView = (run: DeliveryRun): StoredDeliveries => ({
  length: run.userIds.length,
  idAt: (i) => run.ids.at(i),
  at: (i) => deliveryAt(run, i),
});

export const memberValue = <T>(values: PerUser<T>, i: number): T =>
  'all' in values ? values.all : 'each' in values ? (values.each[i] as T) : values.eachAt(i);

export const memberStatus = (run: DeliveryRun, i: number): Delivery['status'] =>
  run.failures.has(i) ? 'failed' : 'sent';

/** Member `i` as a Delivery record. */
export function deliveryAt(run: DeliveryRun, i: number): Delivery {
  // Read once: a campaign's are built from its recipients' columns (and inflated) per read.
  const variables = memberValue(run.variables, i);
  return toDelivery(
    run.shared,
    run.ids.at(i),
    run.userIds.at(i) as string,
    variables,
    run.render(variables),
    run.failures.get(i),
  );
}

/** The one place a Delivery record is shaped (same key order for every delivery). */
export function toDelivery(
  shared: SharedDeliveryFields,
  id: string,
  userId: string,
  variables: Record<string, unknown>,
  rendered: Record<string, unknown>,
  failure: DeliveryFailureMark | null | undefined,
): Delivery {
  return {
    id,
    appId: shared.appId,
    notificationId: shared.notificationId,
    campaignId: shared.campaignId,
    userId,
    templateId: shared.templateId,
    templateKey: shared.templateKey,
    channels: shared.channels,
    mode: shared.mode,
    title: shared.title,
    tag: shared.tag,
    variables,
    rendered,
    pushData: shared.pushData,
    status: failure ? 'failed' : 'sent',
    failureReason: failure?.reason ?? null,
    scenario: failure?.scenario ?? null,
    createdAt: shared.createdAt,
  };
}

/**
 * A run of one as the log keeps it: no per-user columns, packing or wrappers, so that a
 * realtime send keeps its notification and about four objects here (the entry, the id
 * range, the user id, the variables), rather than a full delivery record with its id and
 * rendered content. The shared fields are copied into the entry rather than kept in an
 * object of their own, as a Delivery record holds them. Each object kept costs the garbage
 * collector a copy when it survives and a mark on every full collection while it lives,
 * and a loaded emulator holds up to a million of these (docs/performance.md).
 * It names its fields as a Delivery does where the log reads both alike (userId, status).
 */
export class SingleDelivery implements SharedDeliveryFields {
  readonly appId: SharedDeliveryFields['appId'];
  readonly notificationId: SharedDeliveryFields['notificationId'];
  readonly campaignId: SharedDeliveryFields['campaignId'];
  readonly templateId: SharedDeliveryFields['templateId'];
  readonly templateKey: SharedDeliveryFields['templateKey'];
  readonly channels: SharedDeliveryFields['channels'];
  readonly mode: SharedDeliveryFields['mode'];
  readonly title: SharedDeliveryFields['title'];
  readonly tag: SharedDeliveryFields['tag'];
  readonly pushData: SharedDeliveryFields['pushData'];
  readonly createdAt: SharedDeliveryFields['createdAt'];
  readonly ids: IdRange;
  readonly userId: string;
  readonly variables: Record<string, unknown>;
  readonly render: RenderContent;
  readonly failure: DeliveryFailureMark | undefined;

  constructor(run: DeliveryRun) {
    const shared = run.shared;
    this.appId = shared.appId;
    this.notificationId = shared.notificationId;
    this.campaignId = shared.campaignId;
    this.templateId = shared.templateId;
    this.templateKey = shared.templateKey;
    this.channels = shared.channels;
    this.mode = shared.mode;
    this.title = shared.title;
    this.tag = shared.tag;
    this.pushData = shared.pushData;
    this.createdAt = shared.createdAt;
    this.ids = run.ids;
    this.userId = run.userIds.at(0)!;
    this.variables = memberValue(run.variables, 0);
    this.render = run.render;
    this.failure = run.failures.get(0);
  }

  /** The fields every member of a run shares: for a run of one, its own. */
  get shared(): SharedDeliveryFields {
    return this;
  }

  get status(): Delivery['status'] {
    return this.failure ? 'failed' : 'sent';
  }

  toDelivery(): Delivery {
    return toDelivery(
      this.shared,
      this.ids.at(0),
      this.userId,
      this.variables,
      this.render(this.variables),
      this.failure,
    );
  }
}
