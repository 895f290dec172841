/**
 * The project's Markdown stays navigable as sections move between the README and docs/:
 * every relative link names a file that exists and, with a #fragment, a heading that
 * exists in it (slugged the way GitHub renders headings); every guide says what it is for
 * and links back to the README.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeLinks, withoutCodeBlocks } from '../helpers/markdown.js';

/** Every Markdown file of the project's own: a new page in docs/ is checked without being listed here. */
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's heading ids: lower case, punctuation dropped (`-` and `_` kept), spaces to `-`, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

describe('the guides in docs/', () => {
  it('are each listed in the README, which stays a front door of at most 300 lines', () => {
    const readme = readFileSync('README.md', 'utf8');
    const listed = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    expect(DOCS.filter((name) => name.startsWith('docs/') && !listed.has(name))).toEqual([]);
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  for (const file of DOCS.filter((name) => name.startsWith('docs/'))) {
    it(`${file}: says what it is for, then links back to the README`, () => {
      const [title, purpose, ...rest] = readFileSync(file, 'utf8').split(/\n\s*\n/);
      expect(title).toMatch(/^# \S/);
      expect(purpose, 'a sentence first, not a heading or a list').toMatch(/^[A-Z`][^\n]*[\s\S]*\.$/);
      expect(rest.slice(0, 2).join('\n'), 'a link back to the README near the top').toContain('](../README.md)');
    });
  }
});

describe('links between the Markdown files', () => {
  it('slugs headings as GitHub does', () => {
    const ids = headingIds('# Reset (`POST /__reset`)\n## A, b & c\n## A, b & c\n```\n# not a heading\n```\n');
    expect([...ids]).toEqual(['reset-post-__reset', 'a-b--c', 'a-b--c-1']);
  });

  for (const file of DOCS) {
    it(`${file}: every relative link and #fragment resolves`, () => {
      const broken: string[] = [];
      for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const linked = path === '' ? file : join(dirname(file), path);
        if (!existsSync(linked)) broken.push(`${target}: no such file`);
        else if (fragment && linked.endsWith('.md') && !headingIds(readFileSync(linked, 'utf8')).has(fragment))
          broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    });
  }
});
