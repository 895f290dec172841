/**
 * POST /notifications/send: the one-call send of the spec. The route is the Hono transport of
 * the send pipeline (http/send-pipeline.ts), which holds every step after the gate.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import { answerText } from '../answer.js';
import { requestHeader } from '../plain-headers.js';
import { readBodyText } from '../request-body.js';
import type { SendPipeline } from '../send-pipeline.js';

export function notificationRoutes({ send }: { send: SendPipeline }) {
  return new Hono<AppEnv>().post('/notifications/send', async (c) => {
    const sent = await send(
      {
        path: c.req.path,
        appId: c.get('appId'),
        contentType: requestHeader(c, 'content-type') ?? '',
        deliveryFaults: c.get('scenarioScope').deliveryFaults,
      },
      () => readBodyText(c),
    );
    return answerText(c, sent.body, sent.status, sent.headers, sent.errorCode);
  });
}
