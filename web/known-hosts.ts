/**
 * Hosts a visitor has agreed to read from when a link named them: a link must not make the
 * browser contact an unknown server silently, so the first link to a host asks, and a yes is
 * remembered in this origin's `localStorage` (a no is not: the next link asks again).
 */

/** The `localStorage` key of the remembered hosts (a JSON array of `host[:port]` strings). */
export const KNOWN_HOSTS_KEY = 'pbf-explorer:known-hosts';

function known(): string[] {
  try {
    const hosts: unknown = JSON.parse(localStorage.getItem(KNOWN_HOSTS_KEY) ?? '[]');
    return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
  } catch {
    return []; // unreadable or blocked storage: every link asks
  }
}

/** Whether reading `url` (absolute) needs no question: this origin's own, or a remembered host. */
export function needsNoQuestion(url: string): boolean {
  const target = new URL(url);
  return target.origin === location.origin || known().includes(target.host);
}

/** Remembers that the visitor agreed to read from `host`. */
export function rememberHost(host: string): void {
  try {
    localStorage.setItem(KNOWN_HOSTS_KEY, JSON.stringify([...new Set([...known(), host])]));
  } catch {
    // storage blocked: the question comes again next time
  }
}
