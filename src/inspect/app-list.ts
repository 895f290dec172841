/**
 * GET /__apps as a plain function: every app this emulator knows (configured, remembered by
 * open mode, or owning a runtime template), never their keys, plus the channel types a
 * delivery can name (the inspector's channel filter reads them rather than keeping its own list).
 */
import type { AppRegistry } from '../catalog/apps.js';
import type { TemplateCatalog } from '../domain/ports.js';
import { CHANNEL_TYPES } from '../schemas/channel-types.js';
import type { AppList } from '../schemas/control-inspector.js';

export function appList(apps: AppRegistry, templates: Pick<TemplateCatalog, 'list'>): AppList {
  const configured = apps.list();
  const ids = new Set(configured.map((a) => a.appId));
  for (const t of templates.list()) if (t.appId !== null) ids.add(t.appId);
  const region = new Map(configured.map((a) => [a.appId, a.region]));
  const items = [...ids].sort().map((appId) => ({
    appId,
    region: region.get(appId) ?? null,
    configured: apps.mode === 'strict' && region.has(appId),
    templates: templates.list(appId).length,
  }));
  return { mode: apps.mode, channelTypes: [...CHANNEL_TYPES], items };
}
