/**
 * The command line's words, parsed into one command (usage errors are {@link UsageError}: exit
 * code 2). Areas and moments use the page's parsers (`workers/common/query-text.ts`), so they mean the same everywhere.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Area, Query } from '../workers/types';
import { existsSync, readFileSync } from 'node:fs';
import { parsePoly, parsePolygonFile, parseRelationRef } from '../workers/common/polygon-text';
import { parseBbox, parseLatLon, parseMoment, parseRadius } from '../workers/common/query-text';
import { ENGINES, type Engine } from '../workers/common/elsewhere';
import { FORMATS, type Format } from './output';

/** Bad usage: a missing argument, an unknown option, a malformed number. */
export class UsageError extends Error {}

export type Command =
  | { name: 'help'; text: string }
  | { name: 'query'; target: string; query: Query; format: Format; out: string | null; threads: number; useIndex: boolean }
  | { name: 'info'; target: string; json: boolean; threads: number }
  | { name: 'index'; target: string; out: string; threads: number }
  | { name: 'optimize'; target: string; out: string }
  | { name: 'serve'; file: string | null; port: number }
  | { name: 'sql'; engine: Engine; target: string; query: Query };


export const USAGE = `Usage: pbf-explorer <command> [options]   (--help after a command for its own)

Commands:
  query FILE|URL [--near LAT,LON [--radius M] | --bbox W,S,E,N | --in relation/ID | --poly P]
        [--inside all] [--from MOMENT] [--at MOMENT] [--format F] [--out PATH] QUERY...
  osmar LAT LON RADIUS TAG...   osmar's invocation and output, on the file in OSMAR_PBF_FILE
  info FILE|URL [--json]        what the file holds (as the page's file info)
  index FILE [--out PATH]       write the file's blob index (FILE.idx) to serve beside it
  optimize IN OUT               write IN again with its blobs grouped by place, and OUT.idx
  serve [FILE] [--port N]       serve the app on 127.0.0.1 (opening FILE when given)
  sql --engine duckdb|sedona|osmium|overpass FILE [area options] QUERY...
                                print the DuckDB SQL, Spark SQL, osmium command or Overpass QL answering QUERY

Exit codes: 0 success, 1 a query error (syntax, unreadable file, corrupt blob), 2 bad usage.
`;

