/** The query worker's numeric map changes, read back as GeoJSON by the page. */
import { describe, expect, it } from 'vitest';
import { mapChanges, matchOf } from './wire';

describe('mapChanges', () => {
  it('reads removals, then features to add with their geometry, id and type', () => {
    const way = 4 * 123 + 1;
    const area = 4 * 9 + 1;
    const relation = 4 * 5 + 2;
    const ring = [4, 0, 0, 1, 0, 1, 1, 0, 0];
    const numbers = [2, 40, 41, way, 1, 2, 24.9, 60.1, 25, 60.2, 4 * 7, 0, -1.5, 51, area, 2, 1, ...ring, relation, 4, 2, 1, ...ring, 1, ...ring];
    const { remove, add } = mapChanges(new Float64Array(numbers));
    const square = [[0, 0], [1, 0], [1, 1], [0, 0]];
    expect(remove).toEqual([40, 41]);
    expect(add).toEqual([
      { type: 'Feature', id: way, properties: { type: 'way' }, geometry: { type: 'LineString', coordinates: [[24.9, 60.1], [25, 60.2]] } },
      { type: 'Feature', id: 28, properties: { type: 'node' }, geometry: { type: 'Point', coordinates: [-1.5, 51] } },
      { type: 'Feature', id: area, properties: { type: 'way' }, geometry: { type: 'Polygon', coordinates: [square] } },
      { type: 'Feature', id: relation, properties: { type: 'relation' }, geometry: { type: 'MultiPolygon', coordinates: [[square], [square]] } },
    ]);
    expect(mapChanges(new Float64Array([0]))).toEqual({ remove: [], add: [] });
  });

  it("reads a change view's class from the shape's kind number (8 × the class number)", () => {
    const numbers = [0, 4 * 7, 8 * 3 + 0, 14.5, 35.9, 4 * 8 + 1, 8 * 1 + 1, 2, 0, 0, 1, 1];
    expect(mapChanges(new Float64Array(numbers)).add).toEqual([
      { type: 'Feature', id: 28, properties: { type: 'node', change: 'deleted' }, geometry: { type: 'Point', coordinates: [14.5, 35.9] } },
      { type: 'Feature', id: 33, properties: { type: 'way', change: 'created' }, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } },
    ]);
  });

    it('gives back the type and OSM id of a feature id, negative ids too', () => {
    expect(matchOf(4 * 123 + 1)).toEqual({ type: 'way', id: 123 });
    expect(matchOf(4 * 7)).toEqual({ type: 'node', id: 7 });
    expect(matchOf(4 * 5 + 2)).toEqual({ type: 'relation', id: 5 });
    expect(matchOf(4 * -5 + 1)).toEqual({ type: 'way', id: -5 });
    expect(matchOf(4 * -3 + 2)).toEqual({ type: 'relation', id: -3 });
    expect(matchOf(4 * -9)).toEqual({ type: 'node', id: -9 });
  });
});
