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

/** The fenced code blocks of a Markdown text in `lang` (`ts`, `sh`, …), their text without the fences. */
export const codeBlocks = (markdown: string, lang: string): string[] =>
  [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);

/** The one block in `lang` of `file` that contains `needle` (a test fails when there is none, or more than one). */
export function blockWith(file: string, lang: string, needle: string): string {
  const found = codeBlocks(readFileSync(file, 'utf8'), lang).filter((block) => block.includes(needle));
  if (found.length !== 1) throw new Error(`${file}: ${found.length} \`${lang}\` blocks contain ${needle}, not one`);
  return found[0]!;
}
