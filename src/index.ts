/**
 * The package's public API: build an emulator in-process (createApp) or on a socket
 * (startEmulator), control its clock, and the record types.
 */
export { createApp, API_PREFIXES, type EmulatorApp } from './app.js';
export { startEmulator, type RunningEmulator } from './server.js';
export type { CreateAppOptions, Emulator, EmulatorOverrides } from './emulator.js';
export { EmulatorClock, type ClockMode } from './platform/clock.js';
export { createLogger, LOG_LEVELS, type Logger, type LogLevel } from './platform/logger.js';
export { createMemoryStore } from './store/memory-store.js';
export type { StoreData } from './store/store-data.js';
export { openLowdbStore, type LowdbStoreOptions } from './store/lowdb-store.js';
export { createClient, EmulatorClientError } from './client/index.js';
export type * from './client/types.js';
export { loadConfig, resolveFolders, parseSize, EmulatorOptionsSchema, type EmulatorOptions } from './config.js';
export { ApiError, ConfigError, ERROR_STATUS, type ErrorCode } from './domain/errors.js';
export { ConnectionDropped, SCENARIO_HEADER } from './http/middleware/scenario-faults.js';
export type { Scenario, ScenarioRule, ScenarioMatch, ScenarioFault } from './schemas/scenario-file.js';
export type { Store, Clock, RandomSource, DeliveryFilter, ListResult } from './domain/ports.js';
export type {
  Template,
  Delivery,
  Notification,
  NotificationRecord,
  Campaign,
  CampaignStatus,
  Recipient,
  RecipientStatus,
  JournalEntry,
  UpstreamCall,
} from './schemas/records.js';
