/**
 * The resource store port: what apps create at run time beside the fixtures (templates,
 * channels, template-channel rows). clear() keeps them; reset() drops them.
 */
import type { Template } from '../../schemas/records.js';
import type { Channel } from '../../schemas/channels.js';
import type { TemplateChannelRecord } from '../../schemas/template-channels.js';

export interface ResourceStore {
  listRuntimeTemplates(): Template[];
  /** Keyed by (appId, id): an app's override of a shared fixture template keeps the fixture's id. */
  putRuntimeTemplate(template: Template): void;
  /** Deletes the runtime template `id` of `appId` (every app's copy when appId is omitted). */
  deleteRuntimeTemplate(id: string, appId?: string | null): boolean;

  /** The app's own channels (docs/reference.md#beyond-the-spec), keyed by (appId, id). */
  listChannels(appId: string): Channel[];
  getChannel(appId: string, id: string): Channel | undefined;
  putChannel(channel: Channel): void;

  /** Template-channel rows of one app's template, in creation order. */
  listTemplateChannels(appId: string, templateId: string): readonly TemplateChannelRecord[];
  getTemplateChannel(appId: string, templateId: string, channelId: string): TemplateChannelRecord | undefined;
  /** Inserts or replaces the row of (appId, templateId, channelId); a replaced row keeps its place. */
  putTemplateChannel(row: TemplateChannelRecord): void;
  /** Deletes every row of the app's template; returns how many there were. */
  deleteTemplateChannels(appId: string, templateId: string): number;
}
