/**
 * The nearest name to a mistyped one (closestName) and the hints built on it: a body key's
 * `(did you mean "x"?)` and a command line's `Did you mean --x?`.
 */
import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, unknownFlagHint, withFlagHint } from '../../src/domain/did-you-mean.js';

describe('closestName', () => {
  it('allows two letters changed in a name of up to 8 letters, not three', () => {
    expect(closestName('prot', ['port', 'host'])).toBe('port');
    expect(closestName('abcdefgh', ['abcdexyz'])).toBeUndefined();
  });

  it('allows three letters changed from 9 letters on, and never four', () => {
    expect(closestName('abcdefghi', ['abcdefxyz'])).toBe('abcdefxyz');
    expect(closestName('abcdefghijkl', ['abcdefghixyz'])).toBe('abcdefghixyz');
    expect(closestName('abcdefghijkl', ['abcdefghwxyz'])).toBeUndefined();
    expect(closestName('abcdefghijklmnopqr', ['abcdefghijklmnwxyz'])).toBeUndefined();
  });

  it('compares case aside and gives the name as it is spelled', () => {
    expect(closestName('ADVANCEMS', ['now', 'advanceMs'])).toBe('advanceMs');
    expect(closestName('Advance', ['now', 'advanceMs'])).toBe('advanceMs');
  });

  it('finds nothing for an empty name or among no names', () => {
    expect(closestName('', ['ab', 'c'])).toBeUndefined();
    expect(closestName('port', [])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('quotes the nearest name, in double quotes unless told otherwise', () => {
    expect(didYouMean('advance', ['now', 'advanceMs'])).toBe(' (did you mean "advanceMs"?)');
    expect(didYouMean('advance', ['now', 'advanceMs'], "'")).toBe(" (did you mean 'advanceMs'?)");
  });

  it('is empty when no name is near', () => {
    expect(didYouMean('zzzzzzzz', ['now', 'advanceMs'])).toBe('');
  });
});

const FLAGS = ['port', 'host', 'data-file'];

describe('unknownFlagHint', () => {
  it('names the flag nearest to the first one it does not know, with or without a value after =', () => {
    expect(unknownFlagHint(['--prot', '5110'], FLAGS)).toBe(' Did you mean --port?');
    expect(unknownFlagHint(['--data-fille=x.json'], FLAGS)).toBe(' Did you mean --data-file?');
    expect(unknownFlagHint(['--port', '5110', '--hots'], FLAGS)).toBe(' Did you mean --host?');
  });

  it('passes over values, empty ones included, and one-dash flags', () => {
    expect(unknownFlagHint(['5110', '--prot'], FLAGS)).toBe(' Did you mean --port?');
    expect(unknownFlagHint(['-p', '--prot'], FLAGS)).toBe(' Did you mean --port?');
    expect(unknownFlagHint(['--host', '', '--prot'], FLAGS)).toBe(' Did you mean --port?');
  });

  it('hints at the first unknown flag only, and at none after --', () => {
    expect(unknownFlagHint(['--zzzzzz', '--prot'], FLAGS)).toBe('');
    expect(unknownFlagHint(['--', '--prot'], FLAGS)).toBe('');
    expect(unknownFlagHint(['--port', '1'], FLAGS)).toBe('');
    expect(unknownFlagHint([], FLAGS)).toBe('');
  });
});

describe('withFlagHint', () => {
  it("puts the hint after the parser's message as a sentence of its own", () => {
    expect(withFlagHint("Unknown option '--prot'.", ['--prot'], FLAGS)).toBe(
      "Unknown option '--prot'. Did you mean --port?",
    );
    // No period to drop: none in the middle of the message goes, nor its last character.
    expect(withFlagHint("Unknown option '--prot' (v1.2)", ['--prot'], FLAGS)).toBe(
      "Unknown option '--prot' (v1.2). Did you mean --port?",
    );
  });

  it('leaves the message as it is when no flag is near', () => {
    expect(withFlagHint("Unknown option '--zzzzzz'.", ['--zzzzzz'], FLAGS)).toBe("Unknown option '--zzzzzz'.");
  });
});
