/**
 * Realtime sends through HAProxy (deploy/local-cluster.sh) to 1 replica and to 2 replicas, in
 * the same rounds and from the same autocannon (50 connections, 10 apps), plus one emulator
 * without HAProxy as the reference for what the balancer costs. With 2 replicas the 10 apps
 * are picked so that HAProxy puts 5 on each (the x-emulator-replica header says where).
 * Opt-in (BENCH_ONLY=cluster): it needs haproxy on the PATH.
 */
import autocannon from 'autocannon';
import { startLocalCluster, type LocalCluster } from '../../test/deploy/local-cluster.js';
import { makeFaker, realtimeBody } from '../data.js';
import { API_HEADERS, median, medianOfRatios, QUICK, RUNS, SEED, startEmulatorChild, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

const APPS = 10;
const CONNECTIONS = 50;
const FLAGS = ['--log-level', 'error', '--no-watch', '--seed', String(SEED), '--fixtures', 'fixtures'];
const SEND = '/api/notifications/send';

/** APPS app ids spread evenly over the replicas the balancer at `url` hashes them to. */
async function evenApps(url: string, replicas: number): Promise<string[]> {
  const perReplica = new Map<string, string[]>();
  for (let i = 0; perReplica.size < replicas || [...perReplica.values()].some((a) => a.length < APPS / replicas); i++) {
    if (i > 1000) throw new Error('could not find apps on every replica');
    const appId = `bench-app-${i}`;
    const res = await fetch(`${url}/__inspect/deliveries?appId=${appId}&limit=0`);
    await res.arrayBuffer();
    const replica = res.headers.get('x-emulator-replica') ?? 'direct';
    const apps = perReplica.get(replica) ?? [];
    if (apps.length < APPS / replicas) apps.push(appId);
    perReplica.set(replica, apps);
  }
  return [...perReplica.values()].flat();
}

async function sendsPerSecond(url: string, apps: string[], seconds: number): Promise<number> {
  const body = realtimeBody(makeFaker(SEED));
  const result = await autocannon({
    url: `${url}${SEND}`,
    connections: CONNECTIONS,
    duration: seconds,
    // Each connection cycles through the apps, so every replica gets its share.
    requests: apps.map((appid) => ({ method: 'POST', path: SEND, headers: { ...API_HEADERS, appid }, body })),
  });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function clusterThroughput(): Promise<Row> {
  const started: (LocalCluster | Child)[] = [];
  try {
    const one = await startLocalCluster(1, FLAGS);
    started.push(one);
    const two = await startLocalCluster(2, FLAGS);
    started.push(two);
    const direct = await startEmulatorChild();
    started.push(direct);
    const targets = [
      { url: direct.url, apps: await evenApps(direct.url, 1), perSec: [] as number[] },
      { url: one.url, apps: await evenApps(one.url, 1), perSec: [] as number[] },
      { url: two.url, apps: await evenApps(two.url, 2), perSec: [] as number[] },
    ];
    const seconds = QUICK ? 3 : 5;
    for (const target of targets) await sendsPerSecond(target.url, target.apps, 1); // warm-up (JIT)
    for (let run = 0; run < RUNS; run++)
      for (const target of targets) target.perSec.push(await sendsPerSecond(target.url, target.apps, seconds));
    const [alone, oneReplica, twoReplicas] = targets.map((t) => t.perSec) as [number[], number[], number[]];
    const ratio = medianOfRatios(twoReplicas, oneReplica);
    const runs = (values: number[]) => values.map((v) => fmt(v, 0)).join('/');
    return {
      metric: `realtime sends through HAProxy, 2 replicas vs 1 (${CONNECTIONS} conn)`,
      value: `${fmt(median(twoReplicas), 0)} req/s (2 replicas)`,
      baseline: `${fmt(median(oneReplica), 0)} req/s (1 replica)`,
      ratio: `${fmt(ratio, 2)}x (per run, median)`,
      target: 'none: reported',
      pass: undefined,
      note:
        `runs: 2 replicas ${runs(twoReplicas)}, 1 replica ${runs(oneReplica)}, ` +
        `1 emulator without HAProxy ${runs(alone)} (${fmt(medianOfRatios(oneReplica, alone) * 100, 0)}% of it ` +
        `through HAProxy); load generator, HAProxy and replicas share this machine's cores`,
    };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}
