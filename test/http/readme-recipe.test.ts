/**
 * Blocks of the README and the guides in docs/, run as written. A block marked
 * `<!-- recipe:NAME -->` (wherever it lives: the "from nothing to a delivered notification"
 * recipe is in docs/api.md) has every curl command parsed (method, path, body) and sent to a
 * fresh emulator. Also the typed-client snippet's send, against the bundled example templates
 * it names.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/index.js';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';
import { userDocs } from '../helpers/markdown.js';

interface Step {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The `# → …` line after the command, without the arrow. */
  expect: string | undefined;
}

/** The one document of the README and docs/ that holds `text`. */
function documentWith(text: string): string {
  const holders = userDocs().filter((doc) => doc.text.includes(text));
  expect(
    holders.map((doc) => doc.file),
    `one document holds ${text}`,
  ).toHaveLength(1);
  return holders[0]!.text;
}

/**
 * Shell commands of a block: `\` continuations joined, a quoted argument spanning lines kept
 * whole; a comment is a line of its own.
 */
function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let open = '';
  for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
    if (!open && line.startsWith('#')) {
      commands.push(line);
      continue;
    }
    open = open ? `${open}\n${line}` : line;
    if ((open.match(/'/g) ?? []).length % 2 === 0) {
      commands.push(open);
      open = '';
    }
  }
  return commands;
}

/** `-H 'name: value'` pairs of a command (or of a bash array's definition). */
const headersOf = (text: string) =>
  Object.fromEntries([...text.matchAll(/-H '([\w-]+): ([^']*)'/g)].map(([, name, value]) => [name!, value!]));

/** The curl commands of the block after `marker`, each with its headers (`"${H[@]}"` expanded) and body. */
function recipe(marker: string): Step[] {
  const doc = documentWith(marker);
  const start = doc.indexOf(marker);
  const block = doc.slice(doc.indexOf('```sh', start) + 5, doc.indexOf('```\n', doc.indexOf('```sh', start) + 5));
  const steps: Step[] = [];
  let shared: Record<string, string> = {};
  for (const command of commandsOf(block)) {
    if (command.startsWith('H=(')) shared = headersOf(command);
    if (command.startsWith('# →') && steps.length) steps[steps.length - 1]!.expect = command.slice(3).trim();
    if (!command.startsWith('curl ')) continue;
    steps.push({
      method: /-X (\w+)/.exec(command)?.[1] ?? (command.includes(' -d ') ? 'POST' : 'GET'),
      path: /'?localhost:4010(\/[^\s']*)'?/.exec(command)![1]!,
      headers: { ...(command.includes('"${H[@]}"') ? shared : {}), ...headersOf(command) },
      body: /-d '([^']*)'/.exec(command)?.[1],
      expect: undefined,
    });
  }
  return steps;
}

/**
 * Runs the steps in order on `app`: each answers the status its `# →` line names (else a 2xx),
 * with the plain "key":value pairs the line shows.
 */
