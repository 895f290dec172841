/**
 * Runtime templates through the API (docs/reference.md#beyond-the-spec,
 * docs/fidelity.md#templates-api): create (draft), update
 * with status transitions, hard delete. App-scoped; a PUT on a shared fixture template
 * creates the app's override copy (same id and key); fixture templates cannot be deleted.
 */
import type { Template } from '../schemas/records.js';
import type { CreateTemplateBody, UpdateTemplateBody } from '../schemas/templates.js';
import { toVariableArray } from '../schemas/template-file.js';
import { badRequest, type ErrorDetails } from './errors.js';
import { templateNotFound } from './error-messages.js';
import type { ChannelCatalog, AppClockSource, Ids, Store, TemplateCatalog } from './ports.js';
import { slugFromName } from './slug.js';
import { channelIdsOf, extrasOf, toTemplateView, type RuntimeTemplate, type TemplateView } from './template-view.js';

type Status = Template['status'];

/**
 * Legal status changes [decided; the real docs name the states, not the transitions]:
 * draft → approved | archived, approved → archived, archived → draft (to rework and
 * re-approve). Refused: approved → draft, archived → approved. Same status: no-op.
 */
export const TEMPLATE_TRANSITIONS: Record<Status, readonly Status[]> = {
  draft: ['approved', 'archived'],
  approved: ['archived'],
  archived: ['draft'],
};

export interface TemplateServiceDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clocks: AppClockSource;
  ids: Ids;
}

function assertTemplateStatusChange(from: Status, to: Status): void {
  if (from === to || TEMPLATE_TRANSITIONS[from].includes(to)) return;
  const allowed = TEMPLATE_TRANSITIONS[from].map((s) => `"${s}"`).join(' or ');
  throw badRequest(`A template in status "${from}" cannot move to "${to}"; from "${from}" it can move to ${allowed}.`, {
    status: `cannot change from "${from}" to "${to}" (allowed: ${allowed})`,
  });
}

function find(deps: TemplateServiceDeps, appId: string, ref: string): Template {
  const template = deps.templates.find(appId, ref);
  if (!template)
    throw templateNotFound(
      ref,
      deps.templates.origin,
      deps.templates.list(appId).map((t) => t.key),
    );
  return template;
}

/**
 * Channel ids (or keys: an emulator convenience) → the ids and their (unique) types, each
 * checked to be a channel of this app.
 */
function resolveChannels(deps: TemplateServiceDeps, appId: string, refs: string[]): { ids: string[]; types: string[] } {
  const details: ErrorDetails = {};
  const ids: string[] = [];
  const types: string[] = [];
  refs.forEach((ref, i) => {
    const channel = deps.channels.find(appId, ref);
    if (!channel) details[`channelIds.${i}`] = `no channel with id or key "${ref}" in this app`;
    else {
      if (!ids.includes(channel.id)) ids.push(channel.id);
      if (!types.includes(channel.type)) types.push(channel.type);
    }
  });
  if (Object.keys(details).length)
    throw badRequest(
      'channelIds names channels that do not exist in this app (create them with POST /api/channels).',
      details,
    );
  return { ids, types };
}

/** Visible templates, one per key (the app's own wins over a shared fixture). */
function visible(deps: TemplateServiceDeps, appId: string): Template[] {
  const byKey = new Map<string, Template>();
  for (const t of deps.templates.list(appId)) {
    const winner = deps.templates.findByKey(appId, t.key);
    if (winner && !byKey.has(t.key)) byKey.set(t.key, winner);
  }
  return [...byKey.values()];
}

function listTemplates(deps: TemplateServiceDeps, appId: string, filter: { channelId?: string }): TemplateView[] {
  // The channel's key works too; an unknown channel matches no template.
  const channelId =
    filter.channelId === undefined ? undefined : (deps.channels.find(appId, filter.channelId)?.id ?? null);
  const list = visible(deps, appId).filter(
    (t) => channelId === undefined || (channelId !== null && channelIdsOf(deps.channels, appId, t).includes(channelId)),
  );
  return list.map((t) => toTemplateView(deps.channels, appId, t));
}

function getTemplate(deps: TemplateServiceDeps, appId: string, ref: string): TemplateView {
  return toTemplateView(deps.channels, appId, find(deps, appId, ref));
}

