/**
 * The multipart/form-data reader (src/http/multipart.ts, over @fastify/busboy): parts as views
 * into the body's pieces, handed over in order and streamed as the body arrives, boundaries
 * quoted or not, and a MultipartError for a body that breaks its framing.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { MultipartError, readMultipart, type PartConsumer } from '../../src/http/multipart.js';

const TYPE = 'multipart/form-data; boundary=XyZ';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined): string => new TextDecoder().decode(data);

function body(...parts: string[]): string {
  return `${parts.map((p) => `--XyZ\r\n${p}\r\n`).join('')}--XyZ--\r\n`;
}

interface Part {
  filename: string | null;
  data: Uint8Array;
  /** The pieces the part's bytes came in. */
  pieces: Uint8Array[];
}

/** Every part by name (a name sent twice: its last part), the body given in `pieces`. */
async function readParts(pieces: Uint8Array[], type = TYPE): Promise<Map<string, Part>> {
  const parts = new Map<string, Part>();
  await readMultipart(type, pieces, (name, filename) => {
    const part: Part = { filename, data: new Uint8Array(0), pieces: [] };
    parts.set(name, part);
    return (data) => void part.pieces.push(data);
  });
  for (const part of parts.values()) part.data = Buffer.concat(part.pieces);
  return parts;
}

const readText = (input: string, type = TYPE) => readParts([bytes(input)], type);

