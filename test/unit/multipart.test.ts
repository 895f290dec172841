/**
 * The upload's multipart/form-data reader (src/http/multipart.ts): parts as views into the
 * body, boundaries quoted or not, and a MultipartError for a body that breaks its framing.
 */
import { describe, expect, it } from 'vitest';
import { MultipartError, boundaryOf, createMultipartReader, readMultipart } from '../../src/http/multipart.js';

const TYPE = 'multipart/form-data; boundary=XyZ';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined): string => new TextDecoder().decode(data);

/** Parts between delimiters; `padding` is the transport padding (spaces, tabs) a delimiter line may end with. */
function body(...parts: string[]): string {
  return paddedBody('', ...parts);
}

function paddedBody(padding: string, ...parts: string[]): string {
  return `${parts.map((p) => `--XyZ${padding}\r\n${p}\r\n`).join('')}--XyZ--\r\n`;
}

describe('multipart reader', () => {
  it('reads a text field and a file part, the file as a view into the body (no copy)', () => {
    const input = bytes(
      body(
        'Content-Disposition: form-data; name="campaignId"\r\n\r\nc1',
        'Content-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: ' +
          'text/csv\r\n\r\nuser_id\r\nu1\r\n',
      ),
    );
    const parts = readMultipart(input, TYPE);
    expect(parts.get('campaignId')).toMatchObject({ filename: null });
    expect(text(parts.get('campaignId')?.data)).toBe('c1');
    expect(parts.get('file')?.filename).toBe('r.csv');
    expect(text(parts.get('file')?.data)).toBe('user_id\r\nu1\r\n');
    expect(parts.get('file')?.data.buffer).toBe(input.buffer);
  });

  it('reads what FormData serialises, whatever boundary it picks', async () => {
    const form = new FormData();
    form.append('campaignId', 'abc');
    form.append('file', new Blob(['user_id\nu1\n"a\r\n--b",x\n']), 'x.csv');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const parts = readMultipart(new Uint8Array(await request.arrayBuffer()), request.headers.get('content-type') ?? '');
    expect(text(parts.get('campaignId')?.data)).toBe('abc');
    expect(text(parts.get('file')?.data)).toBe('user_id\nu1\n"a\r\n--b",x\n');
  });

  it('accepts a preamble, a quoted boundary, an empty part and keeps the last of two same-named parts', () => {
    const input =
      'preamble\r\n--a b\r\nContent-Disposition: form-data; name="f"\r\n\r\n\r\n' +
      '--a b\r\ncontent-disposition: form-data; name=f\r\n\r\nsecond\r\n--a b--';
    const parts = readMultipart(bytes(input), 'multipart/form-data; boundary="a b"');
    expect(text(parts.get('f')?.data)).toBe('second');
    const empty = readMultipart(
      bytes(`--a b\r\nContent-Disposition: form-data; name="f"\r\n\r\n\r\n--a b--`),
      'multipart/form-data; boundary="a b"',
    );
    expect(empty.get('f')?.data.length).toBe(0);
  });

  it('finds Content-Disposition among other part headers in any order and case (.NET sends Content-Type first)', () => {
    const parts = readMultipart(
      bytes(
        body(
          'Content-Type: text/csv\r\ncontent-disposition: form-data; name=file; filename=r.csv\r\n\r\nu1',
          'X-Note: a: b\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\nc1',
        ),
      ),
      TYPE,
    );
    expect(parts.get('file')?.filename).toBe('r.csv');
    expect(text(parts.get('file')?.data)).toBe('u1');
    expect(text(parts.get('campaignId')?.data)).toBe('c1');
  });

  it('ignores a part without a name and decodes %-escaped quotes in names', () => {
    const parts = readMultipart(
      bytes(body('Content-Type: text/plain\r\n\r\nx', 'Content-Disposition: form-data; name="a%22b"\r\n\r\ny')),
      TYPE,
    );
    expect([...parts.keys()]).toEqual(['a"b']);
  });

  it('throws MultipartError for a missing boundary parameter, a body without it, or a truncated body', () => {
    expect(() => boundaryOf('multipart/form-data')).toThrow(MultipartError);
    expect(() => readMultipart(bytes('no parts here'), TYPE)).toThrow(/the boundary never occurs in the body/);
    expect(() =>
      readMultipart(bytes('--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nuser_id\nu1'), TYPE),
    ).toThrow(/closing boundary/);
    expect(() => readMultipart(bytes('--XyZ\r\nContent-Disposition: form-data; name="file"'), TYPE)).toThrow(
      /end of headers/,
    );
    expect(() => readMultipart(bytes('--XyZjunk'), TYPE)).toThrow(/CRLF/);
  });

  it('refuses part headers past 16 KiB as they arrive, rather than holding them until the end', () => {
    const reader = createMultipartReader(TYPE, () => null);
    reader.write(
      bytes(`--XyZ\r\nContent-Disposition: form-data; name="file"\r\nX-Pad: ${'a'.repeat(16 * 1024 - 100)}`),
    );
    expect(() => reader.write(bytes('a'.repeat(200)))).toThrow(/a part has no end of headers/);
  });
});

describe('multipart reader, body in pieces', () => {
  it('hands each part the same bytes however the body is cut (delimiters, padding, CRLF)', async () => {
    const { default: fc } = await import('fast-check');
    const content = fc
      .string({ unit: fc.constantFrom('a', '\r', '\n', '-', 'X', 'y', 'Z', '--XyZ'), maxLength: 40 })
      .filter((s) => !s.includes('\r\n--XyZ')); // that would be a delimiter
    const padding = fc.constantFrom('', ' ', '\t', ' \t  ');
    fc.assert(
      fc.property(content, content, padding, fc.array(fc.nat(300), { maxLength: 10 }), (a, b, pad, cuts) => {
        const input = bytes(
          `pre\r\n${paddedBody(
            pad,
            `Content-Disposition: form-data; name="a"\r\n\r\n${a}`,
            `Content-Disposition: form-data; name="b"; filename="f"\r\n\r\n${b}`,
          )}`,
        );
        const got = new Map<string, string>();
        const reader = createMultipartReader(TYPE, (name) => {
          got.set(name, '');
          return (data) => got.set(name, got.get(name) + text(data));
        });
        let at = 0;
        for (const cut of [...cuts].sort((x, y) => x - y).map((c) => Math.min(c, input.length))) {
          reader.write(input.subarray(at, Math.max(at, cut)));
          at = Math.max(at, cut);
        }
        reader.write(input.subarray(at));
        reader.end();
        expect(Object.fromEntries(got)).toEqual({ a, b });
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });
});
