/**
 * The control plane's Host and Origin decisions (src/platform/host-origin.ts) as
 * properties: every loopback, IP and one-label form is accepted with any port, case or
 * trailing dot; a name with a dot only when listed; `*` accepts all; an Origin is the
 * emulator's own exactly when it names the Host it was sent to.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHostAllowed, isHostEntry, isOriginEntry, originStanding } from '../../src/platform/host-origin.js';

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,14}[a-z0-9]$/);
/** Names of two labels or more, none of them under localhost. */
const dottedName = fc
  .array(label, { minLength: 2, maxLength: 4 })
  .map((labels) => labels.join('.'))
  .filter((name) => name !== 'localhost' && !name.endsWith('.localhost') && !/^[\d.]+$/.test(name));
const port = fc.option(fc.integer({ min: 0, max: 65535 }).map(String), { nil: undefined });
const withPort = (host: string, p: string | undefined) => (p === undefined ? host : `${host}:${p}`);
/** Upper-cases some letters, as a client may send them. */
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));
const trailingDot = fc.boolean().map((dot) => (dot ? '.' : ''));
const ipv4 = fc.ipV4();
const ipv6 = fc.ipV6();

describe('isHostAllowed', () => {
  it('accepts every IPv4 and bracketed IPv6 literal, with or without a port', () => {
    fc.assert(fc.property(ipv4, port, (ip, p) => isHostAllowed(withPort(ip, p), [])));
    fc.assert(fc.property(ipv6, port, (ip, p) => isHostAllowed(withPort(`[${ip}]`, p), [])));
    expect(isHostAllowed('[::1]:4010', [])).toBe(true);
    expect(isHostAllowed('127.0.0.1:4010', [])).toBe(true);
  });

  it('accepts localhost, names under it and one-label names in any case, with a trailing dot and any port', () => {
    const loopback = fc.oneof(
      fc.constant('localhost'),
      label.map((l) => `${l}.localhost`),
      label,
    );
    fc.assert(
      fc.property(
        loopback.chain((name) => anyCase(name)),
        trailingDot,
        port,
        (name, dot, p) => isHostAllowed(withPort(name + dot, p), []),
      ),
    );
    for (const name of ['emulator', 'notification-emulator', 'my_service:4010', 'LOCALHOST.:4010'])
      expect(isHostAllowed(name, []), name).toBe(true);
  });

  it('refuses every name with a dot unless it is listed (exactly, or under a ".domain" entry)', () => {
    fc.assert(
      fc.property(dottedName, port, trailingDot, (name, p, dot) => {
        const host = withPort(name + dot, p);
        expect(isHostAllowed(host, [])).toBe(false);
        expect(isHostAllowed(host, ['other.example'])).toBe(name === 'other.example');
        expect(isHostAllowed(host.toUpperCase(), [name])).toBe(true);
        expect(isHostAllowed(host, [`${name}.`])).toBe(true);
        expect(isHostAllowed(`sub.${host}`, [`.${name}`])).toBe(true);
        expect(isHostAllowed(host, [`.${name}`])).toBe(true);
        expect(isHostAllowed(`x${host}`, [`.${name}`])).toBe(false);
      }),
    );
    expect(isHostAllowed('attacker.example:4010', [])).toBe(false);
  });

  it('accepts anything, even no valid host, when * is listed', () => {
    fc.assert(fc.property(fc.string(), (host) => isHostAllowed(host, ['*'])));
  });

  it('refuses what is no host: empty, a bare IPv6, userinfo, a path, spaces, an empty label', () => {
    for (const host of ['', '::1', '[not-ip]', 'user@localhost', 'localhost/x', 'local host', 'a..b', '.', 'emu:port'])
      expect(isHostAllowed(host, []), host).toBe(false);
  });
});

describe('originStanding', () => {
  const hostAndName = fc.oneof(
    dottedName,
    label,
    ipv4,
    ipv6.map((ip) => `[${ip}]`),
  );

  it('is "own" exactly for http(s)://<the Host>, default ports and case aside', () => {
    fc.assert(
      fc.property(hostAndName, port, fc.constantFrom('http', 'https'), (name, p, scheme) => {
        const host = withPort(name, p);
        expect(originStanding(`${scheme}://${host.toUpperCase()}`, host, [])).toBe('own');
        expect(originStanding(`${scheme}://${host}`, `x${host}`, [])).not.toBe('own');
      }),
    );
    expect(originStanding('http://localhost', 'localhost:80', [])).toBe('own');
    expect(originStanding('https://emu.example', 'emu.example:443', [])).toBe('own');
    expect(originStanding('http://localhost:4010', 'localhost:4011', [])).toBe('foreign');
    expect(originStanding('http://[::1]:4010', '[::1]:4010', [])).toBe('own');
  });

  it('is "absent" without an Origin, "listed" for a listed one or under *, "foreign" otherwise', () => {
    fc.assert(
      fc.property(dottedName, port, (name, p) => {
        const origin = `https://${withPort(name, p)}`;
        expect(originStanding(undefined, 'localhost:4010', [])).toBe('absent');
        expect(originStanding(origin, 'localhost:4010', [])).toBe('foreign');
        expect(originStanding(origin, 'localhost:4010', [origin.toUpperCase()])).toBe('listed');
        expect(originStanding(origin, 'localhost:4010', ['*'])).toBe('listed');
        expect(originStanding(origin.replace('https:', 'http:'), 'localhost:4010', [origin])).toBe('foreign');
      }),
    );
    for (const origin of ['null', '', 'evil.example', 'file://'])
      expect(originStanding(origin, 'localhost:4010', []), origin).toBe('foreign');
    expect(originStanding('https://tools.example:443', 'x', ['https://tools.example'])).toBe('listed');
  });
});

describe('flag entries', () => {
  it('takes names, .domains and *, and origins without paths', () => {
    for (const entry of ['*', 'emu.example', '.example.com', 'Emu.Example.'])
      expect(isHostEntry(entry), entry).toBe(true);
    for (const entry of ['https://emu.example', 'emu.example:4010', 'a b', ''])
      expect(isHostEntry(entry), entry).toBe(false);
    for (const entry of ['*', 'https://tools.example', 'http://localhost:5173', 'http://[::1]:3000'])
      expect(isOriginEntry(entry), entry).toBe(true);
    for (const entry of ['tools.example', 'https://tools.example/', 'null', 'https://'])
      expect(isOriginEntry(entry), entry).toBe(false);
  });
});
