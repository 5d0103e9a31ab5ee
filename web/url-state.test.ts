/** The query as URL parameters, and the query text forms. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, readUrl, toQuery, writeUrl } from './url-state';
import { describeQuery, parseBbox } from '../workers/common/query-text';

describe('URL state', () => {
  it('round-trips a query with its link context', () => {
    const search = '?src=/sample/helsinki.osm.pbf&q=amenity=restaurant cuisine&near=60.1699,24.9384&radius=500&map=14.00/60.16990/24.93840';
    const { state, src, map, hasQuery } = readUrl(search);
    expect(state).toEqual({ q: 'amenity=restaurant cuisine', place: 'circle', near: '60.1699,24.9384', radius: '500', bbox: '', relation: '', poly: '', inside: 'any', at: '', from: '' });
    expect(src).toBe('/sample/helsinki.osm.pbf');
    expect(map).toEqual({ zoom: 14, lat: 60.1699, lon: 24.9384 });
    expect(hasQuery).toBe(true);
    const again = writeUrl(state, { src, file: null, map, basemap: 'https://tiles.example.org/style.json' });
    expect(readUrl(again).state).toEqual(state);
    expect(readUrl(again).basemap).toBe('https://tiles.example.org/style.json');
    expect(again).toContain('q=amenity=restaurant+cuisine');
  });

  it('chooses the place from what the URL holds', () => {
    expect(readUrl('?q=shop&bbox=14.5,35.88,14.53,35.91').state.place).toBe('bbox');
    expect(readUrl('?q=shop').state.place).toBe('everywhere');
    expect(readUrl('').state).toEqual(DEFAULT_STATE);
    expect(readUrl('?file=malta.osm.pbf&q=shop').file).toBe('malta.osm.pbf');
    expect(readUrl('?map=99/100/0').map).toBeNull();
  });

  it('turns the state into a query, and says what is wrong', () => {
    expect(toQuery({ ...DEFAULT_STATE })).toEqual({ q: 'amenity=cafe', area: { circle: { lat: 60.1699, lon: 24.9384, radius: 1000 } }, inside: 'any' });
    expect(toQuery({ ...DEFAULT_STATE, q: ' shop or craft ', inside: 'all' })).toEqual({ q: 'shop or craft', area: { circle: { lat: 60.1699, lon: 24.9384, radius: 1000 } }, inside: 'all' });
    expect(readUrl(writeUrl({ ...DEFAULT_STATE, inside: 'all' }, { src: null, file: null, map: null })).state.inside).toBe('all');
    expect(toQuery({ ...DEFAULT_STATE, place: 'everywhere' }).area).toBe('everywhere');
    expect(() => toQuery({ ...DEFAULT_STATE, near: '91,0' })).toThrow(/lat,lon/);
    expect(() => toQuery({ ...DEFAULT_STATE, radius: '-5' })).toThrow(/positive/);
    expect(() => toQuery({ ...DEFAULT_STATE, q: '  ' })).toThrow(/enter a query/);
  });

  it('carries a relation or a polygon as the area', () => {
    const relation = readUrl('?q=amenity=restaurant&in=relation/7510580');
    expect(relation.state.place).toBe('relation');
    expect(toQuery(relation.state).area).toEqual({ relation: 7510580 });
    expect(writeUrl(relation.state, { src: null, file: null, map: null })).toBe('?q=amenity=restaurant&in=relation/7510580');
    const poly = readUrl('?q=shop&poly=35.895 14.505 35.895 14.52 35.905 14.525;!35.898 14.51 35.898 14.515 35.902 14.515');
    expect(poly.state.place).toBe('polygon');
    expect(toQuery(poly.state).area).toEqual({ polygon: [[[[14.505, 35.895], [14.52, 35.895], [14.525, 35.905]], [[14.51, 35.898], [14.515, 35.898], [14.515, 35.902]]]] });
    const link = writeUrl(poly.state, { src: null, file: null, map: null });
    expect(link).toBe('?q=shop&poly=35.895+14.505+35.895+14.52+35.905+14.525;!35.898+14.51+35.898+14.515+35.902+14.515');
    expect(readUrl(link).state).toEqual(poly.state);
    expect(() => toQuery({ ...DEFAULT_STATE, place: 'relation', relation: 'Valletta' })).toThrow(/relation\/7510580/);
    expect(() => toQuery({ ...DEFAULT_STATE, place: 'polygon', poly: '35.9 14.5 35.91' })).toThrow(/lat lon pairs/);
  });

  it('reads the moment of a history query as ISO 8601, UTC unless it names a zone', () => {
    expect(readUrl('?q=shop&at=2021-07-01T00:00:00Z').state.at).toBe('2021-07-01T00:00:00');
    expect(readUrl('?q=shop&at=2021-07-01').state.at).toBe('2021-07-01T00:00:00');
    expect(readUrl('?q=shop&at=2021-07-01T02:00:00%2B02:00').state.at).toBe('2021-07-01T00:00:00');
    expect(toQuery({ ...DEFAULT_STATE, at: '2021-07-01T00:00:00' }).at).toBe(1_625_097_600);
    expect(toQuery({ ...DEFAULT_STATE, at: '2021-07-01T00:00' }).at).toBe(1_625_097_600);
    expect(toQuery({ ...DEFAULT_STATE }).at).toBeUndefined();
    expect(() => toQuery({ ...DEFAULT_STATE, at: 'last tuesday' })).toThrow(/ISO 8601/);
    const search = writeUrl({ ...DEFAULT_STATE, at: '2021-07-01T00:00:00' }, { src: null, file: null, map: null });
    expect(new URLSearchParams(search).get('at')).toBe('2021-07-01T00:00:00Z');
    expect(readUrl(search).state.at).toBe('2021-07-01T00:00:00');
  });

  it("carries a local file's name and size, and drops a size that is not a byte count", () => {
    const search = writeUrl({ ...DEFAULT_STATE }, { src: null, file: 'malta.osm.pbf', size: 6_016_219, map: null });
    expect(new URLSearchParams(search).get('size')).toBe('6016219');
    expect(readUrl(search)).toMatchObject({ file: 'malta.osm.pbf', size: 6_016_219 });
    expect(readUrl('?q=shop&file=a.osm.pbf&size=-1').size).toBeNull();
    const stamped = writeUrl({ ...DEFAULT_STATE }, { src: null, file: 'malta.osm.pbf', size: 6_016_219, stamp: 1_715_000_000, map: null });
    expect(readUrl(stamped)).toMatchObject({ size: 6_016_219, stamp: 1_715_000_000 });
    expect(readUrl('?q=shop&file=a.osm.pbf&stamp=soon').stamp).toBeNull();
    expect(readUrl('?q=shop&size=5').size).toBeNull(); // no file, no size
  });

    it('carries the first moment of a change view (from=), which must come before the second', () => {
    const state = readUrl('?q=shop&from=2020-01-01&at=2021-07-01T00:00:00Z').state;
    expect([state.from, state.at]).toEqual(['2020-01-01T00:00:00', '2021-07-01T00:00:00']);
    expect(toQuery(state)).toMatchObject({ from: 1_577_836_800, at: 1_625_097_600 });
    expect(new URLSearchParams(writeUrl(state, { src: null, file: null, map: null })).get('from')).toBe('2020-01-01T00:00:00Z');
    expect(() => toQuery({ ...state, from: '2022-01-01' })).toThrow(/must come before/);
    expect(toQuery({ ...state, at: '' }).from).toBe(1_577_836_800); // to now
    expect(describeQuery(toQuery(state))).toBe('shop in the whole file, changed from 2020-01-01T00:00:00Z to 2021-07-01T00:00:00Z');
  });
});

describe('query text', () => {
  it('parses bboxes and describes queries', () => {
    expect(parseBbox('14.5,35.88,14.53,35.91')).toEqual({ bbox: { min_lon: 14.5, min_lat: 35.88, max_lon: 14.53, max_lat: 35.91 } });
    expect(() => parseBbox('14.53,35.88,14.5,35.91')).toThrow(/bbox/);
    expect(describeQuery({ q: 'shop', area: 'everywhere' })).toBe('shop in the whole file');
    expect(describeQuery({ q: 'shop', area: { relation: 7 } })).toBe('shop inside relation 7');
    expect(describeQuery({ q: 'shop', area: { polygon: [[[[0, 0], [1, 0], [1, 1]]]] } })).toBe('shop inside a polygon of 3 points');
  });
});
