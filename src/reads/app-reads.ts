/**
 * The apps this emulator knows (src/inspect/app-list.ts) and, per app, its templates with its
 * channels and a preview rendered from generated sample values, as /__apps reads them.
 */
import type { AppRegistry } from '../catalog/apps.js';
import type { ChannelCatalog, Store, TemplateCatalog } from '../domain/ports.js';
import { rowContentByType } from '../domain/template-channels.js';
import { toTemplateView, type AppTemplates, type TemplateSample } from '../domain/template-view.js';
import { renderContent } from '../domain/variables.js';
import { appList } from '../inspect/app-list.js';
import type { Template } from '../schemas/records.js';
import type { ReadRoom } from './read-room.js';

export interface AppReadSources {
  apps: AppRegistry;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  store: Store;
}

type Sample = { seed: number; variables: Record<string, unknown> };

export function appReads(room: ReadRoom, sources: AppReadSources) {
  /**
   * The last sample made for each variable list, with its seed: a sample is the same for the
   * same list and seed, and making one builds a faker of the whole locale (~2 ms a template,
   * bench/: bursts), which the inspector's every visit to an app would repeat.
   */
  const samples = new WeakMap<Template['variableSchema'], Sample>();
  return {
    async list() {
      await room.turn();
      return appList(sources.apps, sources.templates);
    },
    async templates(appId: string, seed = 1): Promise<AppTemplates> {
      await room.turn();
      // Loaded on use: faker is large and only this read and generate-csv need it.
      const { sampleVariables } = await import('../platform/fake-data.js');
      const sampleOf = (template: Template): Sample => {
        let sample = samples.get(template.variableSchema);
        if (sample?.seed !== seed) {
          sample = { seed, variables: sampleVariables(template, seed) };
          samples.set(template.variableSchema, sample);
        }
        return sample;
      };
      const { apps, templates, channels } = sources;
      const items = templates
        .list(appId)
        .map((template) => templateSample(sources, appId, template, sampleOf(template)));
      return { appId, authMode: apps.mode, channels: channels.list(appId), items };
    },
  };
}

/** As a send renders it: template-channel rows replace the template's content of their channel type. */
function templateSample(
  { store, channels }: AppReadSources,
  appId: string,
  template: Template,
  { variables }: Sample,
): TemplateSample {
  const rows = rowContentByType(store, channels, appId, template);
  const content = rows.size ? { ...template.content, ...Object.fromEntries(rows) } : template.content;
  return {
    ...toTemplateView(channels, appId, template),
    variableList: template.variableSchema,
    sample: { variables, rendered: renderContent(content, variables) as Record<string, unknown> },
  };
}
