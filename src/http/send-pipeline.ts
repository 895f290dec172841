/**
 * The send pipeline: `POST …/notifications/send` after the API gate, written once as a plain
 * function from a request description to an answer description, transport-neutral (no
 * Hono, no Node). Its steps, in order: the content type, the body's text, the JSON, the
 * schema, the domain's send, and the envelope of whatever failed. Both transports call it:
 * the Hono route (http/api/notifications.ts), behind the gate, and the server's fast path
 * (http/send-fast-path.ts), which only decides whether it may take a request and does the
 * Node I/O. The answer is what the client gets and what the journal keeps.
 */
import type { DeliveryFaultPolicy } from '../domain/ports.js';
import type { NotificationService } from '../domain/notifications.js';
import type { Logger } from '../platform/logger.js';
import { SendNotificationBodySchema } from '../schemas/notifications.js';
import { errorAnswer, type PlainAnswer } from './render-error.js';
import { parseJsonText, parseWith, requireJsonContentType } from './validate.js';

/** A send that passed the gate (size, auth, scenario faults). */
export interface SendRequest {
  /** The path as requested (it names the request in the log of an emulator bug). */
  path: string;
  /** The tenant, as auth found it. */
  appId: string;
  contentType: string;
  /** Which of the send's deliveries fail (the request's scenario scope). */
  deliveryFaults: DeliveryFaultPolicy;
}

/** The answer to a send: what the client is sent and what the journal keeps. */
export type SendAnswer = PlainAnswer;

/** What hono's c.json sends as the content type. */
const JSON_TYPE = 'application/json';

/**
 * The body's text is at hand (the fast path read it: the answer comes in the same turn), or
 * read on demand, once the content type passed.
 */
export interface SendPipeline {
  (request: SendRequest, body: string): SendAnswer;
  (request: SendRequest, body: () => Promise<string>): Promise<SendAnswer>;
}

export function sendPipeline({ notifications, logger }: { notifications: NotificationService; logger: Logger }) {
  const failure = (path: string, thrown: unknown): SendAnswer => errorAnswer(thrown, logger, `POST ${path}`);

  const answer = (request: SendRequest, text: string): SendAnswer => {
    try {
      const body = parseWith(SendNotificationBodySchema, parseJsonText(text), 'request body');
      const sent = notifications.send(request.appId, body, request.deliveryFaults);
      return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(sent), errorCode: null };
    } catch (thrown) {
      return failure(request.path, thrown);
    }
  };

  // Synchronous when the body is at hand: the fast path answers in the same turn. A body that
  // cannot be read (the client hung up) rejects: the transport knows what that means.
  const pipeline = (request: SendRequest, body: string | (() => Promise<string>)) => {
    try {
      requireJsonContentType(request.contentType);
    } catch (thrown) {
      return failure(request.path, thrown);
    }
    return typeof body === 'string' ? answer(request, body) : body().then((text) => answer(request, text));
  };
  return pipeline as SendPipeline;
}
