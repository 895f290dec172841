/**
 * The README's "from nothing to a delivered notification" recipe, run as written: every
 * curl command of the block is parsed (method, path, body) and sent to a fresh emulator.
 * Also the typed-client snippet's send, against the bundled example templates it names.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/index.js';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';

interface Step {
  method: string;
  path: string;
  body: string | undefined;
  apiHeaders: boolean;
  expect: string | undefined;
}

/** The curl commands of the block after `marker`, continuation lines joined. */
function recipe(marker: string): Step[] {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const start = readme.indexOf(marker);
  expect(start, `README.md has no ${marker}`).toBeGreaterThan(-1);
  const block = readme.slice(
    readme.indexOf('```sh', start) + 5,
    readme.indexOf('```\n', readme.indexOf('```sh', start) + 5),
  );
  const lines = block.replace(/\\\n\s*/g, '').split('\n');
  const steps: Step[] = [];
  for (const line of lines) {
    if (line.startsWith('# →') && steps.length) steps[steps.length - 1]!.expect = line.slice(3).trim();
    if (!line.startsWith('curl ')) continue;
    const url = /'?localhost:4010(\/[^\s']*)'?/.exec(line)![1]!;
    steps.push({
      method: /-X (\w+)/.exec(line)?.[1] ?? (line.includes(' -d ') ? 'POST' : 'GET'),
      path: url,
      body: /-d '([^']*)'/.exec(line)?.[1],
      apiHeaders: line.includes('"${H[@]}"'),
      expect: undefined,
    });
  }
  return steps;
}

describe('README recipe: create a channel, a template, its content, approve, send', () => {
  it('runs as written, and every answer matches the fields the README shows', async () => {
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
    for (const step of steps) {
      const headers: Record<string, string> = step.apiHeaders
        ? { appid: 'my-app', apikey: 'my-key', 'content-type': 'application/json' }
        : {};
      const res = await app.request(step.path, { method: step.method, headers, body: step.body });
      const text = await res.text();
      expect(res.status, `${step.method} ${step.path}: ${text}`).toBe(200);
      // Each "# → {…}" line: its plain "key":value pairs (no "…") are in the answer.
      for (const pair of step.expect?.match(/"\w+":("[^"…]*"|true|false|\[[^\]…]*\])(?=[,}])/g) ?? []) {
        expect(text, `${step.method} ${step.path}`).toContain(pair);
      }
    }
    const deliveries = (await (await app.request('/__inspect/deliveries?appId=my-app')).json()) as {
      items: { rendered: unknown }[];
    };
    expect(deliveries.items[0]?.rendered).toEqual({ in_app: { title: 'Shipped, Ada!' } });
    await app.close();
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

/** The `body` object literal of the README's openapi-fetch snippet, read as JSON. */
function typedClientBody(): unknown {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const snippet = /```ts\nimport createClient from 'openapi-fetch';[\s\S]*?```/.exec(readme)?.[0];
  expect(snippet, 'README.md has no openapi-fetch snippet').toBeDefined();
  const body = /api\.POST\('\/api\/notifications\/send', \{\s*body: /.exec(snippet!);
  expect(body, 'the snippet sends no body').not.toBeNull();
  const json = objectLiteralAt(snippet!, body!.index + body![0].length)
    .replace(/\s\/\/ .*$/gm, '') // comments (a URL's // follows a colon, not a space)
    .replace(/'([^']*)'/g, '"$1"')
    .replace(/([{,]\s*)(\w+):/g, '$1"$2":')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(json);
}

describe('README typed client: the send it shows', () => {
  it('is accepted (200) by the bundled template it names, every required variable given', async () => {
    const body = typedClientBody();
    expect(body).toMatchObject({ template: { key: 'order-confirmation' }, targets: ['user-42'] });
    const fixturesDir = bundledTemplatesCopy();
    const app = createApp({ fixturesDir, logLevel: 'silent', watch: false });
    const res = await app.request('/v3/business-messaging/api/notifications/send', {
      method: 'POST',
      headers: { appid: 'my-app', apikey: 'my-key', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ templateKey: 'order-confirmation', mode: 'realtime' });
    await app.close();
    rmSync(fixturesDir, { recursive: true, force: true });
  });
});
