/**
 * The README and the guides in docs/ stay true to the product: every CLI flag and every
 * programmatic option is documented, the shipped scenarios are described with their real
 * timings, examples never write into the repository's fixtures/, every file a shell example
 * reads is created by an earlier example of the same document (each can be followed on its
 * own), and ids are captured rather than pasted as "6650…".
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmulatorOptionsSchema } from '../../src/index.js';
import { FLAGS_HELP as HELP } from '../../src/config.js';
import { userDocs } from '../helpers/markdown.js';

/** Lines that run (comments and `# →` answers removed), of each document's shell blocks. */
const commandsOf = (markdown: string) =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, ''))
      .filter((line) => line.trim() !== ''),
  );
const docs = userDocs().map(({ file, text }) => ({ file, commands: commandsOf(text) }));
const commands = docs.flatMap((doc) => doc.commands);
const guide = (file: string) => readFileSync(file, 'utf8');

describe('README and guides', () => {
  it('documents every CLI flag in the flag table', () => {
    const running = guide('docs/running.md');
    const flags = [...new Set([...HELP.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1]!))];
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(running, `--${flag}`).toMatch(new RegExp(`\\| \`--${flag}[ \`]`));
  });

  it('lists every programmatic option in the options table', () => {
    const client = guide('docs/client.md');
    const table = client.slice(client.indexOf('| option | default | what |'));
    const rows = table.slice(0, table.indexOf('\n\n'));
    const options = [
      ...Object.keys(EmulatorOptionsSchema.shape),
      ...['templates', 'scenarios', 'logger', 'clock', 'store', 'random'],
    ];
    for (const option of options) expect(rows, option).toContain(`\`${option}\``);
  });

  it('describes slow-network with the delays a batch send really gets (its rules add up)', () => {
    const scenario = JSON.parse(readFileSync('scenarios/slow-network.json', 'utf8')) as {
      description: string;
      rules: { match: { path?: string; body?: unknown }; fault: { delayMs: number } }[];
    };
    const batch = scenario.rules.reduce((sum, rule) => sum + rule.fault.delayMs, 0); // both rules match a batch send
    const other = scenario.rules.find((r) => r.match.body === undefined)!.fault.delayMs;
    const row = guide('docs/scenarios.md')
      .split('\n')
      .find((line) => line.startsWith('| `slow-network.json`'))!;
    expect(row).toContain(`batch sends ${batch / 1000} s late`);
    expect(row).toContain(`${other / 1000} s late`);
    expect(scenario.description).toContain(`batch sends ${batch / 1000} s late`);
  });

  it('never writes into the repository fixtures folder', () => {
    expect(commands.filter((line) => /> *fixtures\//.test(line))).toEqual([]);
  });

  it('creates every file a shell example sends before it is used, in the same document', () => {
    const createdAnywhere = new Set<string>();
    for (const doc of docs) {
      const created = new Set<string>();
      for (const line of doc.commands) {
        for (const [, file] of line.matchAll(/(?:-d @|file=@)([\w.-]+)/g))
          expect(created, `${doc.file}: ${line}`).toContain(file);
        for (const [, file] of line.matchAll(/cat > ([\w.-]+) <</g)) created.add(file!);
      }
      for (const file of created) createdAnywhere.add(file);
    }
    expect(createdAnywhere).toEqual(new Set(['recipients.csv', 'send.json']));
  });

  it('captures ids instead of using placeholders like 6650… in commands', () => {
    expect(commands.filter((line) => line.includes('…') && /curl|CID/.test(line))).toEqual([]);
  });

  it('has a LICENSE matching package.json, shipped in the package', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { license: string; files: string[] };
    expect(pkg.license).toBe('MIT');
    expect(existsSync('LICENSE')).toBe(true);
    expect(readFileSync('LICENSE', 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} notification-emulator contributors\n/,
    );
    expect(pkg.files).toContain('LICENSE');
  });
});
