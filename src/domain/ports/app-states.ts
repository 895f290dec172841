/**
 * The app-state store port: what an app has of its own besides its records (its own clock,
 * its own active scenario set), kept so that a data file brings it back after a restart.
 */

export interface AppState {
  appId: string;
  /** The app's own clock; null while it follows the shared clock. */
  clock: { mode: 'real' | 'manual'; now: string } | null;
  /** The app's own active scenario set; null while the global set applies to it. */
  activeScenarios: string[] | null;
}

export interface AppStateStore {
  appStates(): AppState[];
  /** Keeps `state`; one with neither an own clock nor an own set is forgotten. */
  saveAppState(state: AppState): void;
}
