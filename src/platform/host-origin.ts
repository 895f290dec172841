/**
 * The control plane's Host and Origin decisions as plain functions on header values: which
 * Host it answers (against DNS rebinding) and where an Origin stands (against cross-site
 * writes). The guard middleware (http/middleware/host-origin-guard.ts) applies them; the
 * configuration checks the --allowed-hosts and --allowed-origins entries with them.
 */
import { isIP } from 'node:net';

interface HostParts {
  /** Lower case, without a trailing dot; an IPv6 literal without its brackets. */
  name: string;
  /** Digits, or '' when none was given. */
  port: string;
  ip: boolean;
}

/** One name: dot-separated labels of letters, digits, `-` and `_` (compose service names may hold `_`). */
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
const AUTHORITY = /^(?:\[([0-9a-f:.]+(?:%[\w.~-]+)?)\]|([^\s:[\]/\\@?#]+))(?::(\d{0,5}))?$/i;

/** `name`, `name:port`, `1.2.3.4:80`, `[::1]:4010` → its parts; null for anything that is no host. */
export function parseHost(value: string): HostParts | null {
  const match = AUTHORITY.exec(value);
  if (!match) return null;
  const port = match[3] ?? '';
  if (match[1] !== undefined) return isIP(match[1]) === 6 ? { name: match[1].toLowerCase(), port, ip: true } : null;
  const name = match[2]!.toLowerCase().replace(/\.$/, '');
  if (isIP(name) === 4) return { name, port, ip: true };
  return NAME.test(name) ? { name, port, ip: false } : null;
}

/** An --allowed-hosts entry: `*`, a name, or `.name` for the name and every name under it (a trailing dot ignored). */
export const isHostEntry = (entry: string): boolean =>
  entry === '*' || NAME.test(entry.toLowerCase().replace(/^\.|\.$/g, ''));

function matchesEntry(name: string, entry: string): boolean {
  const wanted = entry.toLowerCase().replace(/\.$/, '');
  return wanted.startsWith('.') ? name === wanted.slice(1) || name.endsWith(wanted) : name === wanted;
}

/**
 * Whether the control plane answers a request with this Host: an IP literal, `localhost` and
 * names under it (they always mean this machine), a one-label name (a compose or Kubernetes
 * service), a listed name, or anything when `*` is listed. Only a name with a dot can be an
 * attacker's name that resolves to this machine.
 */
export function isHostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.includes('*')) return true;
  const parts = parseHost(host);
  if (parts === null) return false;
  const { name, ip } = parts;
  if (ip || name === 'localhost' || name.endsWith('.localhost') || !name.includes('.')) return true;
  return allowedHosts.some((entry) => matchesEntry(name, entry));
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

interface OriginParts {
  scheme: string;
  name: string;
  port: string;
}

/** `scheme://host[:port]` → its parts, the scheme's default port as ''; null for `null` or anything else. */
function parseOrigin(value: string): OriginParts | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(value);
  const host = match ? parseHost(match[2]!) : null;
  if (!match || !host) return null;
  const scheme = match[1]!.toLowerCase();
  return { scheme, name: host.name, port: host.port === DEFAULT_PORTS[scheme] ? '' : host.port };
}

/** An --allowed-origins entry: `*` or `scheme://host[:port]` (no path). */
export const isOriginEntry = (entry: string): boolean => entry === '*' || parseOrigin(entry) !== null;

/** No Origin, the emulator's own, one listed with --allowed-origins, or another site's. */
type OriginStanding = 'absent' | 'own' | 'listed' | 'foreign';

/**
 * Where a request's Origin stands. Its own origin is the Host it was reached by, under http or
 * https (a proxy that ends TLS and keeps the Host is still the emulator's own origin).
 */
export function originStanding(
  origin: string | undefined,
  host: string,
  allowedOrigins: readonly string[],
): OriginStanding {
  if (origin === undefined) return 'absent';
  const parts = parseOrigin(origin);
  const own = parseHost(host);
  if (parts && own && DEFAULT_PORTS[parts.scheme] !== undefined) {
    const ownPort = own.port === DEFAULT_PORTS[parts.scheme] ? '' : own.port;
    if (parts.name === own.name && parts.port === ownPort) return 'own';
  }
  if (allowedOrigins.includes('*')) return 'listed';
  const same = (entry: OriginParts | null) =>
    entry !== null &&
    parts !== null &&
    entry.scheme === parts.scheme &&
    entry.name === parts.name &&
    entry.port === parts.port;
  return allowedOrigins.some((entry) => same(parseOrigin(entry))) ? 'listed' : 'foreign';
}
