/**
 * Turns a (template, user, variables) triple into a Delivery record, asking the fault
 * policy whether it fails. Used by one-call sends and by campaign sends alike.
 */
import type { Delivery, Template } from '../schemas/records.js';
import type { DeliveryFaultPolicy, Ids } from './ports.js';
import { renderContent } from './variables.js';

export interface DeliveryContext {
  appId: string;
  template: Template;
  mode: Delivery['mode'];
  title: string | null;
  tag: string | null;
  pushData: Record<string, unknown> | null;
  notificationId: string | null;
  campaignId: string | null;
  createdAt: string;
  ids: Ids;
  faults: DeliveryFaultPolicy;
}

/** Renders once per distinct variables object, so a 10,000-target batch with shared variables renders once. */
export function createDeliveryBuilder(ctx: DeliveryContext): (userId: string, variables: Record<string, unknown>) => Delivery {
  const renderCache = new WeakMap<object, Record<string, unknown>>();
  const render = (variables: Record<string, unknown>) => {
    let rendered = renderCache.get(variables);
    if (!rendered) renderCache.set(variables, (rendered = renderContent(ctx.template.content, variables) as Record<string, unknown>));
    return rendered;
  };
  return (userId, variables) => {
    const failure = ctx.faults({ appId: ctx.appId, userId, templateKey: ctx.template.key, campaignId: ctx.campaignId });
    return {
      id: ctx.ids.objectId(),
      appId: ctx.appId,
      notificationId: ctx.notificationId,
      campaignId: ctx.campaignId,
      userId,
      templateId: ctx.template.id,
      templateKey: ctx.template.key,
      channels: ctx.template.channels,
      mode: ctx.mode,
      title: ctx.title,
      tag: ctx.tag,
      variables,
      rendered: render(variables),
      pushData: ctx.pushData,
      status: failure ? 'failed' : 'sent',
      failureReason: failure?.reason ?? null,
      scenario: failure?.scenario ?? null,
      createdAt: ctx.createdAt,
    };
  };
}
