/**
 * The content compiler (src/domain/deliveries.ts): every delivery keeps its send's renderer
 * and renders when read, so a renderer must keep rendering the content it was made from, and
 * sends of the same template and rows should share one renderer rather than keep one each.
 */
import { describe, expect, it } from 'vitest';
import { createContentCompiler } from '../../src/domain/deliveries.js';
import type { Template } from '../../src/schemas/records.js';

const template = (content: Record<string, unknown>) => ({ content }) as unknown as Template;
const NONE = new Map<string, Record<string, unknown>>();

describe('createContentCompiler', () => {
  it("gives one renderer per content object, which renders that content after the template's is replaced", () => {
    const compile = createContentCompiler();
    const first = template({ push: { title: 'Hi {{name}}' } });
    const render = compile(first, NONE);
    expect(compile(first, NONE)).toBe(render);
    const edited = template({ push: { title: 'Bye {{name}}' } });
    expect(compile(edited, NONE)({ name: 'Ada' })).toEqual({ push: { title: 'Bye Ada' } });
    expect(render({ name: 'Ada' })).toEqual({ push: { title: 'Hi Ada' } });
  });

  it('shares the renderer of a template with rows while its content and rows are the same objects, in order', () => {
    const compile = createContentCompiler();
    const content = template({ push: { title: 'Base {{name}}' } });
    const inApp = { title: 'Row {{name}}' };
    const email = { subject: 'Mail {{name}}' };
    const rows = new Map<string, Record<string, unknown>>([
      ['in_app', inApp],
      ['email', email],
    ]);
    const render = compile(content, rows);
    // A fresh map of the same rows (rowContentByType builds one per send) shares it.
    expect(compile(content, new Map(rows))).toBe(render);
    expect(Object.keys(render({ name: 'Ada' }))).toEqual(['push', 'in_app', 'email']);

    const reordered = compile(content, new Map([...rows].reverse()));
    expect(reordered).not.toBe(render);
    expect(Object.keys(reordered({ name: 'Ada' }))).toEqual(['push', 'email', 'in_app']);

    const editedRow = compile(content, new Map([...rows, ['in_app', { title: 'New {{name}}' }]]));
    expect(editedRow({ name: 'Ada' })).toMatchObject({ in_app: { title: 'New Ada' } });
    expect(compile(content, new Map([['in_app', inApp]]))({ name: 'Ada' })).toEqual({
      push: { title: 'Base Ada' },
      in_app: { title: 'Row Ada' },
    });
    // Fewer rows than the last send (a linked channel disabled since): the row left out is not rendered.
    compile(content, rows);
    expect(compile(content, new Map([['in_app', inApp]]))({ name: 'Ada' })).toEqual({
      push: { title: 'Base Ada' },
      in_app: { title: 'Row Ada' },
    });
    // What each renderer was made from, whatever came after it.
    expect(render({ name: 'Ada' })).toEqual({
      push: { title: 'Base Ada' },
      in_app: { title: 'Row Ada' },
      email: { subject: 'Mail Ada' },
    });
  });
});
