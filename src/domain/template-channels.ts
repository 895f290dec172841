/**
 * Template-channel rows: the content of a template for one of its channels. A row created
 * (or replaced) through the API belongs to the calling app. A linked channel without such
 * a row has a "derived" row when the template has content for it: the fixture file's row
 * for that channel, else the template's own `content` for the channel's type (fixture
 * file, or the `content` extension of POST /api/templates). Derived rows are listed and
 * answered like stored ones; a POST or PUT for the pair stores the app's own row.
 */
import type { Template } from '../schemas/records.js';
import type { Channel } from '../schemas/channels.js';
import type { PageWindow } from '../schemas/paging.js';
import { slicePage } from '../schemas/paging.js';
import { isJsonObject } from '../schemas/json-object.js';
import type {
  CreateTemplateChannelBody,
  TemplateChannel,
  TemplateChannelRecord,
  UpdateTemplateChannelBody,
} from '../schemas/template-channels.js';
import { badRequest, notFound } from './errors.js';
import { templateChannelRowMissing } from './error-messages.js';
import type { AppClockSource, ChannelCatalog, ListResult, Store, TemplateCatalog } from './ports.js';
import { channelIdsOf } from './template-view.js';

export interface TemplateChannelServiceDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clocks: AppClockSource;
}

const toRow = (r: TemplateChannelRecord): TemplateChannel => ({
  templateId: r.templateId,
  channelId: r.channelId,
  channelType: r.channelType,
  content: r.content,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export type ContentByType = ReadonlyMap<string, Record<string, unknown>>;
const NO_CONTENT: ContentByType = new Map();

/** The template's linked channels visible to the app, in the template's order. */
function linkedChannels(channels: ChannelCatalog, appId: string, template: Template): Channel[] {
  const ids = channelIdsOf(channels, appId, template);
  if (ids.length === 0) return [];
  const all = channels.list(appId);
  return ids.map((id) => all.find((ch) => ch.id === id)).filter((ch): ch is Channel => ch !== undefined);
}

/**
 * Channel type → the content a send renders for it from rows (the app's, else the fixture
 * file's): the first enabled linked channel of that type with a row, in the template's
 * channel order. A disabled channel's row is never sent (its type may still go out through
 * another linked channel). Types without a row are absent: the template's `content`
 * applies to them. Asked on every send, so the common case (no rows) returns at once.
 */
export function rowContentByType(
  store: Store,
  channels: ChannelCatalog,
  appId: string,
  template: Template,
): ContentByType {
  const stored = store.listTemplateChannels(appId, template.id);
  const fixtureRows = template.rows ?? [];
  if (stored.length === 0 && fixtureRows.length === 0) return NO_CONTENT;
  const linked = linkedChannels(channels, appId, template).filter((ch) => ch.enabled);
  const byType = new Map<string, Record<string, unknown>>();
  for (const channel of linked) {
    if (byType.has(channel.type)) continue;
    const row = stored.find((r) => r.channelId === channel.id) ?? fixtureRows.find((r) => r.channelId === channel.id);
    if (row) byType.set(channel.type, row.content);
  }
  return byType;
}

function findTemplate(deps: TemplateChannelServiceDeps, appId: string, ref: string, field: string): Template {
  const template = deps.templates.find(appId, ref);
  if (!template) throw notFound('template', ref, { by: 'id or slug', field });
  return template;
}

function findChannel(deps: TemplateChannelServiceDeps, appId: string, ref: string, field: string): Channel {
  const channel = deps.channels.find(appId, ref);
  if (!channel) throw notFound('channel', ref, { by: 'id or key', field });
  return channel;
}

/** The row derived from the fixture row for this channel, else from the template's content for its type. */
function derivedRow(appId: string, template: Template, channel: Channel): TemplateChannelRecord | undefined {
  const content = template.rows?.find((r) => r.channelId === channel.id)?.content ?? template.content[channel.type];
  if (!isJsonObject(content)) return undefined;
  return {
    appId,
    templateId: template.id,
    channelId: channel.id,
    channelType: channel.type,
    content,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}

/** Stored rows, then derived rows of linked channels that have no stored row. */
function rowsOf(deps: TemplateChannelServiceDeps, appId: string, template: Template): TemplateChannelRecord[] {
  const stored = deps.store.listTemplateChannels(appId, template.id);
  const have = new Set(stored.map((r) => r.channelId));
  const derived = linkedChannels(deps.channels, appId, template)
    .filter((ch) => !have.has(ch.id))
    .map((ch) => derivedRow(appId, template, ch))
    .filter((r): r is TemplateChannelRecord => r !== undefined);
  return [...stored, ...derived];
}

function rowOf(
  deps: TemplateChannelServiceDeps,
  appId: string,
  template: Template,
  channel: Channel,
): TemplateChannelRecord | undefined {
  return deps.store.getTemplateChannel(appId, template.id, channel.id) ?? derivedRow(appId, template, channel);
}

export function createTemplateChannelService(deps: TemplateChannelServiceDeps) {
  return {
    list(appId: string, templateRef: string, page: PageWindow): ListResult<TemplateChannel> {
      const template = findTemplate(deps, appId, templateRef, 'templateId');
      const { total, items } = slicePage(rowsOf(deps, appId, template), page);
      return { total, items: items.map(toRow) };
    },

    get(appId: string, templateRef: string, channelRef: string): TemplateChannel {
      const template = findTemplate(deps, appId, templateRef, 'templateId');
      const channel = findChannel(deps, appId, channelRef, 'channelId');
      const row = rowOf(deps, appId, template, channel);
      if (!row) throw templateChannelRowMissing(template, channel);
      return toRow(row);
    },

    create(appId: string, body: CreateTemplateChannelBody): TemplateChannel {
      const template = findTemplate(deps, appId, body.templateId, 'templateId');
      const channel = findChannel(deps, appId, body.channelId, 'channelId');
      if (body.channelType !== channel.type) {
        throw badRequest(
          `channelType is "${body.channelType}" but channel "${channel.key}" (${channel.id}) is of type ` +
            `"${channel.type}".`,
          { channelType: `must be "${channel.type}", the type of channel ${channel.id}` },
        );
      }
      if (!channelIdsOf(deps.channels, appId, template).includes(channel.id)) {
        throw badRequest(
          `Channel "${channel.key}" (${channel.id}) is not linked to template "${template.key}"; add it to the ` +
            `template's channelIds first (PUT /api/templates/${template.id}).`,
          { channelId: `channel ${channel.id} is not one of template ${template.id}'s channelIds` },
        );
      }
      if (deps.store.getTemplateChannel(appId, template.id, channel.id)) {
        throw badRequest(
          `Template ${template.id} already has a row for channel ${channel.id}; replace its content with PUT ` +
            `/api/template-channels/${template.id}/${channel.id}.`,
          { channelId: `a row for template ${template.id} and channel ${channel.id} already exists` },
        );
      }
      const now = deps.clocks.clockFor(appId).nowIso();
      const row: TemplateChannelRecord = {
        appId,
        templateId: template.id,
        channelId: channel.id,
        channelType: channel.type,
        content: body.content,
        createdAt: now,
        updatedAt: now,
      };
      deps.store.putTemplateChannel(row);
      return toRow(row);
    },

    update(appId: string, templateRef: string, channelRef: string, body: UpdateTemplateChannelBody): TemplateChannel {
      const template = findTemplate(deps, appId, templateRef, 'templateId');
      const channel = findChannel(deps, appId, channelRef, 'channelId');
      const current = rowOf(deps, appId, template, channel);
      if (!current) throw templateChannelRowMissing(template, channel);
      // A new record (never an in-place edit): deliveries already made keep the renderer of the
      // old content (they render when read), and the compiled-content cache, keyed by content
      // object, sees new content as new.
      const next: TemplateChannelRecord = {
        ...current,
        content: body.content,
        updatedAt: deps.clocks.clockFor(appId).nowIso(),
      };
      deps.store.putTemplateChannel(next);
      return toRow(next);
    },
  };
}

export type TemplateChannelService = ReturnType<typeof createTemplateChannelService>;
