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
import { counterAfter, joinCounter, RunPrefixes } from '../common/string-column.js';

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
 * What a run of one shares with the sends before it: every shared field but its notification
 * and its time, and the renderer. A load test sends one template, a CI fleet a few, so the
 * log keeps one of these per template (SingleProfiles) rather than ten fields per send.
 */
export interface SingleProfile {
  readonly appId: SharedDeliveryFields['appId'];
  readonly campaignId: SharedDeliveryFields['campaignId'];
  readonly templateId: SharedDeliveryFields['templateId'];
  readonly templateKey: SharedDeliveryFields['templateKey'];
  readonly channels: SharedDeliveryFields['channels'];
  readonly mode: SharedDeliveryFields['mode'];
  readonly title: SharedDeliveryFields['title'];
  readonly tag: SharedDeliveryFields['tag'];
  readonly pushData: SharedDeliveryFields['pushData'];
  readonly render: RenderContent;
}

/** Whether a send's fields are those of `p` (found by the send's renderer, which it has). */
const sameProfile = (p: SingleProfile, shared: SharedDeliveryFields): boolean =>
  p.appId === shared.appId &&
  p.campaignId === shared.campaignId &&
  p.templateId === shared.templateId &&
  p.templateKey === shared.templateKey &&
  p.channels === shared.channels &&
  p.mode === shared.mode &&
  p.title === shared.title &&
  p.tag === shared.tag &&
  p.pushData === shared.pushData;

/**
 * What a log's runs of one share with the sends before them. Their profile: the newest per
 * renderer (one per template and its rows), which a send whose fields are those of the last
 * send with its renderer shares, and any other starts anew (a title or tag of its own, say);
 * weakly held, so a renderer no delivery keeps goes with its profile. And the prefix of their
 * notification ids, one string per second.
 */
export class SingleShares {
  readonly #newest = new WeakMap<RenderContent, SingleProfile>();
  readonly notificationPrefixes = new RunPrefixes();

  profileOf(run: DeliveryRun): SingleProfile {
    const { shared, render } = run;
    const newest = this.#newest.get(render);
    if (newest !== undefined && sameProfile(newest, shared)) return newest;
    const profile: SingleProfile = {
      appId: shared.appId,
      campaignId: shared.campaignId,
      templateId: shared.templateId,
      templateKey: shared.templateKey,
      channels: shared.channels,
      mode: shared.mode,
      title: shared.title,
      tag: shared.tag,
      pushData: shared.pushData,
      render,
    };
    this.#newest.set(render, profile);
    return profile;
  }
}

/**
 * A delivery that is an entry of its own in the log (a realtime send): its profile and what is
 * its own, however they are kept (SingleDelivery as made, SealedSingle in a block:
 * single-block.ts). It names its fields as a Delivery does where the log reads both alike
 * (id, userId, status), and is its own SharedDeliveryFields.
 */
export abstract class OneDelivery implements SharedDeliveryFields {
  abstract readonly profile: SingleProfile;
  abstract readonly notificationId: SharedDeliveryFields['notificationId'];
  abstract readonly createdAt: SharedDeliveryFields['createdAt'];
  abstract readonly id: string;
  abstract readonly userId: string;
  abstract readonly variables: Record<string, unknown>;
  abstract readonly failure: DeliveryFailureMark | undefined;

  get appId(): SharedDeliveryFields['appId'] {
    return this.profile.appId;
  }
  get campaignId(): SharedDeliveryFields['campaignId'] {
    return this.profile.campaignId;
  }
  get templateId(): SharedDeliveryFields['templateId'] {
    return this.profile.templateId;
  }
  get templateKey(): SharedDeliveryFields['templateKey'] {
    return this.profile.templateKey;
  }
  get channels(): SharedDeliveryFields['channels'] {
    return this.profile.channels;
  }
  get mode(): SharedDeliveryFields['mode'] {
    return this.profile.mode;
  }
  get title(): SharedDeliveryFields['title'] {
    return this.profile.title;
  }
  get tag(): SharedDeliveryFields['tag'] {
    return this.profile.tag;
  }
  get pushData(): SharedDeliveryFields['pushData'] {
    return this.profile.pushData;
  }

  /** The fields every member of a run shares: for a run of one, its own. */
  get shared(): SharedDeliveryFields {
    return this;
  }

  get status(): Delivery['status'] {
    return this.failure ? 'failed' : 'sent';
  }

  toDelivery(): Delivery {
    const variables = this.variables;
    return toDelivery(this, this.id, this.userId, variables, this.profile.render(variables), this.failure);
  }
}

/** An id kept as its prefix and counter, or whole (counter -1). */
const idOf = (prefix: string, counter: number): string => (counter < 0 ? prefix : joinCounter(prefix, counter));

/**
 * A run of one as the log keeps it until it seals it with the sends around it
 * (single-block.ts): its profile, shared with the sends before it, and what is its own
 * (notification, time, delivery id, user, variables, failure). No per-user columns, packing,
 * wrappers or id range, and each of its ids as a prefix shared with the sends of its second
 * and a counter: each object kept costs the garbage collector a copy when it survives and a
 * mark on every full collection while it lives (docs/performance.md).
 */
export class SingleDelivery extends OneDelivery {
  readonly profile: SingleProfile;
  /** The notification id's prefix, or the whole id (or null) without a counter (notificationCounter -1). */
  readonly notificationPrefix: string | null;
  readonly notificationCounter: number;
  readonly createdAt: SharedDeliveryFields['createdAt'];
  /** The delivery id's prefix, or the whole id when it does not end in a counter (idCounter -1). */
  readonly idPrefix: string;
  readonly idCounter: number;
  readonly userId: string;
  readonly variables: Record<string, unknown>;
  readonly failure: DeliveryFailureMark | undefined;

  constructor(run: DeliveryRun, shares: SingleShares) {
    super();
    this.profile = shares.profileOf(run);
    const notificationId = run.shared.notificationId;
    const prefix = notificationId === null ? null : shares.notificationPrefixes.of(notificationId);
    this.notificationCounter = prefix === null ? -1 : counterAfter(notificationId!, prefix);
    this.notificationPrefix = prefix ?? notificationId;
    this.createdAt = run.shared.createdAt;
    const id = run.ids.at(0);
    this.idCounter = counterAfter(id, run.ids.prefix);
    this.idPrefix = this.idCounter < 0 ? id : run.ids.prefix;
    this.userId = run.userIds.at(0)!;
    this.variables = memberValue(run.variables, 0);
    this.failure = run.failures.get(0);
  }

  get id(): string {
    return idOf(this.idPrefix, this.idCounter);
  }

  get notificationId(): SharedDeliveryFields['notificationId'] {
    return this.notificationPrefix === null ? null : idOf(this.notificationPrefix, this.notificationCounter);
  }
}