async function run(app: ReturnType<typeof createApp>, steps: Step[]): Promise<void> {
  for (const step of steps) {
    const res = await app.request(step.path, { method: step.method, headers: step.headers, body: step.body });
    const text = await res.text();
    const status = /^(\d{3})\b/.exec(step.expect ?? '')?.[1];
    if (status) expect(res.status, `${step.method} ${step.path}: ${text}`).toBe(Number(status));
    else expect(res.ok, `${step.method} ${step.path}: ${res.status} ${text}`).toBe(true);
    // Each "# → {…}" line: its plain "key":value pairs (no "…") are in the answer.
    for (const pair of step.expect?.match(/"\w+":("[^"…]*"|true|false|\[[^\]…]*\])(?=[,}])/g) ?? []) {
      expect(text, `${step.method} ${step.path}`).toContain(pair);
    }
  }
}

/** An emulator on a copy of the bundled example templates, as `npm start` serves them. */
async function withBundledTemplates(body: (app: ReturnType<typeof createApp>) => Promise<void>): Promise<void> {
  const fixturesDir = bundledTemplatesCopy();
  const app = createApp({ fixturesDir, scenarios: [], logLevel: 'silent', watch: false });
  try {
    await body(app);
  } finally {
    await app.close();
    rmSync(fixturesDir, { recursive: true, force: true });
  }
}

const RECIPES = ['channel-template-send', 'first-send', 'fault-for-one-request'];

it('runs every block the README and the guides mark as a recipe', () => {
  const marked = userDocs().flatMap((doc) => [...doc.text.matchAll(/<!-- recipe:([\w-]+) -->/g)].map((m) => m[1]!));
  expect(marked.sort()).toEqual([...RECIPES].sort());
});

describe('recipe: create a channel, a template, its content, approve, send', () => {
  it('runs as written, and every answer matches the fields the document shows', async () => {
    const steps = recipe('<!-- recipe:channel-template-send -->');
    expect(steps.map((s) => `${s.method} ${s.path.split('?')[0]}`)).toEqual([
      'POST /api/channels',
      'POST /api/templates',
      'POST /api/template-channels',
      'PUT /api/templates/order-shipped',
      'POST /api/notifications/send',
      'GET /__inspect/deliveries',
    ]);
    const app = createApp({ templates: [], logLevel: 'silent' });
    await run(app, steps);
    const deliveries = (await (await app.request('/__inspect/deliveries?appId=my-app')).json()) as {
      items: { rendered: unknown }[];
    };
    expect(deliveries.items[0]?.rendered).toEqual({ in_app: { title: 'Shipped, Ada!' } });
    await app.close();
  });
});

describe("the README's first steps, on the bundled examples", () => {
  it('sends to user-42 and finds the delivery, rendered', async () => {
    const steps = recipe('<!-- recipe:first-send -->');
    expect(steps.map((s) => `${s.method} ${s.path.split('?')[0]}`)).toEqual([
      'POST /v3/business-messaging/api/notifications/send',
      'GET /__inspect/deliveries',
    ]);
    await withBundledTemplates((app) => run(app, steps));
  });

  it('fails one request through a scenario named in its header, and only that one', async () => {
    const steps = recipe('<!-- recipe:fault-for-one-request -->');
    expect(steps.map((s) => `${s.method} ${s.path} ${s.headers['x-emulator-scenario'] ?? ''}`.trim())).toEqual([
      'POST /__scenarios',
      'POST /api/notifications/send send-500',
    ]);
    await withBundledTemplates(async (app) => {
      await run(app, steps);
      const { headers, body } = steps[1]!;
      delete headers['x-emulator-scenario'];
      const res = await app.request('/api/notifications/send', { method: 'POST', headers, body });
      expect(res.status, 'without the header nothing fails').toBe(200);
    });
  });
});

/** The object literal at `from` ({ … }, braces inside quotes skipped). */
function objectLiteralAt(text: string, from: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) quote = ch === quote ? undefined : quote;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(from, i + 1);
  }
  throw new Error('unbalanced object literal');
}

/** The `body` object literal of the docs' openapi-fetch snippet, read as JSON. */
function typedClientBody(): unknown {
  const opening = "```ts\nimport createClient from 'openapi-fetch';";
  const doc = documentWith(opening);
  const snippet = doc.slice(doc.indexOf(opening), doc.indexOf('```\n', doc.indexOf(opening) + opening.length) + 3);
  const body = /api\.POST\('\/api\/notifications\/send', \{\s*body: /.exec(snippet!);
  expect(body, 'the snippet sends no body').not.toBeNull();
  const json = objectLiteralAt(snippet!, body!.index + body![0].length)
    .replace(/\s\/\/ .*$/gm, '') // comments (a URL's // follows a colon, not a space)
    .replace(/'([^']*)'/g, '"$1"')
    .replace(/([{,]\s*)(\w+):/g, '$1"$2":')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(json);
}

describe('typed client snippet: the send it shows', () => {
  it('is accepted (200) by the bundled template it names, every required variable given', async () => {
    const body = typedClientBody();
    expect(body).toMatchObject({ template: { key: 'order-confirmation' }, targets: ['user-42'] });
    await withBundledTemplates(async (app) => {
      const res = await app.request('/v3/business-messaging/api/notifications/send', {
        method: 'POST',
        headers: { appid: 'my-app', apikey: 'my-key', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ templateKey: 'order-confirmation', mode: 'realtime' });
    });
  });
});
