/**
 * What every read facade shares: the read's turn on the event loop and the kept answers.
 * A burst of 100 queries read from the sockets at once would otherwise be answered one after
 * another in that one turn, each a millisecond or a few of work, and a /__health (or a send)
 * that came with them would wait for all of them: taking turns (the store's, shared with its
 * background slices), it waits for one.
 */
import type { LoopTurns } from '../platform/loop-turns.js';
import { AnswerMemo } from './answer-memo.js';

export interface ReadRoomSources {
  /** The store's turns on the event loop. */
  turns: LoopTurns;
  /** Changes with every write to the records and every reload of the template catalog. */
  revision: () => string;
}

export interface ReadRoom {
  /** Resolves on the read's own turn of the event loop. */
  turn(): Promise<void>;
  /**
   * `answer()` as JSON bytes on the read's turn, kept until the records change: only for an
   * answer that is a function of the records and the catalog, never one that reads the clock.
   */
  kept(kind: string, question: unknown, answer: () => unknown): Promise<Uint8Array<ArrayBuffer>>;
}

export function createReadRoom({ turns, revision }: ReadRoomSources): ReadRoom {
  const memo = new AnswerMemo(revision);
  return {
    turn: () => turns.next(),
    async kept(kind, question, answer) {
      await turns.next();
      return memo.json(`${kind} ${JSON.stringify(question)}`, answer);
    },
  };
}

const encoder = new TextEncoder();

/** An answer that is not kept, as the same JSON bytes a kept one is. */
export const jsonBytes = (value: unknown): Uint8Array<ArrayBuffer> => encoder.encode(JSON.stringify(value));
