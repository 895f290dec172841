/**
 * App states in memory (the AppStateStore port): each app's own clock and active scenario
 * set. Not traffic: DELETE /__inspect leaves them; a reset of the app (or of all) drops them.
 */
import type { AppState, AppStateStore } from '../../domain/ports.js';
import type { KindOptions, RecordKind } from '../store-data.js';

export function createAppStateStore({
  initial,
  changed,
}: KindOptions<'appStates'>): RecordKind<AppStateStore, 'appStates'> {
  const states = new Map<string, AppState>();
  for (const state of initial?.appStates ?? []) states.set(state.appId, state);
  const listed = () => ({ appStates: [...states.values()] });

  const port: AppStateStore = {
    appStates: () => [...states.values()],
    saveAppState(state) {
      if (state.clock === null && state.activeScenarios === null) states.delete(state.appId);
      else states.set(state.appId, state);
      changed();
    },
  };
  return {
    port,
    clear() {},
    reset(appId) {
      if (appId === undefined) states.clear();
      else states.delete(appId);
    },
    stats: () => ({}),
    snapshot: listed,
    persistable: listed,
  };
}
