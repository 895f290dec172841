/**
 * "Did you mean …": the valid name closest to a mistyped one (a flag, a command, a body key,
 * a template key), when it is close enough to be the one meant.
 */
import { closest, distance } from 'fastest-levenshtein';

/**
 * The name of `names` nearest to `typed` (case aside), or undefined when none is near: at most
 * two letters changed, or a third of a longer name's (at most three), so `--prot` (two swapped
 * letters) finds `--port` and `advance` finds `advanceMs`, but `--x` does not find `--host`.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  if (names.length === 0 || typed === '') return undefined;
  const lower = typed.toLowerCase();
  const near = closest(
    lower,
    names.map((name) => name.toLowerCase()),
  );
  const limit = Math.min(3, Math.max(2, Math.floor(lower.length / 3)));
  if (distance(lower, near) > limit) return undefined;
  return names.find((name) => name.toLowerCase() === near);
}

/** ` (did you mean "x"?)`, or "" when no name is near. */
export function didYouMean(typed: string, names: readonly string[], quote = '"'): string {
  const near = closestName(typed, names);
  return near === undefined ? '' : ` (did you mean ${quote}${near}${quote}?)`;
}

/** A parser's message with the hint after it, as its own sentence: `Unknown option '--prot'. Did you mean --port?`. */
export function withFlagHint(message: string, argv: readonly string[], flags: readonly string[]): string {
  const hint = unknownFlagHint(argv, flags);
  return hint ? `${message.replace(/\.$/, '')}.${hint}` : message;
}

/**
 * The hint for the first flag of `argv` that `flags` does not know (`--prot 5110` → `did you
 * mean --port?`), for the message of a parser that refused it. Stops at `--`.
 */
export function unknownFlagHint(argv: readonly string[], flags: readonly string[]): string {
  for (const arg of argv) {
    if (arg === '--') break;
    if (!arg.startsWith('--')) continue;
    const name = arg.slice(2).split('=')[0]!;
    if (flags.includes(name)) continue;
    const near = closestName(name, flags);
    return near === undefined ? '' : ` Did you mean --${near}?`;
  }
  return '';
}
