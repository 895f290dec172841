/* global fetch */
// Run as its own process by the soak (bench/metrics/soak-load.ts), as bench/health-probe.mjs
// is and for the same reason (the load generator's own event loop, busy with 1,000
// connections, would count its waits as the emulator's): every 2 s until stdin closes, 100
// concurrent queries of one inspect kind, kind after kind, against <url> (argv[2]). Prints
// JSON: per kind the slowest answer of each of its rounds in ms, and the queries that did not
// answer 200.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const url = process.argv[2];
const headers = { 'content-type': 'application/json', appid: 'soak-a', apikey: 'bench-key' };

/** Each kind's 100 paths, from the filters its list documents (the newest campaign's recipients). */
async function kinds() {
  const latest = await (await fetch(`${url}/__inspect/campaigns?limit=1&order=desc`)).json();
  const campaign = latest.items[0]?.id ?? 'none';
  const paths = (...list) => Array.from({ length: 100 }, (_, i) => list[i % list.length]);
  return {
    deliveries: paths(
      '/__inspect/deliveries?appId=soak-a&status=sent',
      '/__inspect/deliveries?userId=user-3&order=desc',
      '/__inspect/deliveries?templateKey=welcome-message&offset=500',
      '/__inspect/deliveries?appId=soak-b&mode=batch&order=desc&offset=2000',
    ),
    'delivery-stats': paths('/__inspect/delivery-stats', '/__inspect/delivery-stats?appId=soak-b&mode=realtime'),
    notifications: paths(
      '/__inspect/notifications?appId=soak-a&mode=realtime&order=desc',
      '/__inspect/notifications?mode=batch',
    ),
    requests: paths(
      '/__inspect/requests?appId=soak-b&method=POST',
      '/__inspect/requests?path=/api/notifications/send&status=200&offset=100',
      '/__inspect/requests?bodyContains=fill-user-9999',
    ),
    campaigns: paths(
      '/__inspect/campaigns?appId=soak-a',
      '/__inspect/campaigns?status=sent&order=desc',
      `/__inspect/campaigns/${campaign}/recipients?status=sent&offset=100`,
    ),
    apps: paths('/__apps'),
    'analytics users': paths('/api/analytics/users/user-3', '/api/analytics/users/user-250'),
  };
}

/** Kind → the slowest answer of each of its rounds, in order (the first is this process's first burst). */
const slowest = {};
const failures = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();
for (let round = 0; running; round++) {
  try {
    const all = Object.entries(await kinds());
    const [kind, paths] = all[round % all.length];
    const answers = await Promise.all(
      paths.map(async (path) => {
        const started = performance.now();
        const res = await fetch(`${url}${path}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`${path} answered ${res.status}`);
        return performance.now() - started;
      }),
    );
    (slowest[kind] ??= []).push(Math.max(...answers));
  } catch (error) {
    failures.push(`burst: ${error.cause ?? error}`);
  }
  for (let waited = 0; running && waited < 2000; waited += 100) await sleep(100);
}
process.stdout.write(JSON.stringify({ slowest, failures }));
