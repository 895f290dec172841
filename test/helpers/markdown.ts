/** Reading the project's Markdown: its links (the docs' link test, the packed package's) and its documents. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Relative link targets of a Markdown file, pictures included (web addresses and mail links left out). */
export function relativeLinks(markdown: string): string[] {
  return [...withoutCodeBlocks(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** The user's documents: the README and every page of docs/ (a new guide is read without being listed here). */
export function userDocs(root = '.'): { file: string; text: string }[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return files.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}
