/**
 * Templates visible to an app: the fixture set (replaced whole on reload) plus the
 * templates created at run time through the API (kept in the store).
 */
import type { Store, TemplateCatalog } from '../domain/ports.js';
import type { Template } from '../schemas/records.js';

export interface MutableTemplateCatalog extends TemplateCatalog {
  replaceFixtures(templates: Template[]): void;
  /** How many times the fixture set was replaced (the runtime templates change with the store's revision). */
  readonly generation: number;
}

/** `from`: where the shared templates are read (a folder, or "the templates option"), named in 404s. */
export function createTemplateCatalog(store: Store, fixtures: Template[] = [], from?: string): MutableTemplateCatalog {
  let fixtureSet = fixtures;
  let generation = 0;
  const visibleTo = (appId: string) => (t: Template) => t.appId === null || t.appId === appId;
  /**
   * The template `appId` sees that passes `test`: an app's own template wins over a shared one
   * with the same key; among its own, a runtime one (created or overridden through PUT
   * /api/templates) wins over a fixture; else the first, fixtures first. One pass and no list
   * (asked on every send).
   */
  const preferredMatching = (appId: string, test: (t: Template) => boolean): Template | undefined => {
    let first: Template | undefined;
    let own: Template | undefined;
    for (const list of [fixtureSet, store.listRuntimeTemplates()]) {
      for (const t of list) {
        if (!(t.appId === null || t.appId === appId) || !test(t)) continue;
        if (t.appId !== null && t.source === 'runtime') return t;
        first ??= t;
        if (t.appId !== null) own ??= t;
      }
    }
    return own ?? first;
  };
  const all = (): Template[] => [...fixtureSet, ...store.listRuntimeTemplates()];

  const catalog: MutableTemplateCatalog = {
    replaceFixtures(templates) {
      fixtureSet = templates;
      generation++;
    },
    get generation() {
      return generation;
    },
    findById(appId, id) {
      return preferredMatching(appId, (t) => t.id === id);
    },
    findByKey(appId, key) {
      return preferredMatching(appId, (t) => t.key === key);
    },
    find(appId, ref) {
      return catalog.findById(appId, ref) ?? catalog.findByKey(appId, ref);
    },
    list(appId) {
      return appId === undefined ? all() : all().filter(visibleTo(appId));
    },
    count() {
      return all().length;
    },
    get origin() {
      return from === undefined ? undefined : `${fixtureSet.length} template(s) from ${from}`;
    },
  };
  return catalog;
}
