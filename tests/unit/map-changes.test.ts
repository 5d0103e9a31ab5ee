/** The query worker's numeric map changes, read back as GeoJSON by the page. */
import { describe, expect, it } from 'vitest';
import { mapChanges } from '../../workers/client';

describe('mapChanges', () => {
  it('reads removals, then features to add with their type and id from the feature id', () => {
    const { remove, add } = mapChanges(new Float64Array([2, 40, 41, 4 * 123 + 1, 24.9, 60.1, 4 * 7, -1.5, 51]));
    expect(remove).toEqual([40, 41]);
    expect(add).toEqual([
      { type: 'Feature', id: 493, properties: { type: 'way', id: 123 }, geometry: { type: 'Point', coordinates: [24.9, 60.1] } },
      { type: 'Feature', id: 28, properties: { type: 'node', id: 7 }, geometry: { type: 'Point', coordinates: [-1.5, 51] } },
    ]);
    expect(mapChanges(new Float64Array([0]))).toEqual({ remove: [], add: [] });
  });
});
