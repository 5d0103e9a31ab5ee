/**
 * The optional online basemap (`basemap=` URL parameter, or Settings): a MapLibre style loaded
 * from the network and drawn under the page's own layers instead of the basemap drawn from the
 * file. It is never required: when it cannot be loaded the page keeps its offline style.
 * Only vector styles are meant; the Content-Security-Policy's `connect-src` (which already admits
 * any http(s) origin, for PBF URLs) is what its style, tiles, glyphs and sprites are fetched under.
 */
import type { LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl';

/** How long the style may take before the page starts without it (ms). */
const STYLE_TIMEOUT_MS = 5000;

/** Makes a style's URL absolute against the style's own address, keeping `{z}`-style tokens. */
function absolute(url: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url; // http(s):, and MapLibre's own schemes
  return new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
}

/**
 * Fetches the MapLibre style at `url` (style spec v8) and makes its URLs absolute.
 * @throws Error saying why (not http(s), unreachable, timed out, not a v8 style).
 */
export async function loadOnlineStyle(url: string): Promise<StyleSpecification> {
  const at = new URL(url, location.href);
  if (at.protocol !== 'https:' && at.protocol !== 'http:') throw new Error(`${url} is not an http(s) URL`);
  const response = await fetch(at, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS), credentials: 'omit' });
  if (!response.ok) throw new Error(`${at.host} answered ${response.status}`);
  const style = (await response.json()) as StyleSpecification;
  if (style?.version !== 8 || typeof style.sources !== 'object' || !Array.isArray(style.layers)) throw new Error('not a MapLibre style (version 8)');
  const sources: Record<string, SourceSpecification> = {};
  for (const [id, source] of Object.entries(style.sources)) {
    const s = { ...source } as SourceSpecification & { url?: string; tiles?: string[] };
    if (s.url) s.url = absolute(s.url, at.href);
    if (s.tiles) s.tiles = s.tiles.map((t) => absolute(t, at.href));
    sources[id] = s;
  }
  const absoluteStyle: StyleSpecification = { ...style, sources };
  if (typeof style.sprite === 'string') absoluteStyle.sprite = absolute(style.sprite, at.href);
  if (style.glyphs) absoluteStyle.glyphs = absolute(style.glyphs, at.href);
  return absoluteStyle;
}

/** The hosts a style (made absolute by {@link loadOnlineStyle}) fetches from: its sources' TileJSON and tiles, glyphs and sprite. */
export function styleHosts(style: StyleSpecification): string[] {
  const urls: string[] = [];
  for (const source of Object.values(style.sources) as { url?: string; tiles?: string[] }[]) {
    if (source.url) urls.push(source.url);
    urls.push(...(source.tiles ?? []));
  }
  if (typeof style.sprite === 'string') urls.push(style.sprite);
  if (style.glyphs) urls.push(style.glyphs);
  const hosts = urls.flatMap((u) => {
    try {
      const url = new URL(u);
      return url.protocol === 'http:' || url.protocol === 'https:' ? [url.host] : [];
    } catch {
      return [];
    }
  });
  return [...new Set(hosts)];
}

/**
 * The page's style over an online one: the online sources and layers first (ids prefixed
 * `online:` so none clashes with the page's), then the page's layers but `replaced` (its own
 * background, land and basemap drawn from the file).
 */
export function mergeStyles(online: StyleSpecification, page: StyleSpecification, replaced: Set<string>): StyleSpecification {
  const sources: Record<string, SourceSpecification> = {};
  for (const [id, source] of Object.entries(online.sources)) sources[`online:${id}`] = source;
  const layers = online.layers.map((layer) => {
    const l = { ...layer, id: `online:${layer.id}` } as LayerSpecification & { source?: unknown };
    if (typeof l.source === 'string') l.source = `online:${l.source}`;
    return l as LayerSpecification;
  });
  const merged: StyleSpecification = {
    ...page,
    sources: { ...sources, ...page.sources },
    layers: [...layers, ...page.layers.filter((l) => !replaced.has(l.id))],
  };
  // Symbols need the online style's fonts and icons (absent keys stay absent: MapLibre rejects undefined).
  if (online.glyphs) merged.glyphs = online.glyphs;
  if (online.sprite) merged.sprite = online.sprite;
  return merged;
}
