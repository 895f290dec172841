/**
 * The wildcards of scenario matchers, matched without regular expressions. A glob like
 * `*a*a*a*a*a*a*a*c` compiled to a RegExp backtracks: against a 60-character value it held
 * the event loop for minutes, and a pattern of 33,000 characters threw "Regular expression
 * too large" at the first request it met. This matcher follows every way through the pattern
 * at once (the set of positions each part can end at), so any pattern costs at most
 * parts × value length steps, and no pattern can fail to compile.
 */

/** A literal run of characters; `*` (any run, slashes included); `:param` (one path segment). */
type Part = { kind: 'text'; text: string } | { kind: 'any' } | { kind: 'segment' };

export type Wildcard = (value: string) => boolean;

const SLASH = 47;

/** `*` matches any run of characters, slashes included. */
export function glob(pattern: string): Wildcard {
  return matcher(globParts(pattern));
}

/** Path segments separated by `/`: `:name` is one non-empty segment; other segments are globs. */
export function pathPattern(pattern: string): Wildcard {
  const parts: Part[] = [];
  pattern.split('/').forEach((segment, i) => {
    if (i > 0) parts.push({ kind: 'text', text: '/' });
    if (segment.startsWith(':')) parts.push({ kind: 'segment' });
    else parts.push(...globParts(segment));
  });
  return matcher(parts);
}

function globParts(pattern: string): Part[] {
  const parts: Part[] = [];
  pattern.split('*').forEach((text, i) => {
    if (i > 0 && parts.at(-1)?.kind !== 'any') parts.push({ kind: 'any' });
    if (text) parts.push({ kind: 'text', text });
  });
  return parts;
}

function matcher(parts: Part[]): Wildcard {
  // Literal patterns (most header and app matchers) need no walk.
  if (parts.every((part) => part.kind === 'text')) {
    const literal = parts.map((part) => (part as { text: string }).text).join('');
    return (value) => value === literal;
  }
  return (value) => {
    const end = value.length;
    // reach[p] = 1: the parts so far can match value[0, p).
    let reach = new Uint8Array(end + 1);
    reach[0] = 1;
    for (const part of parts) {
      const next = new Uint8Array(end + 1);
      let reached = false;
      if (part.kind === 'text') {
        const size = part.text.length;
        for (let p = 0; p + size <= end; p++) {
          if (reach[p] && value.startsWith(part.text, p)) {
            next[p + size] = 1;
            reached = true;
          }
        }
      } else if (part.kind === 'any') {
        const from = reach.indexOf(1);
        if (from >= 0) {
          next.fill(1, from);
          reached = true;
        }
      } else {
        // One or more characters other than '/', started at a reached position.
        let open = false;
        for (let q = 1; q <= end; q++) {
          if (value.charCodeAt(q - 1) === SLASH) open = false;
          else if (reach[q - 1]) open = true;
          if (open) {
            next[q] = 1;
            reached = true;
          }
        }
      }
      if (!reached) return false;
      reach = next;
    }
    return reach[end] === 1;
  };
}
