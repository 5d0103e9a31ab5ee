/**
 * The tag table shown for a match. Tag keys and values are untrusted text from the internet:
 * they are only ever set as `textContent`, never parsed as HTML, and only the element's own
 * openstreetmap.org page becomes a link.
 */
import type { Match } from '../workers/types';
import { isoTime } from '../workers/common/file-info-rows';

/** The openstreetmap.org page of an element (type and numeric id only, so always safe). */
export function osmUrl(match: Pick<Match, 'type' | 'id'>): string {
  return `https://www.openstreetmap.org/${match.type}/${Math.trunc(match.id)}`;
}

/**
 * Where to edit an element: iD on openstreetmap.org (`edit?editor=id&TYPE=ID`), and JOSM through
 * its remote control on this machine (JOSM wiki, "Remote control": `load_object`). Built from
 * the type and the numeric id only.
 */
export function editUrls(match: Pick<Match, 'type' | 'id'>): { iD: string; josm: string } {
  const id = Math.trunc(match.id);
  return { iD: `https://www.openstreetmap.org/edit?editor=id&${match.type}=${id}`, josm: `http://127.0.0.1:8111/load_object?objects=${match.type[0]}${id}` };
}

/** "edit in iD · JOSM": links to edit `match`, each in a new tab (a click on one goes no further: a row stays put). */
export function editLinks(match: Pick<Match, 'type' | 'id'>): HTMLElement {
  const { iD, josm } = editUrls(match);
  const span = document.createElement('span');
  span.className = 'edit';
  span.dataset.testid = 'edit-links';
  const links = [newTabLink(iD, 'iD'), newTabLink(josm, 'JOSM')];
  links[0].title = `Edit ${match.type} ${Math.trunc(match.id)} in iD on openstreetmap.org`;
  links[1].title = `Load ${match.type} ${Math.trunc(match.id)} into JOSM (its remote control must be on)`;
  for (const a of links) a.addEventListener('click', (e) => e.stopPropagation());
  span.append('edit in ', links[0], ' · ', links[1]);
  return span;
}

/** Longest name shown in the list, in UTF-16 units: one tag of 5 000 characters must not fill it. */
const MAX_LABEL = 120;

/** The tag (`key=value`) standing in for the label of a match with no `name`, or null when it has one. */
export function standIn(match: Match): string | null {
  if (match.tags.some(([k]) => k === 'name')) return null;
  const [k, v] = match.tags[0] ?? ['', ''];
  return `${k}=${v}`;
}

/** A match's short label: its `name` tag if any, else its first tag as `key=value` ({@link standIn}), cut for the list. */
export function labelText(match: Match): string {
  const text = match.tags.find(([k]) => k === 'name')?.[1] ?? standIn(match)!;
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL)}…` : text; // the popup has it all
}

/** Tags whose values are web addresses, shown as links when (and only when) they are http(s). */
const LINK_KEYS = new Set(['website', 'url', 'contact:website']);

/** `value` as an http(s) URL, or null for anything else (`javascript:`, `data:`, junk). */
export function httpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A link opening in a new tab (`href` built here from numbers, or checked by {@link httpUrl}). */
function newTabLink(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.textContent = text;
  return a;
}

/** "version 3 · 2019-04-21T09:50:14Z · changeset 123 by user · history", with links. */
function metaLine(match: Match): HTMLElement {
  const m = match.meta!;
  const p = document.createElement('p');
  p.className = 'meta';
  p.dataset.testid = 'popup-meta';
  p.append(`version ${m.version} · ${isoTime(m.timestamp)} · `);
  if (m.changeset > 0) p.append(newTabLink(`https://www.openstreetmap.org/changeset/${Math.trunc(m.changeset)}`, `changeset ${m.changeset}`));
  if (m.user) p.append(` by ${m.user}`);
  p.append(' · ', newTabLink(`${osmUrl(match)}/history`, 'history'));
  return p;
}

/** "Shown cut: 12 tags left out, 1 value shortened." and a Show all button calling `showAll`. */
function cutNote(cut: NonNullable<Match['cut']>, showAll: () => void): HTMLElement {
  const p = document.createElement('p');
  p.className = 'cut';
  p.dataset.testid = 'popup-cut';
  const parts = [
    cut.tags && `${cut.tags} ${cut.tags === 1 ? 'tag' : 'tags'} left out`,
    cut.texts && `${cut.texts} long ${cut.texts === 1 ? 'text' : 'texts'} shortened`,
    cut.members && `${cut.members} ${cut.members === 1 ? 'member' : 'members'} left out`,
  ].filter(Boolean);
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Show all';
  button.addEventListener('click', showAll, { once: true });
  p.append(`Shown cut: ${parts.join(', ')}. `, button);
  return p;
}

/**
 * Builds the popup content: a heading link and one table row per tag; for a match shown cut,
 * a note saying what was left out and a Show all button calling `showAll`.
 */
export function popupContent(match: Match, showAll: () => void = () => {}): HTMLElement {
  const root = document.createElement('div');
  root.className = 'tag-popup';
  root.dataset.testid = 'popup';
  root.append(newTabLink(osmUrl(match), `${match.type} ${match.id} on openstreetmap.org`), ' ', editLinks(match));
  if (match.change) {
    // A deleted match shows its tags as they were at the first moment.
    const change = document.createElement('p');
    change.dataset.testid = 'popup-change';
    change.textContent = match.change === 'deleted' ? 'deleted: as it was at the first moment' : match.change;
    root.append(change);
  }
  const table = document.createElement('table');
  for (const [key, value] of match.tags) {
    const row = table.insertRow();
    row.insertCell().textContent = key;
    const cell = row.insertCell();
    const href = LINK_KEYS.has(key) ? httpUrl(value) : null;
    if (href) {
      const a = document.createElement('a');
      a.href = href;
      a.target = '_blank';
      a.rel = 'noopener noreferrer nofollow';
      a.textContent = value;
      cell.append(a);
    } else {
      cell.textContent = value;
    }
  }
  root.append(table);
  if (match.cut) root.append(cutNote(match.cut, showAll));
  if (match.meta) root.append(metaLine(match));
  if (match.problem) {
    const problem = document.createElement('p');
    problem.className = 'problem';
    problem.textContent = match.lat === null ? `${match.problem}: not on the map` : `${match.problem}: drawn as its ways`;
    root.append(problem);
  }
  if (match.members?.length) {
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = `${match.members.length + (match.cut?.members ?? 0)} members`;
    const list = document.createElement('ol');
    for (const [t, id, role] of match.members.slice(0, 500)) {
      const item = document.createElement('li');
      item.textContent = `${['node', 'way', 'relation'][t]} ${id}${role ? ` as ${role}` : ''}`;
      list.append(item);
    }
    details.append(summary, list);
    root.append(details);
  }
  return root;
}
