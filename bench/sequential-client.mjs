// Run as its own process by the burst metric: asks each URL of the JSON list in argv[2] (
// [{ url, headers }]) one after another on one keep-alive connection, then prints each
// round trip in ms as a JSON array. Apart from the bench's process, whose heap and turns
// (the rows it keeps, its collections) would otherwise be counted in the emulator's p99.
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';

const calls = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const times = new Float64Array(calls.length);

const ask = ({ url, headers }) =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { agent, headers }, (res) => {
      res.resume();
      res.once('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    }).once('error', reject);
  });

for (let i = 0; i < calls.length; i++) times[i] = await ask(calls[i]);
agent.destroy();
process.stdout.write(JSON.stringify(Array.from(times)));
