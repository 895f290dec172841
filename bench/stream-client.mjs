/* global fetch, TextDecoder */
// Run as its own process by the soak (bench/metrics/soak-load.ts), away from the load
// generator's busy event loop: reads GET <url>/__inspect/stream (argv[2]), every event type,
// as events come, until stdin closes. Prints JSON: the bytes read and how many events of each
// type it saw (the stream's `dropped` events too: it drops what a client leaves waiting past
// 10,000 events).
const url = process.argv[2];
const types = {};
let running = true;
process.stdin.on('end', () => (running = false)).resume();

async function read() {
  // A heartbeat every second: the reader sees its stop within a second, events or not.
  const res = await fetch(`${url}/__inspect/stream?heartbeatMs=1000`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  /** The last line of the text read so far, until its end arrives. */
  let partial = '';
  while (running) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.length;
    const lines = (partial + decoder.decode(value, { stream: true })).split('\n');
    partial = lines.pop();
    for (const line of lines) if (line.startsWith('event: ')) types[line.slice(7)] = (types[line.slice(7)] ?? 0) + 1;
  }
  await reader.cancel();
  return bytes;
}

const bytes = await read();
process.stdout.write(JSON.stringify({ bytes, types }));
