/** What the sending and campaign services are built from. */
import type { ChannelCatalog, TemplateCatalog } from './catalogs.js';
import type { Events } from './events.js';
import type { CampaignRuntime, AppClockSource, Ids } from './platform.js';
import type { Store } from './store.js';

/** What the sending services (one-call sends, campaigns) are built from. */
export interface SendDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clocks: AppClockSource;
  ids: Ids;
  events: Events;
}

/** What the campaign modules (service, recipients, runner) are built from. */
export interface CampaignDeps extends SendDeps {
  runtime: CampaignRuntime;
  /** Work per chunk before yielding to the event loop. @default 5 */
  chunkBudgetMs?: number;
}
