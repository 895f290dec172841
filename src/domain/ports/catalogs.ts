/** Templates and channels as an app sees them: the fixtures plus what the app created. */
import type { Template } from '../../schemas/records.js';
import type { Channel } from '../../schemas/channels.js';

export interface TemplateCatalog {
  /** By `id` or `key`, as visible to `appId` (shared templates plus the app's own). */
  find(appId: string, ref: string): Template | undefined;
  findByKey(appId: string, key: string): Template | undefined;
  findById(appId: string, id: string): Template | undefined;
  list(appId?: string): Template[];
  count(): number;
  /** Where the shared templates come from (e.g. "7 template(s) from /x/fixtures/templates"), for 404 messages. */
  readonly origin?: string;
}

/** A channel from fixtures/channels.json: `appId` null = every app sees it. */
export type FixtureChannel = Omit<Channel, 'appId'> & { appId: string | null };

/** Channels as an app sees them: shared fixture channels (with the app's id) plus its own. */
export interface ChannelCatalog {
  /** Fixture channels first (an app's copy in place of the fixture), then the app's own in creation order. */
  list(appId: string): Channel[];
  /** By id, then by key. */
  find(appId: string, ref: string): Channel | undefined;
}
