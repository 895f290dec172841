/** What the domain announces (for the event stream and waiters), and the bus it announces on. */
import type { Campaign, Delivery, JournalEntry, NotificationRecord } from '../../schemas/records.js';

export type EmulatorEvent =
  | { type: 'delivery'; delivery: Delivery }
  | { type: 'notification'; notification: NotificationRecord }
  | { type: 'campaign'; campaign: Campaign }
  | { type: 'request'; entry: JournalEntry };

export interface Events {
  emit(event: EmulatorEvent): void;
  /** False when nobody listens: a 10,000-target batch then skips building 10,000 event payloads. */
  hasSubscribers(): boolean;
  subscribe(listener: (event: EmulatorEvent) => void): () => void;
}
