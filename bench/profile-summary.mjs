// Where a CPU profile's time goes (docs/performance.md, "Where the time goes"):
//   node bench/profile-summary.mjs <file.cpuprofile>… [--top N] [--from S] [--to S] [--during RE] [--timeline]
// prints self time per group (the emulator's layers, hono, zod, papaparse, busboy, Node's
// internals, the garbage collector), the emulator's busiest files and the top functions, as a
// share of the busy time (every sample but "(idle)"). Several files are summed.
// A metric's phase: --from/--to keep the samples between those seconds of each profile
// (--timeline prints each second's busy ms, to find them); --during keeps the stretches in which
// a function matching RE (against "name src/file.ts:line") runs, from its first sample to its
// last, a gap of over 500 ms starting a new stretch: everything else running meanwhile counts too.
// The profiles come from BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=<dir>'. dist/cli.js bundles
// the emulator with its dependencies, so each function's position is mapped back through the
// bundle's source map (Node's own SourceMap: no dependency).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
/** The value after `--name`, taken out of args (a flag without value: true), or `fallback`. */
function option(name, fallback, isFlag = false) {
  const at = args.indexOf(name);
  return at < 0 ? fallback : isFlag ? args.splice(at, 1).length > 0 : args.splice(at, 2)[1];
}
const top = Number(option('--top', 25));
const fromMs = Number(option('--from', 0)) * 1000;
const toMs = Number(option('--to', Infinity)) * 1000;
const duringText = option('--during', null);
const during = duringText === null ? null : new RegExp(duringText);
const timeline = option('--timeline', false, true);
const GAP_MS = 500;
if (args.length === 0) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile>… [--top N] [--from S] [--to S]');
  process.stderr.write(' [--during RE] [--timeline]\n');
  process.exit(2);
}

/** One SourceMap per bundle file (null: none beside it), read once. */
const maps = new Map();
function sourceMapOf(url) {
  if (!maps.has(url)) {
    const path = fileURLToPath(url);
    maps.set(url, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : null);
  }
  return maps.get(url);
}

/** Where a frame's function is written: `src/…:line`, `node_modules/<package>/…`, `node:…`, or its URL. */
function originOf({ url, lineNumber, columnNumber }) {
  const entry = url.startsWith('file://') ? sourceMapOf(url)?.findEntry(lineNumber, columnNumber) : undefined;
  if (entry?.originalSource) {
    const source = entry.originalSource.replace(/^.*?\/(src|node_modules)\//, '$1/');
    return `${source}:${entry.originalLine + 1}`;
  }
  return url ? `${url.replace(/^file:\/\/.*?\/(src|node_modules|bench|dist)\//, '$1/')}:${lineNumber + 1}` : '';
}

/** The group a function's self time is counted in. */
function groupOf(name, origin) {
  if (/^\(.*\)$/.test(name)) return name; // (garbage collector), (idle), (program), (root)
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(origin)?.[1];
  if (pkg === '@hono/node-server' || pkg === 'hono') return 'hono + @hono/node-server';
  if (pkg) return pkg;
  const layer = /^src\/([^/:]+\/|[^/:]+\.ts)/.exec(origin)?.[1];
  if (layer) return `emulator: src/${layer}`;
  if (/^node:(_http|internal\/http|http)/.test(origin)) return 'node: http';
  if (/^node:(net|stream|internal\/(streams|webstreams|stream_base))/.test(origin)) return 'node: net + streams';
  if (origin.startsWith('node:')) return 'node: other internals';
  if (origin) return 'other scripts';
  // Node's C++ bindings have no URL; a socket write's system call (loopback TCP included) is in them.
  return /^write/.test(name) ? 'native: socket writes' : 'native: other';
}

/** Each node's name and origin, and whether a function matching `during` is on its stack. */
function describeNodes(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const described = new Map();
  const visit = (node, underMatch) => {
    const name = node.callFrame.functionName;
    const origin = originOf(node.callFrame);
    const under = underMatch || (during?.test(`${name} ${origin}`) ?? false);
    described.set(node.id, { name, origin, under });
    for (const child of node.children ?? []) visit(byId.get(child), under);
  };
  visit(profile.nodes[0], false); // the first node is "(root)"
  return described;
}

/** Samples as [node id, ms since the profile's start, ms it lasts (until the next sample)]. */
function samplesOf(profile) {
  let at = 0;
  return profile.samples.map((id, i) => {
    at += profile.timeDeltas[i] / 1000;
    return [id, at, (profile.timeDeltas[i + 1] ?? 0) / 1000];
  });
}

/** The windows a sample must fall in: --from/--to, narrowed to the --during stretches when given. */
function windowsOf(samples, described) {
  if (during === null) return [[fromMs, toMs]];
  const stretches = [];
  for (const [id, at, ms] of samples) {
    if (!described.get(id).under || at < fromMs || at >= toMs) continue;
    const last = stretches.at(-1);
    if (last && at - last[1] <= GAP_MS) last[1] = at + ms;
    else stretches.push([at, at + ms]);
  }
  return stretches;
}

const functions = new Map();
const groups = new Map();
const files = new Map();
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const described = describeNodes(profile);
  const samples = samplesOf(profile);
  const windows = windowsOf(samples, described);
  const perSecond = [];
  for (const [id, at, ms] of samples) {
    const { name, origin } = described.get(id);
    const second = Math.floor(at / 1000);
    if (name !== '(idle)') perSecond[second] = (perSecond[second] ?? 0) + ms;
    if (!windows.some(([from, to]) => at >= from && at < to)) continue;
    add(groups, groupOf(name, origin), ms);
    add(functions, `${name || '(anonymous)'}\t${origin}`, ms);
    if (origin.startsWith('src/')) add(files, origin.replace(/:\d+$/, ''), ms);
  }
  const seconds = windows.map(
    ([from, to]) => `${(from / 1000).toFixed(2)}-${(Math.min(to, samples.at(-1)[1]) / 1000).toFixed(2)}`,
  );
  process.stdout.write(`${file}: seconds ${seconds.join(', ')}\n`);
  if (timeline)
    process.stdout.write(
      `  busy ms per second: ${[...perSecond].map((ms, s) => `${s}:${Math.round(ms ?? 0)}`).join(' ')}\n`,
    );
}

const busy = [...groups].reduce((sum, [group, ms]) => sum + (group === '(idle)' ? 0 : ms), 0);
const share = (ms) => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
const row = (ms, label) => `${(ms / 1000).toFixed(2).padStart(8)} s ${share(ms)}  ${label}\n`;
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);

process.stdout.write(`\nbusy (all but idle): ${(busy / 1000).toFixed(2)} s; shares below are of that\n\nby group\n`);
for (const [group, ms] of sorted(groups)) if (group !== '(idle)') process.stdout.write(row(ms, group));
process.stdout.write("\nthe emulator's files\n");
for (const [file, ms] of sorted(files).slice(0, 15)) process.stdout.write(row(ms, file));
process.stdout.write(`\ntop ${top} functions by self time\n`);
for (const [key, ms] of sorted(functions)
  .filter(([key]) => !key.startsWith('(idle)\t'))
  .slice(0, top)) {
  const [name, origin] = key.split('\t');
  process.stdout.write(row(ms, `${name}  ${origin}`));
}