const HELP: Record<string, string> = {
  query: `Usage: pbf-explorer query FILE|URL [options] QUERY...

Answers QUERY (the query language of the page: amenity=cafe, "shop and not shop=supermarket",
name~/^star/i ...; several words are joined by spaces) on a .osm.pbf file or an http(s) URL
(read with Range requests).

Options:
  --near LAT,LON     the area: within --radius metres of this point (degrees WGS84;
                     a negative latitude as --near=-33.92,18.42)
  --radius M         metres (default 1000)
  --bbox W,S,E,N     the area: a bbox minlon,minlat,maxlon,maxlat (default: the whole file)
  --in relation/ID   the area: the outline of that boundary or multipolygon relation of the
                     file (read first; a broken one is an error and nothing more is read)
  --poly P           the area: a polygon, a GeoJSON or osmium .poly file, or the text
                     "lat lon lat lon ..." (";" between rings, "!" before a hole)
  --inside all       ways and relations must lie wholly inside the area (default: any node)
  --at MOMENT        history files: answer as of this moment, ISO 8601 (UTC when no zone is
                     given; a date alone is its midnight); default now; ignored for other files
  --from MOMENT      history files: what changed from this moment to --at (or now): each
                     match is created, modified or deleted (meta:change, a "change" property
                     or column); unchanged ones are left out. The file is read twice.
  --format F         text (osmar's line format, the default), geojson, geojsonseq (RFC 8142), csv,
                     geoparquet (GeoParquet 1.1: WKB geometry, bbox column, tags as a map; binary,
                     so to --out or a redirected standard output)
  --out PATH         write the answer to PATH instead of standard output
  --no-index         do not use FILE.idx (URL.idx) beside the file
  --threads N        decode threads (default: one per core)

Matches are sorted by distance from --near, else by label (name, else first tag), type and id.
Progress goes to stderr when it is a terminal.
`,
  osmar: `Usage: pbf-explorer osmar LAT LON RADIUS TAG...

osmar's invocation: the file is the one OSMAR_PBF_FILE names; TAG is KEY=VALUE, KEY=_ or KEY
(any value); several values of one key mean any of them, different keys all of them. Output is
osmar's line format, nearest first.
`,
  info: `Usage: pbf-explorer info FILE|URL [--json] [--threads N]

Reads the whole file and prints what the page's file info shows: header fields, blobs by
compression, element counts and id ranges, newest timestamp. --json prints it as JSON.
`,
  index: `Usage: pbf-explorer index FILE [--out PATH] [--threads N]

Reads FILE once and writes its blob index (docs/blob-index.md) to PATH, by default FILE.idx:
put it beside the file on a web server and the page (and query) read only the blobs a query needs.
`,
  optimize: `Usage: pbf-explorer optimize IN.osm.pbf OUT.osm.pbf

Writes IN again as OUT with its blobs grouped by place (docs/optimize.md), and OUT's blob index
beside it (OUT.osm.pbf.idx): served together, a query of an area reads only the blobs of that
area, even on a file of a whole country or more. OUT holds exactly IN's elements, tags and
metadata, but no longer in id order: tools that need that order (osmium apply-changes, most
importers) take it after \`osmium sort\`. History files are refused. Needs memory for the
whole file's elements (about 50 bytes a node).
`,
  sql: `Usage: pbf-explorer sql --engine ENGINE FILE [area options] QUERY...

Prints the program of another tool that answers QUERY on FILE (a .osm.pbf with one version per
element, or a planet file) exactly as pbf-explorer does, to run there:

  --engine duckdb   DuckDB SQL over the spatial extension's ST_ReadOSM: one row per match with
                    osm_type, osm_id, tags and geometry. Takes the area options of query
                    (--near/--radius, --bbox, --poly, --inside all); --in is refused (DuckDB
                    cannot assemble the relation's outline: give it as --poly).
  --engine sedona   Spark SQL over Apache Sedona's osmpbf reader (Sedona 1.7.1 or later), the
                    same rows and area options as duckdb; for a file or a planet on a cluster.
  --engine osmium   osmium tags-filter, whose expressions say an "or" of tag conditions (KEY,
                    KEY=VALUE, KEY prefix:*), each maybe with type:, on the whole file.
  --engine overpass Overpass QL for an Overpass API server, answered on its OpenStreetMap data
                    (today's), not on FILE: the tag filters, --near/--radius as around,
                    --bbox; ways and relations placed by their nodes; "out geom".

What an engine cannot say the same way (osmium: "and", "not", regular expressions; DuckDB,
Spark and Overpass: a relation's outline, regular expressions their engine reads otherwise;
Overpass: a polygon, --inside all) is refused with the reason, exit code 1: never a program
that answers another question.
`,
  serve: `Usage: pbf-explorer serve [FILE] [--port N]

Serves the app on http://127.0.0.1:N/ (default 8080; 0 for any free port) and prints the address
to open. FILE, a .osm.pbf, is served beside it (with Range requests) and the address opens it.
Nothing is served to other machines. Ctrl-C stops it.
`,
};

