/** The refinements the tag statistics make: right whatever the query's precedence. */
import { describe, expect, it } from 'vitest';
import { refine, tagCondition } from './tag-stats';

describe('refine', () => {
  it('brackets the query whole, so a value refines every alternative of an or', () => {
    expect(refine('amenity=cafe or amenity=restaurant', tagCondition('cuisine', 'italian'), false)).toBe('(amenity=cafe or amenity=restaurant) and cuisine=italian');
    expect(refine(' shop ', tagCondition('shop', 'bakery'), true)).toBe('(shop) and not shop=bakery');
    expect(refine('', tagCondition('name', 'Café "Nero"'), false)).toBe('name="Café \\"Nero\\""');
  });
});
