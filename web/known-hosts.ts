/**
 * Hosts a visitor has agreed to read from when a link named them: a link must not make the
 * browser contact an unknown server silently, so the first link to a host asks, and a yes is
 * remembered in this origin's `localStorage` (a no is not: the next link asks again).
 */

/**
 * Why the page will not read `url` (absolute, or relative to the page), or null when it may:
 * only http(s) addresses are read (not `javascript:`, `file:`, `data:` or another origin's
 * `blob:`), and never one with a user name or password in it (they would be sent to the server
 * and travel in copied links). The message does not repeat the credentials.
 */
export function linkProblem(url: string): string | null {
  let target: URL;
  try {
    target = new URL(url, location.href);
  } catch {
    return 'this is not a web address';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `only http and https addresses can be read, not ${target.protocol} ones`;
  if (target.username || target.password) return 'an address with a user name or password in it is refused: they would be sent to the server and kept in links';
  return null;
}

/**
 * Whether another site shows this page in a frame: a question asked there could be clickjacked
 * (the other site's page can lay its own buttons over the dialog), so none is asked.
 */
export function framedByAnotherSite(): boolean {
  if (window.top === window) return false;
  try {
    return window.top!.location.origin !== location.origin;
  } catch {
    return true; // another origin's window: its location cannot be read
  }
}

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
