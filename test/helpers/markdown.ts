/** Reading links out of the project's Markdown (the docs' link test, the packed package's). */

export const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Relative link targets of a Markdown file, pictures included (web addresses and mail links left out). */
export function relativeLinks(markdown: string): string[] {
  return [...withoutCodeBlocks(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}
