/** How the page sizes its MapLibre updates: positions per geometry, features per budget. */
import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { featuresWithin, positionCount } from './geometry';

const square = [[0, 0], [1, 0], [1, 1], [0, 0]];
const feature = (geometry: Geometry): Feature => ({ type: 'Feature', properties: {}, geometry });
const point = feature({ type: 'Point', coordinates: [24.9, 60.1] });
const polygon = feature({ type: 'Polygon', coordinates: [square, square] }); // 8 positions

describe('positionCount', () => {
  it('counts every vertex of every line and ring, a point as one', () => {
    expect(positionCount(point.geometry)).toBe(1);
    expect(positionCount({ type: 'LineString', coordinates: square })).toBe(4);
    expect(positionCount(polygon.geometry)).toBe(8);
    expect(positionCount({ type: 'MultiLineString', coordinates: [square, square.slice(0, 2)] })).toBe(6);
    expect(positionCount({ type: 'MultiPolygon', coordinates: [[square], [square, square]] })).toBe(12);
    expect(positionCount({ type: 'MultiPoint', coordinates: square })).toBe(4);
    expect(positionCount({ type: 'GeometryCollection', geometries: [point.geometry, polygon.geometry] })).toBe(9);
  });
});

describe('featuresWithin', () => {
  it('takes features from `start` while 2 + their positions stay within the budget', () => {
    const features = [point, point, polygon, point];
    expect(featuresWithin(features, 6)).toBe(2); // 3 + 3
    expect(featuresWithin(features, 15)).toBe(2); // the polygon (10) would make 16
    expect(featuresWithin(features, 16)).toBe(3);
    expect(featuresWithin(features, 1000)).toBe(4);
    expect(featuresWithin(features, 13, 1)).toBe(2); // 3 + 10
    expect(featuresWithin(features, 1000, 3)).toBe(1);
  });

  it('takes one feature heavier than the budget, and none when none is left', () => {
    expect(featuresWithin([polygon, point], 5)).toBe(1);
    expect(featuresWithin([point], 5, 1)).toBe(0);
    expect(featuresWithin([], 5)).toBe(0);
  });
});
