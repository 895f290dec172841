/**
 * What a data file must be before the store takes it: every kind of wrong file refused with
 * the file, and for a bad record its kind, position and field; a good one read as it is.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/domain/errors.js';
import { checkDataFile, LEFT_UNTOUCHED } from '../../src/store/data-file-check.js';
import { emptyStoreData } from '../../src/store/store-data.js';

const FILE = '/data/state.json';
const MARK = { format: 'notification-emulator-data', version: 1 };

/** The problems checkDataFile refuses `data` with (it must refuse). */
function problemsOf(data: unknown): string[] {
  try {
    checkDataFile(FILE, data);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('accepted');
}

const delivery = {
  id: 'd1',
  appId: 'a',
  notificationId: 'n1',
  campaignId: null,
  userId: 'u1',
  templateId: 'tpl1',
  templateKey: 't',
  channels: ['in_app'],
  mode: 'realtime',
  title: null,
  tag: null,
  variables: {},
  rendered: {},
  pushData: null,
  status: 'sent',
  failureReason: null,
  scenario: null,
  createdAt: '2030-01-01T00:00:00.000Z',
};

describe('checkDataFile', () => {
  it.each([
    ['a list', [], 'it is not an emulator data file (it holds a list, not an object)'],
    ['a number', 3, 'it is not an emulator data file (it holds a number, not an object)'],
    ['null', null, 'it is not an emulator data file (it holds null, not an object)'],
    [
      'another program’s object',
      { name: 'app', version: '1.0.0' },
      'it is not an emulator data file (it has no "format": "notification-emulator-data")',
    ],
    [
      'another format',
      { format: 'notification-emulator-trace', version: 1 },
      'it is not an emulator data file ("format" is "notification-emulator-trace", not "notification-emulator-data")',
    ],
    [
      'another version',
      { ...MARK, version: 2 },
      '"version": this emulator reads data file version 1, the file is version 2',
    ],
  ])('refuses %s, naming the file, with what to do', (_, data, problem) => {
    expect(problemsOf(data)).toEqual([`--data-file ${FILE}: ${problem}`, LEFT_UNTOUCHED]);
  });

  it("says how to keep an earlier version's file: its keys are the data file's, the mark is missing", () => {
    const [problem] = problemsOf({ deliveries: [], journal: [] });
    expect(problem).toBe(
      `--data-file ${FILE}: it has the keys of a data file written by an earlier version of the emulator, but not ` +
        'the mark every data file now starts with. To keep its records, add "format": "notification-emulator-data", ' +
        '"version": 1 at its top',
    );
  });

  it('names the kind, the position and the field of a bad record, the first three of its fields', () => {
    expect(problemsOf({ ...MARK, deliveries: [delivery, { ...delivery, status: 'lost' }] })).toEqual([
      `--data-file ${FILE}: deliveries[1].status: Invalid option: expected one of "sent"|"failed"`,
      LEFT_UNTOUCHED,
    ]);
    expect(problemsOf({ ...MARK, deliveries: [delivery, { x: 1 }] })).toEqual([
      `--data-file ${FILE}: deliveries[1].id: is required: a string`,
      `--data-file ${FILE}: deliveries[1].appId: is required: a string`,
      `--data-file ${FILE}: deliveries[1].notificationId: is required: a string`,
      `--data-file ${FILE}: deliveries[1]: and 15 more fields like these`,
      LEFT_UNTOUCHED,
    ]);
  });

  it("checks the records of an earlier version's file too: adding the mark is then all it takes", () => {
    const problems = problemsOf({ deliveries: [{ ...delivery, userId: 7 }] });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/earlier version of the emulator/);
    expect(problems[1]).toBe(
      `--data-file ${FILE}: deliveries[0].userId: Invalid input: expected string, received number`,
    );
  });

  it('names a nested field with its own position', () => {
    const journal = { id: 'j', time: 't', method: 'GET', path: '/', appId: null, status: 200, errorCode: null };
    const entry = { ...journal, scenario: null, rule: null, durationMs: 1, rules: [{ scenario: 's', index: 'x' }] };
    expect(problemsOf({ ...MARK, journal: [entry] })).toContain(
      `--data-file ${FILE}: journal[0].rules[0].index: Invalid input: expected number, received string`,
    );
  });

  it('refuses a list that is not one, a bad count and a key no data file has, with the key meant', () => {
    expect(problemsOf({ ...MARK, deliveries: {}, droppedDeliveries: -1, notificatons: [] })).toEqual([
      `--data-file ${FILE}: "deliveries": must be a list of records (got an object)`,
      `--data-file ${FILE}: "droppedDeliveries": must be a whole number >= 0 (got a number)`,
      `--data-file ${FILE}: "notificatons": not a key of a data file (did you mean "notifications"?)`,
      LEFT_UNTOUCHED,
    ]);
  });

  it('stops after ten problems, and says there are more', () => {
    const problems = problemsOf({ ...MARK, deliveries: Array.from({ length: 20 }, () => ({ ...delivery, id: 1 })) });
    expect(problems[0]).toBe(`--data-file ${FILE}: deliveries[0].id: Invalid input: expected string, received number`);
    expect(problems).toHaveLength(12);
    expect(problems.at(-2)).toBe('--data-file /data/state.json: and more problems');
  });

  it('reads a good file as it is, with the lists it lacks empty, and its records untouched', () => {
    const extra = { ...delivery, futureField: true };
    const data = checkDataFile(FILE, { ...MARK, deliveries: [extra] });
    expect(data).toEqual({ ...emptyStoreData(), deliveries: [extra] });
    expect(data.deliveries[0]).toBe(extra);
    expect(checkDataFile(FILE, { ...MARK })).toEqual(emptyStoreData());
  });
});