function createTemplate(deps: TemplateServiceDeps, appId: string, body: CreateTemplateBody): TemplateView {
  const key = body.templateId ?? slugFromName(body.name, 'name');
  const clash = deps.templates.findByKey(appId, key);
  if (clash) {
    const field = body.templateId ? 'templateId' : 'name';
    throw badRequest(`Template slug "${key}" is already used by template ${clash.id}; choose another templateId.`, {
      [field]: `slug "${key}" is already used by template ${clash.id}`,
    });
  }
  const variableSchema = toVariableArray(body.variableSchema);
  const linked = resolveChannels(deps, appId, body.channelIds);
  const now = deps.clocks.clockFor(appId).nowIso();
  const template: RuntimeTemplate = {
    id: deps.ids.objectId(),
    key,
    name: body.name,
    status: 'draft',
    channels: linked.types,
    variableSchema,
    content: body.content,
    category: body.category ?? null,
    appId,
    source: 'runtime',
    createdAt: now,
    updatedAt: now,
    channelIds: linked.ids,
    config: body.config,
    availability: body.availability ?? null,
    sequence: body.sequence ?? null,
  };
  deps.store.putRuntimeTemplate(template);
  return toTemplateView(deps.channels, appId, template);
}

function updateTemplate(deps: TemplateServiceDeps, appId: string, ref: string, body: UpdateTemplateBody): TemplateView {
  const current = find(deps, appId, ref);
  for (const field of ['templateId', 'key'] as const) {
    const value = body[field];
    if (value !== undefined && value !== current.key) {
      throw badRequest(`The slug of template ${current.id} is immutable (it is "${current.key}").`, {
        [field]: 'is immutable after creation',
      });
    }
  }
  if (body.status !== undefined) assertTemplateStatusChange(current.status, body.status);
  const extras = extrasOf(current);
  const linked = body.channelIds ? resolveChannels(deps, appId, body.channelIds) : undefined;
  const channelIds = linked?.ids ?? channelIdsOf(deps.channels, appId, current);
  const next: RuntimeTemplate = {
    ...current,
    name: body.name ?? current.name,
    category: body.category !== undefined ? body.category : current.category,
    status: body.status ?? current.status,
    variableSchema: body.variableSchema ? toVariableArray(body.variableSchema) : current.variableSchema,
    channels: linked?.types ?? current.channels,
    content: body.content ?? current.content,
    // A shared fixture becomes this app's override copy (same id and key) [decided].
    appId,
    source: 'runtime',
    updatedAt: deps.clocks.clockFor(appId).nowIso(),
    channelIds,
    config: body.config ?? extras.config,
    availability: body.availability !== undefined ? body.availability : extras.availability,
    sequence: body.sequence !== undefined ? body.sequence : extras.sequence,
  };
  deps.store.putRuntimeTemplate(next);
  return toTemplateView(deps.channels, appId, next);
}

function removeTemplate(deps: TemplateServiceDeps, appId: string, ref: string): { success: true } {
  const current = find(deps, appId, ref);
  if (current.source === 'fixture') {
    throw badRequest(
      `Template "${current.key}" comes from the fixture files and is read-only; archive it instead (PUT ` +
        `{"status":"archived"}) or edit fixtures/templates.`,
      { id: 'fixture templates cannot be deleted' },
    );
  }
  // Deleting an override brings the shared fixture template back into view.
  deps.store.deleteRuntimeTemplate(current.id, current.appId);
  // Real docs: deleting a template deletes its template-channel rows.
  deps.store.deleteTemplateChannels(appId, current.id);
  return { success: true };
}

export function createTemplateService(deps: TemplateServiceDeps) {
  return {
    list: (appId: string, filter: { channelId?: string }) => listTemplates(deps, appId, filter),
    get: (appId: string, ref: string) => getTemplate(deps, appId, ref),
    create: (appId: string, body: CreateTemplateBody) => createTemplate(deps, appId, body),
    update: (appId: string, ref: string, body: UpdateTemplateBody) => updateTemplate(deps, appId, ref, body),
    remove: (appId: string, ref: string) => removeTemplate(deps, appId, ref),
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
