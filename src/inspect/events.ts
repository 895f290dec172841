/**
 * The event bus one emulator owns. The domain emits; inspection (SSE, waitFor)
 * subscribes. Lower layers never import the code that listens.
 */
import type { EmulatorEvent, Events } from '../domain/ports.js';

export function createEventBus(): Events {
  const listeners = new Set<(event: EmulatorEvent) => void>();
  return {
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasSubscribers: () => listeners.size > 0,
  };
}
