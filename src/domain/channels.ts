/**
 * Channels (docs/reference.md#beyond-the-spec, docs/fidelity.md#channels): app-scoped delivery channels with a slug key
 * derived from the name, per-type limits (in_app unlimited, one push, others 0) and
 * immutable type/key/categoryFilter/templateLabel.
 */
import {
  CHANNEL_TYPES,
  type Channel,
  type ChannelType,
  type CreateChannelBody,
  type UpdateChannelBody,
} from '../schemas/channels.js';
import { badRequest, notFound, type ErrorDetails } from './errors.js';
import type { ChannelCatalog, AppClockSource, Ids, Store } from './ports.js';
import { slugFromName } from './slug.js';

/** Research §2.2 availability: −1 unlimited, 0 needs a sales-provisioned plan. */
export const CHANNEL_LIMITS: Record<ChannelType, number> = {
  in_app: -1,
  push: 1,
  sms: 0,
  email: 0,
  whatsapp: 0,
  custom: 0,
};

const IMMUTABLE = ['type', 'key', 'categoryFilter', 'templateLabel'] as const;

export interface ChannelAvailability {
  type: ChannelType;
  limit: number;
  used: number;
}

export interface ChannelServiceDeps {
  store: Store;
  channels: ChannelCatalog;
  clocks: AppClockSource;
  ids: Ids;
}

export function createChannelService(deps: ChannelServiceDeps) {
  function find(appId: string, ref: string): Channel {
    const channel = deps.channels.find(appId, ref);
    if (!channel) throw notFound('channel', ref, { by: 'id or key' });
    return channel;
  }

  function assertWithinLimit(appId: string, type: ChannelType): void {
    const limit = CHANNEL_LIMITS[type];
    const used = deps.channels.list(appId).filter((ch) => ch.type === type).length;
    if (limit === -1 || used < limit) return;
    const why =
      type === 'push'
        ? 'only one push channel is allowed per app'
        : `channel type "${type}" has limit 0: ` +
          'it needs a plan provisioned by sales (see GET /api/channels/availability)';
    throw badRequest(`Cannot create a "${type}" channel: ${why}.`, { type: why });
  }

  return {
    list(appId: string): Channel[] {
      return deps.channels.list(appId);
    },

    get: find,

    create(appId: string, body: CreateChannelBody): Channel {
      const key = slugFromName(body.name, 'name');
      const clash = deps.channels.list(appId).find((ch) => ch.key === key);
      if (clash) {
        throw badRequest(
          `A channel with key "${key}" already exists in this app (id ${clash.id}); choose another name.`,
          {
            name: `derives key "${key}", already used by channel ${clash.id}`,
          },
        );
      }
      assertWithinLimit(appId, body.type);
      const now = deps.clocks.clockFor(appId).nowIso();
      const channel: Channel = { id: deps.ids.objectId(), appId, key, ...body, createdAt: now, updatedAt: now };
      deps.store.putChannel(channel);
      return channel;
    },

    update(appId: string, ref: string, body: UpdateChannelBody): Channel {
      const current = find(appId, ref);
      // Decided: an immutable field is refused only when it would change; echoing it back is fine.
      const details: ErrorDetails = {};
      for (const field of IMMUTABLE) {
        if (body[field] !== undefined && body[field] !== current[field]) details[field] = 'is immutable after creation';
      }
      if (Object.keys(details).length) {
        throw badRequest(
          `Cannot change ${Object.keys(details).join(', ')} of channel ${current.id}: immutable after creation.`,
          details,
        );
      }
      const next: Channel = {
        ...current,
        name: body.name ?? current.name, // the key stays (docs/fidelity.md#channels)
        enabled: body.enabled ?? current.enabled,
        templateType: body.templateType ?? current.templateType,
        config: body.config ?? current.config,
        updatedAt: deps.clocks.clockFor(appId).nowIso(),
      };
      // On a fixture channel this stores the app's own copy (same id and key), which wins over it.
      deps.store.putChannel(next);
      return next;
    },

    availability(appId: string): ChannelAvailability[] {
      const channels = deps.channels.list(appId);
      return CHANNEL_TYPES.map((type) => ({
        type,
        limit: CHANNEL_LIMITS[type],
        used: channels.filter((ch) => ch.type === type).length,
      }));
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
