/**
 * deploy/compose.yaml and deploy/haproxy.cfg describe one cluster: the balancer's server lines
 * name exactly the compose replicas, at the port the image listens on, and the balancer
 * publishes the port HAProxy binds. There is no container engine in CI, so this reads the two
 * files (both in the shapes their own comments ask for) instead of running them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAS_HAPROXY } from './local-cluster.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const haproxy = read('deploy/haproxy.cfg');
const compose = read('deploy/compose.yaml');

/** The `server NAME HOST:PORT` lines between the "replicas:" markers. */
function haproxyServers(): { name: string; host: string; port: number }[] {
  const block = /# replicas: begin\n([\s\S]*?)\n\s*# replicas: end/.exec(haproxy)?.[1] ?? '';
  return block.split('\n').map((line) => {
    const [, name, host, port] = /^\s*server (\S+) ([^:\s]+):(\d+) check$/.exec(line) ?? [];
    expect(name, `server line "${line}"`).toBeDefined();
    return { name: name!, host: host!, port: Number(port) };
  });
}

/** The top-level services of compose.yaml and each one's own lines. */
function composeServices(): Map<string, string> {
  const body = /^services:\n((?: {2}.*\n|\n)*)/m.exec(compose)?.[1] ?? '';
  const services = new Map<string, string>();
  for (const part of body.split(/^(?= {2}\S)/m)) {
    const name = /^ {2}([\w-]+):/.exec(part)?.[1];
    if (name) services.set(name, part);
  }
  return services;
}

/** The port the image listens on: ENV PORT in the Dockerfile (a replica may set its own). */
function replicaPort(service: string): number {
  const own = /PORT: "?(\d+)"?/.exec(service)?.[1];
  return Number(own ?? /PORT=(\d+)/.exec(read('Dockerfile'))?.[1]);
}

describe('deploy/compose.yaml and deploy/haproxy.cfg', () => {
  const services = composeServices();
  const replicas = [...services].filter(([, text]) => text.includes('<<: *replica'));

  it('name the same replicas at the same port', () => {
    expect(/^x-replica: &replica\n {2}build: \.\.$/m.test(compose), 'the replicas are built from the image').toBe(true);
    expect(replicas.map(([name]) => name)).toEqual(['replica1', 'replica2', 'replica3']);
    expect(haproxyServers()).toEqual(replicas.map(([name, text]) => ({ name, host: name, port: replicaPort(text) })));
    expect(replicaPort(replicas[0]![1])).toBe(4010);
  });

  it('mount the configuration into the official HAProxy image and publish the port it binds', () => {
    const balancer = services.get('balancer') ?? '';
    expect(balancer).toMatch(/image: haproxy:[\w.-]+/);
    expect(balancer).toContain("'./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'");
    const bind = /^ {2}bind :(\d+)$/m.exec(haproxy)?.[1];
    expect(bind).toBe('4010');
    expect(balancer).toContain(`ports: ['${bind}:${bind}']`);
    for (const [name] of replicas) expect(balancer).toContain(`${name}: { condition: service_healthy }`);
  });

  it('give each replica its own data volume', () => {
    const volumes = replicas.map(([, text]) => /volumes: \['([\w-]+):\/data'\]/.exec(text)?.[1]);
    expect(volumes).toEqual(['replica1-data', 'replica2-data', 'replica3-data']);
    for (const volume of volumes) expect(compose).toMatch(new RegExp(`^ {2}${volume}:$`, 'm'));
  });

  // The replicas' names resolve only inside compose: init-addr none lets HAProxy start without them.
  it.skipIf(!HAS_HAPROXY)('is a configuration HAProxy accepts as it is (haproxy -c)', () => {
    const check = spawnSync('haproxy', ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout + check.stderr).toContain('Configuration file is valid');
  });
});