/** A body whose pieces are handed over one at a time, counting how many were taken. */
function countedBody(pieces: Uint8Array[]) {
  const counted = { taken: 0 };
  async function* generate() {
    for (const piece of pieces) {
      counted.taken++;
      yield piece;
    }
  }
  return { counted, body: generate() };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('multipart reader', () => {
  it('reads a text field and a file part, the file as a view into the body (no copy)', async () => {
    const input = bytes(
      body(
        'Content-Disposition: form-data; name="campaignId"\r\n\r\nc1',
        'Content-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: ' +
          'text/csv\r\n\r\nuser_id\r\nu1\r\n',
      ),
    );
    const parts = await readParts([input]);
    expect(parts.get('campaignId')).toMatchObject({ filename: null });
    expect(text(parts.get('campaignId')?.data)).toBe('c1');
    expect(parts.get('file')?.filename).toBe('r.csv');
    expect(text(parts.get('file')?.data)).toBe('user_id\r\nu1\r\n');
    for (const piece of parts.get('file')?.pieces ?? []) expect(piece.buffer).toBe(input.buffer);
  });

  it('reads what FormData serialises, whatever boundary it picks', async () => {
    const form = new FormData();
    form.append('campaignId', 'abc');
    form.append('file', new Blob(['user_id\nu1\n"a\r\n--b",x\n']), 'x.csv');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const parts = await readParts(
      [new Uint8Array(await request.arrayBuffer())],
      request.headers.get('content-type') ?? '',
    );
    expect(text(parts.get('campaignId')?.data)).toBe('abc');
    expect(text(parts.get('file')?.data)).toBe('user_id\nu1\n"a\r\n--b",x\n');
  });

  it('accepts a preamble, a quoted boundary, an empty part, and hands over two same-named parts in order', async () => {
    const input =
      'preamble\r\n--a b\r\nContent-Disposition: form-data; name="f"\r\n\r\nfirst\r\n' +
      '--a b\r\ncontent-disposition: form-data; name=f\r\n\r\nsecond\r\n--a b--';
    const seen: string[] = [];
    await readMultipart('multipart/form-data; boundary="a b"', [bytes(input)], () => (data) => {
      seen.push(text(data));
    });
    expect(seen).toEqual(['first', 'second']);
    const empty = await readText(
      `--a b\r\nContent-Disposition: form-data; name="f"\r\n\r\n\r\n--a b--`,
      'multipart/form-data; boundary="a b"',
    );
    expect(empty.get('f')?.data.length).toBe(0);
  });

  it('finds Content-Disposition among part headers in any order and case (.NET sends Content-Type first)', async () => {
    const parts = await readText(
      body(
        'Content-Type: text/csv\r\ncontent-disposition: form-data; name=file; filename=r.csv\r\n\r\nu1',
        'X-Note: a: b\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\nc1',
      ),
    );
    expect(parts.get('file')?.filename).toBe('r.csv');
    expect(text(parts.get('file')?.data)).toBe('u1');
    expect(text(parts.get('campaignId')?.data)).toBe('c1');
  });

  it('keeps a filename as sent, path and all (only its presence tells a file)', async () => {
    const parts = await readText(
      body('Content-Disposition: form-data; name="file"; filename="C:\\\\d\\\\r.csv"\r\n\r\nx'),
    );
    expect(parts.get('file')?.filename).toBe('C:\\d\\r.csv');
  });

  it('ignores a part without a name and decodes %-escaped quotes in names', async () => {
    const parts = await readText(
      body('Content-Type: text/plain\r\n\r\nx', 'Content-Disposition: form-data; name="a%22b"\r\n\r\ny'),
    );
    expect([...parts.keys()]).toEqual(['a"b']);
  });

  it('reads a text part of several megabytes whole (busboy would cut a field at 1 MB)', async () => {
    const csv = `user_id\n${'u1234567\n'.repeat(300_000)}`;
    const parts = await readText(body(`Content-Disposition: form-data; name="file"\r\n\r\n${csv}`));
    expect(parts.get('file')?.filename).toBeNull();
    expect(parts.get('file')?.data.length).toBe(csv.length);
  });

  it('rejects with MultipartError for a missing, empty or overlong boundary, before reading the body', async () => {
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${'z'.repeat(71)}`,
    ]) {
      const { counted, body: input } = countedBody([bytes(body('Content-Disposition: form-data; name="a"\r\n\r\nx'))]);
      await expect(readMultipart(type, input, () => null)).rejects.toThrow(
        new MultipartError('the Content-Type has no usable boundary parameter'),
      );
      expect(counted.taken).toBe(0);
    }
    const longest = 'z'.repeat(70);
    const parts = await readText(
      `--${longest}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${longest}--`,
      `multipart/form-data; boundary=${longest}`,
    );
    expect([...parts.keys()]).toEqual(['a']);
  });

  it('rejects with MultipartError for a body without the boundary, truncated, or cut in headers', async () => {
    for (const input of [
      '',
      'no parts here',
      '--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nuser_id\nu1',
      '--XyZ\r\nContent-Disposition: form-data; name="file"',
      '--XyZjunk',
    ]) {
      const reading = readText(input);
      await expect(reading, JSON.stringify(input)).rejects.toThrow(MultipartError);
      await expect(reading).rejects.toThrow('the body ends before the closing boundary');
    }
  });

  it('reads the rest of a broken body before refusing it, and ignores what follows the closing delimiter', async () => {
    const broken = countedBody([bytes('no '), bytes('boundary '), bytes('here')]);
    await expect(readMultipart(TYPE, broken.body, () => null)).rejects.toThrow(MultipartError);
    expect(broken.counted.taken).toBe(3);
    const parts = await readParts([
      bytes(body('Content-Disposition: form-data; name="a"\r\n\r\nx')),
      bytes('epilogue\r\n--XyZ\r\nContent-Disposition: form-data; name="b"\r\n\r\ny'),
    ]);
    expect([...parts.keys()]).toEqual(['a']);
  });

  it("throws a consumer's own error as is, once the body is read", async () => {
    const failure = new Error('consumer failed');
    const input = countedBody([
      bytes('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'),
      bytes(`\r\n--XyZ\r\nContent-Disposition: form-data; name="b"\r\n\r\n${'y'.repeat(200_000)}\r\n--XyZ--`),
    ]);
    let calls = 0;
    const reading = readMultipart(TYPE, input.body, () => () => {
      calls++;
      throw failure;
    });
    await expect(reading).rejects.toBe(failure);
    expect([calls, input.counted.taken]).toEqual([1, 2]);
  });

  it('cuts part headers at 16 KiB: a Content-Disposition past them is not read, the part is skipped', async () => {
    const pad = `X-Pad: ${'a'.repeat(16 * 1024)}\r\n`;
    const parts = await readText(
      body(
        `${pad}Content-Disposition: form-data; name="late"\r\n\r\nx`,
        `Content-Disposition: form-data; name="early"\r\n${pad}\r\ny`,
      ),
    );
    expect([...parts.keys()]).toEqual(['early']);
    expect(text(parts.get('early')?.data)).toBe('y');
  });

  it('skips a part whose delimiter line carries transport padding (busboy reads no headers there)', async () => {
    const parts = await readText(
      '--XyZ \t\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n' +
        '--XyZ\r\nContent-Disposition: form-data; name="b"\r\n\r\ny\r\n--XyZ--',
    );
    expect([...parts.keys()]).toEqual(['b']);
  });
});

describe('multipart reader, body in pieces', () => {
  it('hands each part the same bytes however the body is cut (delimiters, CRLF)', async () => {
    const { default: fc } = await import('fast-check');
    const content = fc
      .string({ unit: fc.constantFrom('a', '\r', '\n', '-', 'X', 'y', 'Z', '--XyZ'), maxLength: 40 })
      // That would be a delimiter, also at the very start: after the CRLF ending the headers.
      .filter((s) => !`\r\n${s}`.includes('\r\n--XyZ'));
    await fc.assert(
      fc.asyncProperty(content, content, fc.array(fc.nat(300), { maxLength: 10 }), async (a, b, cuts) => {
        const input = bytes(
          `pre\r\n${body(
            `Content-Disposition: form-data; name="a"\r\n\r\n${a}`,
            `Content-Disposition: form-data; name="b"; filename="f"\r\n\r\n${b}`,
          )}`,
        );
        const ends = [...cuts.map((c) => Math.min(c, input.length)).sort((x, y) => x - y), input.length];
        const pieces = ends.map((end, i) => input.subarray(i === 0 ? 0 : ends[i - 1], end));
        const parts = await readParts(pieces);
        expect({ a: text(parts.get('a')?.data), b: text(parts.get('b')?.data) }).toEqual({ a, b });
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });

  it('settles on any bytes cut anywhere: the parts, or a MultipartError, never a hang', async () => {
    const { default: fc } = await import('fast-check');
    const chunk = fc.oneof(
      fc.constantFrom(
        '--XyZ',
        '--XyZ--',
        '\r\n',
        '\r\n\r\n',
        'Content-Disposition: form-data; name="f"',
        '; filename=x',
      ),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunk, { maxLength: 30 }),
        fc.array(fc.nat(200), { maxLength: 6 }),
        async (words, cuts) => {
          const input = bytes(words.join(''));
          const ends = [...cuts.map((c) => Math.min(c, input.length)).sort((x, y) => x - y), input.length];
          const pieces = ends.map((end, i) => input.subarray(i === 0 ? 0 : ends[i - 1], end));
          try {
            await readParts(pieces);
          } catch (error) {
            expect(error).toBeInstanceOf(MultipartError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("hands a part's bytes over as the body arrives, before its end is sent", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    async function* arriving() {
      yield bytes('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\n\r\nuser_id\nu1\n');
      await released;
      yield bytes('u2\n\r\n--XyZ--');
    }
    let received = '';
    const reading = readMultipart(TYPE, arriving(), () => (data) => void (received += text(data)));
    await settle();
    expect(received).toBe('user_id\nu1\n');
    release();
    await reading;
    expect(received).toBe('user_id\nu1\nu2\n');
  });

  it('holds the body back while a consumer is behind (a 6 MB file is not read ahead)', async () => {
    const piece = bytes('u'.repeat(64 * 1024));
    const pieces = [
      bytes('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\n\r\n'),
      ...Array.from({ length: 100 }, () => piece),
      bytes('\r\n--XyZ--'),
    ];
    const { counted, body: input } = countedBody(pieces);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let size = 0;
    const consumer: PartConsumer = (data) => {
      size += data.length;
      return released;
    };
    const reading = readMultipart(TYPE, input, () => consumer);
    for (let i = 0; i < 20; i++) await settle();
    expect(counted.taken).toBeLessThanOrEqual(4);
    release();
    await reading;
    expect([counted.taken, size]).toEqual([pieces.length, 100 * piece.length]);
  });

  it('announces a part only once the part before it has all its bytes', async () => {
    const events: string[] = [];
    await readMultipart(
      TYPE,
      [
        bytes(
          body(
            'Content-Disposition: form-data; name="campaignId"\r\n\r\nc1',
            'Content-Disposition: form-data; name="file"; filename="r.csv"\r\n\r\nuser_id\nu1',
          ),
        ),
      ],
      (name) => {
        events.push(`start ${name}`);
        return (data) => void events.push(`${name}: ${text(data)}`);
      },
    );
    expect(events).toEqual(['start campaignId', 'campaignId: c1', 'start file', 'file: user_id\nu1']);
  });
});
