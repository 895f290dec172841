/** The real service's channel types and template types (shared by the API and the fixture files). */
export const CHANNEL_TYPES = ['in_app', 'push', 'sms', 'email', 'whatsapp', 'custom'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const CHANNEL_TEMPLATE_TYPES = ['ui', 'data'] as const;
