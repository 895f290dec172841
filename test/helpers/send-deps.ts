/**
 * What the sending services (one-call sends, the campaign runner) are built from, for unit
 * tests: a memory store, the test templates, a manual clock at 2030-03-03, seeded ids, and
 * events recorded in `events` (`listening`: whether anyone is said to listen).
 */
import { createMemoryStore } from '../../src/store/memory-store.js';
import { createTemplateCatalog } from '../../src/catalog/templates.js';
import { createChannelCatalog } from '../../src/catalog/channels.js';
import { toTemplate } from '../../src/catalog/load-fixtures.js';
import { TemplateFileEntrySchema } from '../../src/schemas/template-file.js';
import { EmulatorClock } from '../../src/platform/clock.js';
import { AppClocks } from '../../src/platform/app-clocks.js';
import { createIds, createRandom } from '../../src/platform/random.js';
import type { EmulatorEvent } from '../../src/domain/ports.js';
import { TEST_TEMPLATES } from './app.js';

export function sendDeps({ listening = true }: { listening?: boolean } = {}) {
  const clock = new EmulatorClock('2030-03-03T00:00:00.000Z');
  const store = createMemoryStore();
  const templates = createTemplateCatalog(
    store,
    TEST_TEMPLATES.map((t) => toTemplate(TemplateFileEntrySchema.parse(t), '2030-03-03T00:00:00.000Z')),
  );
  const events: EmulatorEvent[] = [];
  return {
    events,
    deps: {
      store,
      templates,
      channels: createChannelCatalog(store),
      clocks: new AppClocks(clock),
      ids: createIds(clock, createRandom(3)),
      events: {
        emit: (e: EmulatorEvent) => void events.push(e),
        subscribe: () => () => true,
        hasSubscribers: () => listening,
      },
    },
  };
}
