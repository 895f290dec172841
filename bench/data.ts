/**
 * Generated bench data (seeded faker, so every run sends the same bodies): user IDs and
 * send bodies for the fixture templates in fixtures/templates.
 */
import { Faker, en } from '@faker-js/faker';

export const makeFaker = (seed: number) => new Faker({ locale: [en], seed });

/** `count` distinct user IDs with a random-looking suffix. */
export function userIds(faker: Faker, count: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(`user-${i}-${faker.string.alphanumeric(6)}`);
  return ids;
}

/** User n of a fixed population (the 1M-delivery fill spreads batches over it). */
export const userOf = (n: number) => `user-${n}-p`;

export function realtimeBody(faker: Faker): string {
  return JSON.stringify({
    template: { key: 'welcome-message', variables: { name: faker.person.firstName() } },
    targets: [`user-${faker.string.alphanumeric(8)}`],
    mode: 'realtime',
  });
}

export function batchBody(faker: Faker, targets: string[]): string {
  return JSON.stringify({
    template: { key: 'welcome-message', variables: { name: faker.person.firstName() } },
    targets,
    mode: 'batch',
    tag: 'bench',
  });
}

/** A batch whose variables name each target: `{ userId: { name } }`, in target order. */
export function perTargetBatchBody(faker: Faker, targets: string[]): string {
  const variables = Object.fromEntries(targets.map((userId) => [userId, { name: faker.person.firstName() }]));
  return JSON.stringify({ template: { key: 'welcome-message', variables }, targets, mode: 'batch', tag: 'bench' });
}