function threadsOf(text: string | undefined): number {
  if (text === undefined) return Math.max(1, Math.min(availableParallelism(), 32));
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--threads must be a whole number from 1 to 64, not "${text}"`);
  return n;
}

/** Reads an area or moment option with the page's parser; its complaint becomes a usage error. */
function areaOption<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

type Options = Record<string, { type: 'string' | 'boolean' }>;

function parse(words: string[], options: Options): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const all: Options = { ...options, help: { type: 'boolean' }, threads: { type: 'string' } };
    const { values, positionals } = parseArgs({ args: words, options: all, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function one(positionals: string[], what: string, command: string): string {
  if (positionals.length === 0) throw new UsageError(`${command}: ${what} is missing`);
  return positionals[0];
}

/**
 * The command `argv` (the words after the program's name) asks for; `env` for osmar's
 * `OSMAR_PBF_FILE`.
 * @throws UsageError for anything malformed.
 */
export function parseCommand(argv: string[], env: Record<string, string | undefined>): Command {
  const [name, ...words] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return { name: 'help', text: USAGE };
  if (!(name in HELP)) throw new UsageError(`unknown command "${name}"`);
  if (words.includes('--help') || words.includes('-h')) return { name: 'help', text: HELP[name] };
  if (name === 'osmar') return osmar(words, env);
  if (name === 'info') {
    const { values, positionals } = parse(words, { json: { type: 'boolean' } });
    return { name, target: one(positionals, 'FILE or URL', name), json: values.json === true, threads: threadsOf(values.threads as string | undefined) };
  }
  if (name === 'index') {
    const { values, positionals } = parse(words, { out: { type: 'string' } });
    const target = one(positionals, 'FILE', name);
    if (/^https?:/i.test(target)) throw new UsageError('index: give a local file (a URL is indexed on its first full read in the page)');
    return { name, target, out: (values.out as string | undefined) ?? `${target}.idx`, threads: threadsOf(values.threads as string | undefined) };
  }
  if (name === 'sql') {
    const { values, positionals } = parse(words, { engine: { type: 'string' }, ...AREA_OPTIONS });
    const engine = values.engine as string | undefined;
    if (!(ENGINES as readonly (string | undefined)[]).includes(engine)) throw new UsageError(`sql: --engine is one of ${ENGINES.join(', ')}${engine === undefined ? ' (give it)' : `, not "${engine}"`}`);
    const target = one(positionals, 'FILE', name);
    const q = positionals.slice(1).join(' ');
    if (!q.trim()) throw new UsageError('sql: QUERY is missing (e.g. amenity=cafe)');
    const { area, inside } = areaOf(values, name);
    if (engine === 'osmium' && (area !== 'everywhere' || inside.inside)) throw new UsageError("sql: --engine osmium answers the whole file: osmium extract's rules for an area are not pbf-explorer's");
    return { name, engine: engine as Engine, target, query: { q, area, ...inside } };
  }
  if (name === 'serve') {
    const { values, positionals } = parse(words, { port: { type: 'string' } });
    const port = Number(values.port ?? 8080);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`serve: --port is a whole number from 0 to 65535, not "${values.port}"`);
    const file = positionals[0] ?? null;
    if (file !== null && !existsSync(file)) throw new UsageError(`serve: no such file: ${file}`);
    return { name, file, port };
  }
  if (name === 'optimize') {
    const { positionals } = parse(words, {});
    if (positionals.length !== 2) throw new UsageError('optimize: give IN.osm.pbf and OUT.osm.pbf');
    const [target, out] = positionals;
    if (/^https?:/i.test(target)) throw new UsageError('optimize: give a local file');
    if (out === target) throw new UsageError('optimize: OUT must not be IN');
    return { name, target, out };
  }
  const { values, positionals } = parse(words, {
    ...AREA_OPTIONS,
    at: { type: 'string' },
    from: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    'no-index': { type: 'boolean' },
  });
  const target = one(positionals, 'FILE or URL', name);
  const q = positionals.slice(1).join(' ');
  if (!q.trim()) throw new UsageError('query: QUERY is missing (e.g. amenity=cafe)');
  const format = values.format as string | undefined;
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) throw new UsageError(`query: --format is one of ${FORMATS.join(', ')}, not "${format}"`);
  const { area, inside } = areaOf(values, name);
  const [at, from] = [values.at, values.from] as (string | undefined)[];
  const moments = { ...(at !== undefined ? { at: areaOption(() => parseMoment(at)) } : {}), ...(from !== undefined ? { from: areaOption(() => parseMoment(from)) } : {}) };
  if (moments.from !== undefined && moments.from >= (moments.at ?? Infinity)) throw new UsageError('query: --from must come before --at');
  const query: Query = { q, area, ...inside, ...moments };
  const out = (values.out as string | undefined) ?? null;
  if (format === 'geoparquet' && out === null && process.stdout.isTTY) throw new UsageError('query: --format geoparquet is binary: give --out PATH, or redirect standard output to a file');
  return { name: 'query', target, query, format: (format as Format | undefined) ?? 'text', out, threads: threadsOf(values.threads as string | undefined), useIndex: values['no-index'] !== true };
}

/** The options that give a query's area, as `query` and `sql` take them. */
const AREA_OPTIONS = {
  near: { type: 'string' },
  radius: { type: 'string' },
  bbox: { type: 'string' },
  in: { type: 'string' },
  poly: { type: 'string' },
  inside: { type: 'string' },
} as const;

/**
 * The area and `inside` that the options `values` give (the whole file when none).
 * @throws UsageError naming `command` for two areas at once, `--radius` without `--near`, or a
 *   value that does not parse.
 */
function areaOf(values: Record<string, unknown>, command: string): { area: Area; inside: { inside?: 'all' } } {
  const [near, radius, bbox, inside, relation, poly] = [values.near, values.radius, values.bbox, values.inside, values.in, values.poly] as (string | undefined)[];
  if ([near, bbox, relation, poly].filter((v) => v !== undefined).length > 1) throw new UsageError(`${command}: give one of --near, --bbox, --in and --poly`);
  if (radius !== undefined && near === undefined) throw new UsageError(`${command}: --radius needs --near`);
  if (inside !== undefined && inside !== 'all' && inside !== 'any') throw new UsageError(`${command}: --inside is all or any, not "${inside}"`);
  let area: Area = 'everywhere';
  if (near !== undefined) area = { circle: { ...areaOption(() => parseLatLon(near)), radius: areaOption(() => parseRadius(radius ?? '1000')) } };
  if (bbox !== undefined) area = areaOption(() => parseBbox(bbox));
  if (relation !== undefined) area = { relation: areaOption(() => parseRelationRef(relation)) };
  if (poly !== undefined) area = { polygon: areaOption(() => (existsSync(poly) ? parsePolygonFile(readFileSync(poly, 'utf8')) : parsePoly(poly))) };
  return { area, inside: inside === 'all' ? { inside: 'all' } : {} };
}

/** osmar's words: LAT LON RADIUS TAG... (negative numbers are positional here, not options). */
function osmar(words: string[], env: Record<string, string | undefined>): Command {
  if (words.length < 3) throw new UsageError('osmar: LAT LON RADIUS are needed (e.g. osmar 53.076 8.807 500 shop=bicycle)');
  const [lat, lon, radius, ...tags] = words;
  const file = env.OSMAR_PBF_FILE;
  if (!file) throw new UsageError('osmar: set OSMAR_PBF_FILE to the .osm.pbf file to read');
  const centre = areaOption(() => parseLatLon(`${lat},${lon}`));
  const area: Area = { circle: { ...centre, radius: areaOption(() => parseRadius(radius)) } };
  return { name: 'query', target: file, query: { q: osmarTags(tags), area }, format: 'text', out: null, threads: threadsOf(undefined), useIndex: true };
}

const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * osmar's tag arguments as a query: values of one key are or-ed, keys are and-ed; `KEY=_` or a
 * bare `KEY` asks for the key with any value; no TAG asks for every element with a tag.
 */
export function osmarTags(tags: string[]): string {
  const byKey = new Map<string, Set<string> | null>();
  for (const tag of tags) {
    const eq = tag.indexOf('=');
    const [key, value] = eq < 0 ? [tag, '_'] : [tag.slice(0, eq), tag.slice(eq + 1)];
    if (!key) throw new UsageError(`osmar: "${tag}" is not KEY=VALUE`);
    const values = byKey.has(key) ? byKey.get(key)! : new Set<string>();
    if (value === '_' || values === null) byKey.set(key, null);
    else byKey.set(key, values.add(value));
  }
  if (byKey.size === 0) return '*';
  return [...byKey].map(([k, values]) => (values === null ? quoted(k) : `(${[...values].map((v) => `${quoted(k)}=${quoted(v)}`).join(' or ')})`)).join(' and ');
}
