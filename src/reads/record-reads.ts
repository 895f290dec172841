/**
 * Notifications and journal entries as routes read them: pages kept until the store changes,
 * a search for the HAR export, one entry by id.
 */
import type { JournalFilter, NotificationFilter, Page, Store } from '../domain/ports.js';
import type { ReadRoom } from './read-room.js';

export function notificationReads(room: ReadRoom, { store }: { store: Pick<Store, 'queryNotifications'> }) {
  return {
    page: (filter: NotificationFilter, page: Page) =>
      room.kept('notifications', [filter, page], () => store.queryNotifications(filter, page)),
  };
}

export function journalReads(room: ReadRoom, { store }: { store: Pick<Store, 'searchJournal' | 'getJournalEntry'> }) {
  return {
    /** A bodyContains search yields to other requests; the client hanging up stops it. */
    page: (filter: JournalFilter, page: Page, signal?: AbortSignal) =>
      room.kept('journal', [filter, page], () => store.searchJournal(filter, page, signal)),
    /** As `page`, as records rather than bytes (the HAR export makes its own answer of them). */
    async search(filter: JournalFilter, page: Page, signal?: AbortSignal) {
      await room.turn();
      return store.searchJournal(filter, page, signal);
    },
    async get(id: string) {
      await room.turn();
      return store.getJournalEntry(id);
    },
  };
}
