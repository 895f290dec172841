/**
 * Runtime resources in memory: the ResourceStore port (templates, channels and
 * template-channel rows apps create). clear() keeps them; reset() drops them.
 */
import type { Template } from '../../schemas/records.js';
import type { Channel } from '../../schemas/channels.js';
import type { TemplateChannelRecord } from '../../schemas/template-channels.js';
import type { ResourceStore } from '../../domain/ports.js';
import type { KindOptions, RecordKind } from '../store-data.js';

type ResourceData = 'templates' | 'channels' | 'templateChannels';

/** Keyed by app too: an app's override of a shared fixture (template or channel) keeps the fixture's id. */
const appKey = (appId: string | null, id: string) => `${appId ?? ''}\u0000${id}`;
const rowsKey = (appId: string, templateId: string) => `${appId}\u0000${templateId}`;
const NO_ROWS: readonly TemplateChannelRecord[] = [];

export function createResourceStore({
  initial,
  changed,
}: KindOptions<ResourceData>): RecordKind<ResourceStore, ResourceData> {
  const templates = new Map<string, Template>();
  const channels = new Map<string, Channel>();
  // (appId, templateId) → channelId → row; a send asks for one template's rows.
  const templateChannels = new Map<string, Map<string, TemplateChannelRecord>>();

  function putRow(row: TemplateChannelRecord): void {
    const key = rowsKey(row.appId, row.templateId);
    let rows = templateChannels.get(key);
    if (!rows) templateChannels.set(key, (rows = new Map()));
    rows.set(row.channelId, row);
  }

  for (const t of initial?.templates ?? []) templates.set(appKey(t.appId, t.id), t);
  for (const ch of initial?.channels ?? []) channels.set(appKey(ch.appId, ch.id), ch);
  for (const row of initial?.templateChannels ?? []) putRow(row);

  const port: ResourceStore = {
    listRuntimeTemplates: () => [...templates.values()],
    putRuntimeTemplate(template) {
      templates.set(appKey(template.appId, template.id), template);
      changed();
    },
    deleteRuntimeTemplate(id, appId) {
      let existed = false;
      for (const [k, t] of [...templates]) {
        if (t.id === id && (appId === undefined || t.appId === appId)) existed = templates.delete(k) || existed;
      }
      changed();
      return existed;
    },

    listChannels(appId) {
      // One pass, no copy of every app's channels: each send asks.
      const own: Channel[] = [];
      for (const channel of channels.values()) if (channel.appId === appId) own.push(channel);
      return own;
    },
    getChannel: (appId, id) => channels.get(appKey(appId, id)),
    putChannel(channel) {
      channels.set(appKey(channel.appId, channel.id), channel);
      changed();
    },

    listTemplateChannels(appId, templateId) {
      const rows = templateChannels.get(rowsKey(appId, templateId));
      return rows ? [...rows.values()] : NO_ROWS;
    },
    getTemplateChannel: (appId, templateId, channelId) =>
      templateChannels.get(rowsKey(appId, templateId))?.get(channelId),
    putTemplateChannel(row) {
      putRow(row);
      changed();
    },
    deleteTemplateChannels(appId, templateId) {
      const key = rowsKey(appId, templateId);
      const count = templateChannels.get(key)?.size ?? 0;
      if (templateChannels.delete(key)) changed();
      return count;
    },
  };

  const listed = () => ({
    templates: [...templates.values()],
    channels: [...channels.values()],
    templateChannels: [...templateChannels.values()].flatMap((rows) => [...rows.values()]),
  });
  return {
    port,
    clear() {},
    reset(appId) {
      if (appId === undefined) {
        templates.clear();
        channels.clear();
        templateChannels.clear();
        return;
      }
      for (const [k, t] of [...templates]) if (t.appId === appId) templates.delete(k);
      for (const [k, ch] of [...channels]) if (ch.appId === appId) channels.delete(k);
      for (const k of [...templateChannels.keys()]) if (k.startsWith(rowsKey(appId, ''))) templateChannels.delete(k);
    },
    stats: () => ({}),
    snapshot: listed,
    persistable: listed,
  };
}
