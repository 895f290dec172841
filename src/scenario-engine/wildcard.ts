/**
 * The wildcards of scenario matchers, matched without regular expressions. A glob like
 * `*a*a*a*a*a*a*a*c` compiled to a RegExp backtracks: against a 60-character value it held
 * the event loop for minutes, and a pattern of 33,000 characters threw "Regular expression
 * too large" at the first request it met. Here a pattern of texts and `*`s, or of texts and
 * `:param` segments, is one left-to-right pass (starsOnly, segmentsOnly); one with both
 * follows every way through the pattern at once (everyWay: the set of positions each part
 * can end at). Each costs at most parts × value length steps, and no pattern can fail to
 * compile.
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

function matcher(given: Part[]): Wildcard {
  // Adjacent texts (a path's segments and slashes) are one text.
  const parts: Part[] = [];
  for (const part of given) {
    const previous = parts.at(-1);
    if (part.kind === 'text' && previous?.kind === 'text')
      parts[parts.length - 1] = { kind: 'text', text: previous.text + part.text };
    else parts.push(part);
  }
  // Literal patterns (most header and app matchers) need no walk.
  if (parts.every((part) => part.kind === 'text')) {
    const literal = parts.map((part) => (part as { text: string }).text).join('');
    return (value) => value === literal;
  }
  if (parts.every((part) => part.kind !== 'segment')) return starsOnly(parts);
  if (parts.every((part) => part.kind !== 'any')) return segmentsOnly(parts);
  return everyWay(parts);
}

/** `*`s and `:param` segments together: reach[p] = 1 when the parts so far can match value[0, p). */
function everyWay(parts: Part[]): Wildcard {
  return (value) => {
    const end = value.length;
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

/**
 * Texts between `*`s (no `:param`), the shape of every glob and most paths: each text is
 * taken at its first place after the one before, which is never worse than a later place,
 * so one left-to-right pass decides, with nothing allocated (a failDelivery rule tests every
 * recipient of a campaign).
 */
function starsOnly(parts: Part[]): Wildcard {
  const first = parts[0]!;
  const last = parts.at(-1)!;
  const head = first.kind === 'text' ? first.text : '';
  const tail = parts.length > 1 && last.kind === 'text' ? last.text : '';
  const middle = parts
    .slice(head ? 1 : 0, tail ? -1 : undefined)
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []));
  const least = head.length + tail.length + middle.reduce((sum, t) => sum + t.length, 0);
  return (value) => {
    if (value.length < least || !value.startsWith(head) || !value.endsWith(tail)) return false;
    let at = head.length;
    const end = value.length - tail.length;
    for (const text of middle) {
      const found = value.indexOf(text, at);
      if (found < 0 || found + text.length > end) return false;
      at = found + text.length;
    }
    return true;
  };
}

/**
 * Texts and `:param` segments, no `*` (`/api/campaigns/:id/send`): a segment is a whole path
 * segment, so it ends at the next slash (or the end) and one pass decides.
 */
function segmentsOnly(parts: Part[]): Wildcard {
  return (value) => {
    let at = 0;
    for (const part of parts) {
      if (part.kind === 'text') {
        if (!value.startsWith(part.text, at)) return false;
        at += part.text.length;
      } else {
        const slash = value.indexOf('/', at);
        const end = slash < 0 ? value.length : slash;
        if (end === at) return false; // a segment is never empty
        at = end;
      }
    }
    return at === value.length;
  };
}
