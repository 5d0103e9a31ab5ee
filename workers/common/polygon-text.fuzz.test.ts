/**
 * Fuzzes the polygon parsers (the URL's and command line's `poly=`, GeoJSON and `.poly` files)
 * with fast-check: arbitrary text, and text shaped like each form (numbers of every kind with
 * the separators, nested GeoJSON geometries, `.poly` sections). Each call either gives parts
 * the decoder can take (rings of three distinct points at least, longitude and latitude in
 * range) or throws an Error for the user naming the form; never another exception (a
 * TypeError, a stack overflow) and never a hang. FUZZ_RUNS sets the runs of each property
 * (`scripts/fuzz.sh` raises it for hunting).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePoly, parsePolygonFile, type PolygonParts } from './polygon-text';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
/** A property's time limit: a run takes well under a millisecond. */
const TIMEOUT = Math.max(30_000, RUNS * 2);

/** Every number a person or an attacker might write, as text. */
const number = fc.oneof(
  fc.double().map(String),
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.constantFrom('NaN', 'Infinity', '-0', '1e400', '0x10', '', '.', '-', '1_0', '٣'),
);

/** The `poly=` form: numbers with spaces, commas, `;` between rings and `!` for holes. */
const polyText = fc.array(fc.tuple(number, fc.constantFrom(' ', ',', ';', ';!', '  ', '\t', ', ')), { maxLength: 40 }).map((pieces) => pieces.flat().join(''));

/** GeoJSON-shaped text: geometries nested in features and collections, with odd coordinates. */
const { geometry } = fc.letrec<{ geometry: unknown; coordinates: unknown }>((tie) => ({
  coordinates: fc.oneof({ depthSize: 'small' }, fc.double(), fc.integer({ min: -200, max: 200 }), fc.string({ maxLength: 3 }), fc.constant(null), fc.array(tie('coordinates'), { maxLength: 6 })),
  geometry: fc.oneof(
    { depthSize: 'small' },
    fc.record({ type: fc.constantFrom('Polygon', 'MultiPolygon', 'Point'), coordinates: tie('coordinates') }),
    fc.record({ type: fc.constant('Feature'), geometry: tie('geometry') }),
    fc.record({ type: fc.constantFrom('FeatureCollection'), features: fc.array(tie('geometry'), { maxLength: 4 }) }),
    fc.record({ type: fc.constantFrom('GeometryCollection'), geometries: fc.array(tie('geometry'), { maxLength: 4 }) }),
    fc.json(),
  ),
}));
const geoJsonText = fc.oneof(geometry.map((g) => JSON.stringify(g) ?? ''), fc.string().map((s) => `{${s}`));

/** `.poly`-shaped text: a name, sections of coordinate lines, END lines, holes, garbage. */
const polyFileLine = fc.oneof(fc.constantFrom('area', '1', '!2', 'END', ''), fc.tuple(number, number).map(([a, b]) => `   ${a}   ${b}`), fc.string({ maxLength: 8 }));
const polyFileText = fc.tuple(fc.array(polyFileLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n')).map(([lines, end]) => lines.join(end));

/** Parts the decoder's `Area::Polygon` takes. */
function expectUsable(parts: PolygonParts): void {
  expect(parts.length).toBeGreaterThan(0);
  for (const ring of parts.flat()) {
    expect(new Set(ring.map((p) => `${p[0]} ${p[1]}`)).size).toBeGreaterThanOrEqual(3);
    for (const [lon, lat] of ring) {
      expect(Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90).toBe(true);
    }
  }
}

/** `parse(text)` gives usable parts or an Error for the user whose message starts with a form's name. */
function parsesOrSaysWhy(parse: (text: string) => PolygonParts, text: string): void {
  let parts: PolygonParts;
  try {
    parts = parse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(TypeError);
    expect(e).not.toBeInstanceOf(RangeError);
    expect((e as Error).message).toMatch(/^(poly: |GeoJSON: |\.poly[: ])/);
    return;
  }
  expectUsable(parts);
}

describe('polygon parsers under fuzzing', () => {
  it('poly= text: usable parts or a "poly:" error', { timeout: TIMEOUT }, () => {
    fc.assert(fc.property(fc.oneof(polyText, fc.string(), fc.string({ unit: 'binary' })), (text) => parsesOrSaysWhy(parsePoly, text)), { numRuns: RUNS });
  });

  it('GeoJSON files: usable parts or a "GeoJSON:" error', { timeout: TIMEOUT }, () => {
    fc.assert(fc.property(geoJsonText, (text) => parsesOrSaysWhy(parsePolygonFile, text)), { numRuns: RUNS });
  });

  it('.poly files: usable parts or a ".poly" error naming the line', { timeout: TIMEOUT }, () => {
    fc.assert(fc.property(fc.oneof(polyFileText, fc.string({ unit: 'binary' })), (text) => parsesOrSaysWhy(parsePolygonFile, text)), { numRuns: RUNS });
  });

  it('a GeoJSON nested past any stack, or with more features than a call takes arguments, is read without a stack overflow', () => {
    const deep = '{"type":"GeometryCollection","geometries":['.repeat(20_000) + ']}'.repeat(20_000);
    parsesOrSaysWhy(parsePolygonFile, deep);
    const square = [[0, 0], [1, 0], [1, 1], [0, 0]];
    const wide = JSON.stringify({ type: 'FeatureCollection', features: Array.from({ length: 200_000 }, () => ({ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[square]] } })) });
    expect(parsePolygonFile(wide)).toHaveLength(200_000);
  });
});
