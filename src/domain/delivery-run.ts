/**
 * A delivery run: the deliveries of one batch send, which share everything but the user,
 * kept as one record with per-user columns. Delivery objects are built only when someone
 * reads them, so a 10,000-target send stores a few objects instead of 10,000 (bench/).
 */
import type { Delivery } from '../schemas/records.js';

/** The fields every delivery of a run has in common, named as on Delivery (filters read either). */
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

/** One value for every member, or one per member (batch sends with per-target variables). */
export type PerMember<T> = { readonly all: T } | { readonly each: readonly T[] };

export interface FailureMark {
  reason: string;
  scenario: string | null;
}

/** Read-only list access: an array, or strings packed into one (see packStrings). */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/**
 * The strings in one heap string plus end offsets. A stored batch then holds two objects
 * instead of 10,000 strings, which the garbage collector would copy when they survive and
 * mark on every full collection (bench/: batch send, and a million stored deliveries).
 */
export function packStrings(values: readonly string[]): StringList {
  const text = values.join('');
  const ends = new Uint32Array(values.length);
  let end = 0;
  for (let i = 0; i < values.length; i++) ends[i] = end += (values[i] as string).length;
  return {
    length: values.length,
    at: (index) =>
      index < 0 || index >= ends.length ? undefined : text.slice(index === 0 ? 0 : ends[index - 1], ends[index]),
  };
}

export interface DeliveryRun {
  /** Held by reference: every member's record reads these. */
  readonly shared: SharedDeliveryFields;
  readonly userIds: StringList;
  /** Delivery id of member `i` (ids are reserved when the run is made; see Ids.objectIds). */
  readonly idAt: (i: number) => string;
  readonly variables: PerMember<Record<string, unknown>>;
  readonly rendered: PerMember<Record<string, unknown>>;
  /** Failed members by index; every other member was sent. */
  readonly failures: ReadonlyMap<number, FailureMark>;
}

export const memberValue = <T>(values: PerMember<T>, i: number): T =>
  'all' in values ? values.all : (values.each[i] as T);

export const memberStatus = (run: DeliveryRun, i: number): Delivery['status'] =>
  run.failures.has(i) ? 'failed' : 'sent';

/** Member `i` as a Delivery record. */
export function deliveryAt(run: DeliveryRun, i: number): Delivery {
  return toDelivery(
    run.shared,
    run.idAt(i),
    run.userIds.at(i) as string,
    memberValue(run.variables, i),
    memberValue(run.rendered, i),
    run.failures.get(i),
  );
}

/** The one place a Delivery record is shaped (same key order for runs and one-by-one sends). */
export function toDelivery(
  shared: SharedDeliveryFields,
  id: string,
  userId: string,
  variables: Record<string, unknown>,
  rendered: Record<string, unknown>,
  failure: FailureMark | null | undefined,
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
