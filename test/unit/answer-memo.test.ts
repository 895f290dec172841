/**
 * The inspect lists' memo of answers (src/reads/answer-memo.ts): the same question at the same store
 * revision is answered with the text made before; a new revision, an answer pushed out by the
 * caps, or one that failed is made again.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AnswerMemo } from '../../src/reads/answer-memo.js';
import { jsonBytes } from '../../src/http/json-bytes.js';

function memoApp(size = () => 10) {
  let revision = 0;
  let made = 0;
  let failing = false;
  const memo = new AnswerMemo(() => String(revision));
  const app = new Hono()
    .get('*', async (c) =>
      jsonBytes(
        c,
        await memo.json(c.req.url, async () => {
          await Promise.resolve();
          if (failing) throw new Error('refused');
          return { made: ++made, path: c.req.path, pad: 'x'.repeat(size()) };
        }),
      ),
    )
    .onError((error, c) => c.text(error.message, 500));
  const ask = async (path: string) => {
    const res = await app.request(path);
    return res.status === 200 ? ((await res.json()) as { made: number }).made : res.status;
  };
  return {
    ask,
    write: () => revision++,
    fail: (on: boolean) => (failing = on),
    get made() {
      return made;
    },
  };
}

describe('AnswerMemo', () => {
  it('answers the same question with the same text until the revision changes', async () => {
    const m = memoApp();
    expect(await m.ask('/a?x=1')).toBe(1);
    expect(await m.ask('/a?x=1')).toBe(1);
    expect(await m.ask('/a?x=2')).toBe(2);
    expect(await m.ask('/a?x=1')).toBe(1);
    m.write();
    expect(await m.ask('/a?x=1')).toBe(3);
    expect(await m.ask('/a?x=1')).toBe(3);
    expect(await m.ask('/a?x=2')).toBe(4);
  });

  it('answers JSON as c.json does', async () => {
    const memo = new AnswerMemo(() => '0');
    const app = new Hono().get('/', async (c) => jsonBytes(c, await memo.json(c.req.url, () => ({ a: [1, 'é'] }))));
    for (let i = 0; i < 2; i++) {
      const res = await app.request('/');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ a: [1, 'é'] });
    }
  });

  it('keeps the 64 most recently asked answers', async () => {
    const m = memoApp();
    for (let i = 0; i < 64; i++) await m.ask(`/${i}`);
    expect(await m.ask('/0')).toBe(1); // asked again: now the newest
    await m.ask('/64'); // pushes out /1, the oldest
    expect(await m.ask('/0')).toBe(1);
    expect(await m.ask('/2')).toBe(3);
    expect(await m.ask('/1')).toBe(m.made);
  });

  it('keeps about 8 MiB of answers, and no answer over a quarter of that', async () => {
    let size = 1_200_000;
    const m = memoApp(() => size);
    for (let i = 0; i < 7; i++) expect(await m.ask(`/${i}`)).toBe(i + 1);
    // Seven answers of ~1,200,000 bytes are more than 8 MiB: the first went.
    expect(await m.ask('/6')).toBe(7);
    expect(await m.ask('/0')).toBe(8);
    size = 2_200_000;
    expect(await m.ask('/big')).toBe(9);
    expect(await m.ask('/big')).toBe(10);
  });

  it('keeps no failed answer', async () => {
    const m = memoApp();
    m.fail(true);
    expect(await m.ask('/a')).toBe(500);
    m.fail(false);
    expect(await m.ask('/a')).toBe(1);
    expect(await m.ask('/a')).toBe(1);
  });
});
