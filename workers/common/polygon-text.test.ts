/** Polygon areas as people write them: the URL's poly=, GeoJSON and .poly files. */
import { describe, expect, it } from 'vitest';
import { formatPoly, parseGeoJsonPolygon, parsePoly, parsePolyFile, parsePolygonFile, parseRelationRef } from './polygon-text';

const square = [[14.5, 35.9], [14.52, 35.9], [14.52, 35.92], [14.5, 35.92]];
const hole = [[14.505, 35.905], [14.51, 35.905], [14.51, 35.91]];

describe('polygon text', () => {
  it("reads overpass's poly form, with holes and parts, and writes it back", () => {
    expect(parsePoly('35.9 14.5 35.9 14.52 35.92 14.52 35.92 14.5')).toEqual([[square]]);
    const text = '35.9 14.5 35.9 14.52 35.92 14.52 35.92 14.5;!35.905 14.505 35.905 14.51 35.91 14.51;36 14 36 14.1 36.1 14';
    const parts = parsePoly(text);
    expect(parts).toEqual([[square, hole], [[[14, 36], [14.1, 36], [14, 36.1]]]]);
    expect(formatPoly(parts)).toBe(text);
    expect(formatPoly([[[...square, square[0]]]])).toBe('35.9 14.5 35.9 14.52 35.92 14.52 35.92 14.5');
    expect(parsePoly('35.9,14.5,35.9,14.52,35.92,14.52')).toHaveLength(1);
  });

  it('says what is wrong with a poly', () => {
    expect(() => parsePoly('35.9 14.5 35.9')).toThrow(/lat lon pairs/);
    expect(() => parsePoly('95 14.5 35.9 14.52 35.92 14.52')).toThrow(/not a longitude and latitude/);
    expect(() => parsePoly('35.9 14.5 35.9 14.52')).toThrow(/three points/);
    expect(() => parsePoly('!35.9 14.5 35.9 14.52 35.92 14.52')).toThrow(/after the outer ring/);
    expect(() => parsePoly('')).toThrow(/no polygon/);
  });

  it('reads GeoJSON polygons and multipolygons, bare or in features', () => {
    const polygon = { type: 'Polygon', coordinates: [square, hole] };
    expect(parseGeoJsonPolygon(JSON.stringify(polygon))).toEqual([[square, hole]]);
    const collection = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: polygon }, { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] } }, { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[square], [hole]] } }] };
    expect(parseGeoJsonPolygon(JSON.stringify(collection))).toEqual([[square, hole], [square], [hole]]);
    expect(() => parseGeoJsonPolygon('{"type":"Point","coordinates":[1,2]}')).toThrow(/no polygon/);
    expect(() => parseGeoJsonPolygon('{nope')).toThrow(/not JSON/);
    expect(() => parseGeoJsonPolygon('{"type":"Polygon","coordinates":[[1,2,3]]}')).toThrow(/coordinates/);
  });

  it('reads .poly files with holes, and names the line that is wrong', () => {
    const file = ['malta', '1', '   1.4500000E+01   3.5900000E+01', '14.52 35.9', '14.52 35.92', '14.5 35.92', 'END', '!2', '14.505 35.905', '14.51 35.905', '14.51 35.91', 'END', 'END', ''].join('\n');
    expect(parsePolyFile(file)).toEqual([[square, hole]]);
    expect(parsePolygonFile(file)).toEqual([[square, hole]]);
    expect(parsePolygonFile(JSON.stringify({ type: 'Polygon', coordinates: [square] }))).toEqual([[square]]);
    expect(() => parsePolyFile('x\n1\n14.5 35.9\n14.52\nEND\nEND')).toThrow(/line 4/);
    expect(() => parsePolyFile('x\n1\n14.5 35.9\n14.52 35.9\n14.52 35.92\nEND')).toThrow(/ends before its last END/);
  });

  it('reads relation/ID', () => {
    expect(parseRelationRef('relation/7510580')).toBe(7510580);
    expect(parseRelationRef(' 42 ')).toBe(42);
    expect(() => parseRelationRef('way/5')).toThrow(/relation\/7510580/);
  });
});
