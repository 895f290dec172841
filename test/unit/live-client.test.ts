/**
 * Retry-After as the live client reads it: delta-seconds or an HTTP date, anything else unread.
 */
import { describe, expect, it } from 'vitest';
import { defaultBaseUrl, retryAfterMs } from '../../src/tools/live/client.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00.000Z');

  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 7 ', now)).toBe(7000);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 31 Dec 2029 23:59:00 GMT', now)).toBe(0); // in the past: no wait
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('-3', now)).toBeNull();
  });
});

describe('defaultBaseUrl', () => {
  it('has the production shape', () => {
    expect(defaultBaseUrl('shop', 'eu')).toMatch(/^https:\/\/shop\.api-eu\.[a-z0-9.-]+\/v3\/business-messaging$/);
  });
});
