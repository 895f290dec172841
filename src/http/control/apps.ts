/**
 * /__apps: the apps this emulator knows (src/inspect/app-list.ts) and, per app, its templates
 * with its channels and a preview rendered from generated sample values.
 */
import { Hono } from 'hono';
import { renderContent } from '../../domain/variables.js';
import { rowContentByType } from '../../domain/template-channels.js';
import { AppTemplatesQuerySchema } from '../../schemas/control-inspector.js';
import { NoQuerySchema } from '../../schemas/control.js';
import { toTemplateView, type AppTemplates, type TemplateSample } from '../../domain/template-view.js';
import { appList } from '../../inspect/app-list.js';
import type { AppEnv } from '../context.js';
import type { Template } from '../../schemas/records.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import { requireKnownApp } from './app-scope.js';

export function appRoutes({
  apps,
  templates,
  store,
  channels,
}: Pick<Emulator, 'apps' | 'templates' | 'store' | 'channels'>) {
  /**
   * The last sample made for each variable list, with its seed: a sample is the same for the
   * same list and seed, and making one builds a faker of the whole locale (~2 ms a template,
   * bench/: bursts), which the inspector's every visit to an app would repeat.
   */
  const samples = new WeakMap<Template['variableSchema'], { seed: number; variables: Record<string, unknown> }>();
  return new Hono<AppEnv>()
    .get('/', (c) => {
      parseQuery(c, NoQuerySchema);
      return c.json(appList(apps, templates));
    })
    .get('/:appId/templates', async (c) => {
      const { seed } = parseQuery(c, AppTemplatesQuerySchema);
      const appId = c.req.param('appId');
      requireKnownApp(apps, appId, false);
      // Loaded on use: faker is large and only this endpoint and generate-csv need it.
      const { sampleVariables } = await import('../../platform/fake-data.js');
      const items = templates.list(appId).map((template): TemplateSample => {
        const wanted = seed ?? 1;
        let sample = samples.get(template.variableSchema);
        if (sample?.seed !== wanted) {
          sample = { seed: wanted, variables: sampleVariables(template, wanted) };
          samples.set(template.variableSchema, sample);
        }
        const { variables } = sample;
        // As a send renders it: template-channel rows replace the template's content of their channel type.
        const rows = rowContentByType(store, channels, appId, template);
        const content = rows.size ? { ...template.content, ...Object.fromEntries(rows) } : template.content;
        return {
          ...toTemplateView(channels, appId, template),
          variableList: template.variableSchema,
          sample: { variables, rendered: renderContent(content, variables) as Record<string, unknown> },
        };
      });
      return c.json({ appId, authMode: apps.mode, channels: channels.list(appId), items } satisfies AppTemplates);
    });
}
