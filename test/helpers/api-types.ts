/**
 * Answer types of the real service's resources beyond the spec, for typing call<T>() in
 * tests (the public entry exports the record types; these live with their domain code).
 */
export type { TemplateView } from '../../src/domain/template-view.js';
export type { Channel } from '../../src/schemas/channels.js';
export type { ChannelAvailability } from '../../src/domain/channels.js';
export type { ChannelMetrics, UserInsights } from '../../src/domain/analytics.js';
