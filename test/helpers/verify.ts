/**
 * `verify` run in-process against a stand-in live account (test/helpers/live-stand-in.ts), its
 * output captured, and the account the verify tests seed: two channels, three templates.
 */
import { startAccountEmulator } from '../../src/server.js';
import { runVerify } from '../../src/tools/verify/command.js';
import { API_KEY_ENV } from '../../src/tools/live-commands.js';
import { LIVE_KEY, printed, type CommandRun } from './live-account.js';
import type { LiveStandIn } from './live-stand-in.js';

export async function verify(argv: string[], env: Record<string, string | undefined> = { [API_KEY_ENV]: LIVE_KEY }) {
  let stdout = '';
  let stderr = '';
  const code = await runVerify(argv, startAccountEmulator, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env,
  });
  printed.push(stdout, stderr);
  return { code, stdout, stderr } satisfies CommandRun;
}

const ok = async (call: LiveStandIn['call'], method: string, path: string, body?: unknown) => {
  const answer = await call(method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string };
};

/** The stand-in account: an in-app and a push channel, and three templates linked to them. */
export async function seedAccount(call: LiveStandIn['call']): Promise<void> {
  const inbox = await ok(call, 'POST', '/api/channels', { name: 'Inbox', type: 'in_app', templateType: 'ui' });
  const push = await ok(call, 'POST', '/api/channels', { name: 'Mobile push', type: 'push', templateType: 'data' });
  const shipped = await ok(call, 'POST', '/api/templates', {
    name: 'Order Shipped',
    category: 'transactional',
    channelIds: [inbox.id, push.id],
    variableSchema: { orderId: { type: 'string', name: 'Order', required: true } },
    content: { in_app: { title: 'Order {{orderId}} shipped' }, push: { title: 'Shipped: {{orderId}}' } },
  });
  await ok(call, 'PUT', `/api/templates/${shipped.id}`, { status: 'approved' });
  await ok(call, 'POST', '/api/templates', {
    name: 'Weekly Digest',
    category: 'marketing',
    channelIds: [inbox.id],
    variableSchema: { banner: { type: 'image', name: 'Banner' } },
    content: { in_app: { title: 'This week', body: '{{banner}}' } },
  });
  await ok(call, 'POST', '/api/templates', {
    name: 'Password Reset',
    channelIds: [push.id],
    content: { push: { title: 'Reset your password' } },
  });
}
