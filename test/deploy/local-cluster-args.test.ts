/**
 * deploy/local-cluster.sh's arguments and ports: a port already taken stops it with one line
 * before it starts or announces anything; `N -- flags` needs no PORT; --replica-ports pins the
 * replicas' ports (with HAProxy on the PATH, as the cluster test).
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HAS_HAPROXY, startLocalCluster } from './local-cluster.js';

const script = (args: string[]) =>
  spawnSync('bash', ['deploy/local-cluster.sh', ...args], { encoding: 'utf8', timeout: 60_000 });

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Listens on `port` (0: a free one) on 127.0.0.1 and keeps it; resolves with the port, or null if taken already. */
function hold(port = 0): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      held.push(server);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/** A port free now (listened on, then let go). */
async function freePort(): Promise<number> {
  const port = (await hold())!;
  await new Promise((resolve) => held.pop()!.close(resolve));
  return port;
}

const taken = (port: number) =>
  `deploy/local-cluster.sh: port ${port} is already in use; stop what holds it, ` +
  'or pick another (PORT 0 picks a free one)\n';

describe('deploy/local-cluster.sh: ports already taken', () => {
  it("refuses HAProxy's port with one line and exit 1, before it announces anything", async () => {
    const port = (await hold())!;
    const result = script(['2', String(port)]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(taken(port));
  });

  it("refuses a replica's pinned port the same way", async () => {
    const port = (await hold())!;
    const other = await freePort();
    const result = script(['2', '0', '--replica-ports', `${other},${port}`, '--', '--seed', '7']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(taken(port));
  });

  it('takes `N -- flags` without a PORT: the default 4010 is the port it checks', async () => {
    await hold(4010); // held here, or by another process already: taken either way
    const result = script(['3', '--', '--seed', '7']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(taken(4010));
  });
});

describe('deploy/local-cluster.sh: usage', () => {
  it.each([
    [['0'], /^usage: deploy\/local-cluster\.sh N \[PORT\] \[--replica-ports P1,P2,…\]/],
    [['2', '70000'], /^usage: /],
    [
      ['2', '0', '--seed', '7'],
      /^deploy\/local-cluster\.sh: unexpected "--seed" \(emulator flags go after --\)\nusage: /,
    ],
    [['2', '0', '--replica-ports', '5201'], /--replica-ports lists 1 port\(s\) for 2 replica\(s\)/],
    [['2', '0', '--replica-ports', '5201,5201'], /--replica-ports names a port twice/],
    [
      ['2', '5201', '--replica-ports', '5201,5202'],
      /--replica-ports: "5201" is not a port from 1 to 65535 other than PORT/,
    ],
    [['1', '0', '--replica-ports=x'], /--replica-ports: "x" is not a port/],
  ])('%j: exit 2 with what is wrong', (args, words) => {
    const result = script(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(words);
  });
});

describe.skipIf(!HAS_HAPROXY)('deploy/local-cluster.sh --replica-ports', () => {
  it('starts each replica on its pinned port, and announces the cluster once its own HAProxy answers', async () => {
    const ports = [await freePort(), await freePort()];
    const cluster = await startLocalCluster(
      2,
      ['--no-watch', '--log-level', 'warn'],
      ['0', '--replica-ports', ports.join(',')],
    );
    try {
      expect(cluster.replicas.map((r) => r.url)).toEqual(ports.map((p) => `http://127.0.0.1:${p}`));
      const res = await fetch(`${cluster.url}/__health`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-emulator-replica')).toMatch(/^replica[12]$/);
    } finally {
      await cluster.stop();
    }
  });
});
