//! The place part of a query: a circle (centre + radius, haversine on a sphere), a bbox, a
//! polygon ([`super::polygon`]), or a relation of the file, whose outline the read plan finds
//! first ([`crate::assembly::area_read`]).

use serde::{Deserialize, Serialize};

use crate::error::DecodeError;
use crate::query::polygon::PolygonTest;

/// Mean Earth radius in metres (IUGG), the sphere the haversine distance is measured on.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// Where matches must lie. Coordinates are degrees WGS84, distances metres.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    /// The whole file.
    Everywhere,
    /// Points whose haversine distance from (`lat`, `lon`) is ≤ `radius` metres.
    Circle { lat: f64, lon: f64, radius: f64 },
    /// Points with `min_lon ≤ lon ≤ max_lon` and `min_lat ≤ lat ≤ max_lat`.
    Bbox { min_lon: f64, min_lat: f64, max_lon: f64, max_lat: f64 },
    /// Points inside or on a polygon: GeoJSON MultiPolygon coordinates, parts of rings of
    /// `[lon, lat]` (each part's first ring its outer one, the others its holes), as
    /// [`PolygonTest`] reads them.
    Polygon(Vec<Vec<Vec<[f64; 2]>>>),
    /// The multipolygon of relation `id` of the file (`type=multipolygon` or `boundary`): the
    /// read plan reads it first and answers the query inside its outline, as a [`Area::Polygon`].
    Relation(i64),
}

/// An [`Area`] prepared for fast tests: a bbox prefilter, then the exact test.
#[derive(Debug, Clone)]
pub struct AreaTest {
    area: Area,
    /// `[min_lat, max_lat, min_lon, max_lon]` in degrees; everything outside is outside the area.
    bounds: [f64; 4],
    /// The edges of an [`Area::Polygon`], ready for point tests.
    polygon: Option<PolygonTest>,
}

impl Area {
    /// Checks the area's numbers and prepares it for [`AreaTest::contains`].
    ///
    /// Errors: [`DecodeError::Query`] for a latitude outside ±90°, a longitude outside ±180°,
    /// a negative or non-finite radius, a bbox whose minimum exceeds its maximum, or a polygon
    /// with no ring of three vertices.
    pub fn prepare(&self) -> Result<AreaTest, DecodeError> {
        let bad = |msg: String| Err(DecodeError::Query(msg));
        let bounds = match *self {
            Area::Everywhere | Area::Relation(_) => [-90.0, 90.0, -180.0, 180.0],
            Area::Polygon(ref parts) => return polygon_test(parts, false).map(|(polygon, bounds)| AreaTest { area: self.clone(), bounds, polygon: Some(polygon) }),
            Area::Circle { lat, lon, radius } => {
                if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
                    return bad(format!("centre {lat},{lon} is not a valid lat,lon in degrees"));
                }
                if !radius.is_finite() || radius < 0.0 {
                    return bad(format!("radius {radius} m must be a non-negative number of metres"));
                }
                circle_bounds(lat, lon, radius)
            }
            Area::Bbox { min_lon, min_lat, max_lon, max_lat } => {
                let ok = [min_lon, min_lat, max_lon, max_lat].iter().all(|v| v.is_finite())
                    && min_lon <= max_lon
                    && min_lat <= max_lat;
                if !ok {
                    return bad(format!(
                        "bbox {min_lon},{min_lat},{max_lon},{max_lat} must be minlon,minlat,maxlon,maxlat with min ≤ max"
                    ));
                }
                [min_lat, max_lat, min_lon, max_lon]
            }
        };
        Ok(AreaTest { area: self.clone(), bounds, polygon: None })
    }

    /// The polygon of `parts` (as [`Area::Polygon`]) ready for tests; `disjoint`: its parts are
    /// known not to overlap (an assembled multipolygon).
    ///
    /// Errors: [`DecodeError::Query`] as for [`Area::prepare`].
    pub fn prepare_polygon(parts: Vec<Vec<Vec<[f64; 2]>>>, disjoint: bool) -> Result<AreaTest, DecodeError> {
        let (polygon, bounds) = polygon_test(&parts, disjoint)?;
        Ok(AreaTest { area: Area::Polygon(parts), bounds, polygon: Some(polygon) })
    }
}

/// The [`PolygonTest`] of `parts` and their bounds `[min_lat, max_lat, min_lon, max_lon]`.
fn polygon_test(parts: &[Vec<Vec<[f64; 2]>>], disjoint: bool) -> Result<(PolygonTest, [f64; 4]), DecodeError> {
    let mut bounds = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
    for &[lon, lat] in parts.iter().flatten().flatten() {
        if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
            return Err(DecodeError::Query(format!("polygon vertex {lat} {lon} is not a valid lat lon in degrees")));
        }
        bounds = [bounds[0].min(lat), bounds[1].max(lat), bounds[2].min(lon), bounds[3].max(lon)];
    }
    let polygon = PolygonTest::new(parts, disjoint).ok_or_else(|| DecodeError::Query("the polygon has no ring of three points".into()))?;
    // Widened by a hair: a node's degrees (nanodegrees × 1e-9) may round a unit in the last
    // place away from a vertex's (1e-7-degree units × 1e-7); the exact test decides.
    let hair = 1e-7;
    Ok((polygon, [bounds[0] - hair, bounds[1] + hair, bounds[2] - hair, bounds[3] + hair]))
}

/// The lat/lon box around a circle on the sphere, widened by a hair so that rounding can
/// only let extra points through to the exact test, never drop one.
fn circle_bounds(lat: f64, lon: f64, radius: f64) -> [f64; 4] {
    let angular = radius / EARTH_RADIUS_M;
    let eps = 1e-7;
    let dlat = angular.to_degrees() + eps;
    let (min_lat, max_lat) = (lat - dlat, lat + dlat);
    let reaches_pole = max_lat >= 90.0 || min_lat <= -90.0 || angular >= std::f64::consts::FRAC_PI_2;
    let (min_lon, max_lon) = if reaches_pole {
        (-180.0, 180.0)
    } else {
        let dlon = (angular.sin() / lat.to_radians().cos()).min(1.0).asin().to_degrees() + eps;
        if lon - dlon < -180.0 || lon + dlon > 180.0 {
            (-180.0, 180.0) // crosses the antimeridian: let the exact test decide
        } else {
            (lon - dlon, lon + dlon)
        }
    };
    [min_lat, max_lat, min_lon, max_lon]
}

/// Great-circle distance in metres between two points in degrees, by the haversine formula
/// on a sphere of radius [`EARTH_RADIUS_M`].
pub fn haversine_m(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = p2 - p1;
    let dl = (lon2 - lon1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * a.sqrt().min(1.0).asin()
}

impl AreaTest {
    /// The area's size in km² on the sphere of [`EARTH_RADIUS_M`] (a circle as a flat disc,
    /// a bbox by the cosine of its middle latitude); infinite for the whole file.
    pub fn area_km2(&self) -> f64 {
        let km_per_degree = EARTH_RADIUS_M.to_radians() / 1000.0;
        match self.area {
            Area::Everywhere => f64::INFINITY,
            Area::Circle { radius, .. } => std::f64::consts::PI * (radius / 1000.0).powi(2),
            Area::Bbox { min_lon, min_lat, max_lon, max_lat } => {
                let mid = ((min_lat + max_lat) / 2.0).to_radians().cos();
                (max_lat - min_lat) * km_per_degree * (max_lon - min_lon) * km_per_degree * mid
            }
            Area::Relation(_) => f64::INFINITY,
            Area::Polygon(ref parts) => {
                // Each ring by the shoelace formula on degrees scaled by the cosine of its
                // latitude (an equirectangular projection: good for areas up to a country's).
                let ring = |r: &Vec<[f64; 2]>| {
                    let n = r.len();
                    (0..n).map(|i| {
                        let ([x1, y1], [x2, y2]) = (r[i], r[(i + 1) % n]);
                        (x1 * y2 - x2 * y1) * ((y1 + y2) / 2.0).to_radians().cos()
                    }).sum::<f64>().abs() / 2.0
                };
                let parts: f64 = parts.iter().map(|rings| rings.first().map_or(0.0, ring) - rings.iter().skip(1).map(ring).sum::<f64>()).sum();
                parts * km_per_degree * km_per_degree
            }
        }
    }

    /// The haversine distance in metres from the circle's centre to (`lat`, `lon`) in degrees;
    /// None for an area without a centre (a bbox, the whole file).
    pub fn distance_m(&self, lat: f64, lon: f64) -> Option<f64> {
        match self.area {
            Area::Circle { lat: clat, lon: clon, .. } => Some(haversine_m(clat, clon, lat, lon)),
            _ => None,
        }
    }

    /// Whether the point (`lat`, `lon`), in degrees, lies in the area (boundary included).
    #[inline]
    pub fn contains(&self, lat: f64, lon: f64) -> bool {
        let [min_lat, max_lat, min_lon, max_lon] = self.bounds;
        if lat < min_lat || lat > max_lat || lon < min_lon || lon > max_lon {
            return false;
        }
        match (&self.area, &self.polygon) {
            (&Area::Circle { lat: clat, lon: clon, radius }, _) => haversine_m(clat, clon, lat, lon) <= radius,
            (_, Some(polygon)) => polygon.contains(lat, lon),
            _ => true,
        }
    }

    /// Whether the area can hold a point of the bbox `[min_lat, min_lon, max_lat, max_lon]`
    /// given in 1e-7 degrees (a conservative test on the area's bounds; an inverted bbox is empty).
    pub fn meets_bbox_e7(&self, [min_lat, min_lon, max_lat, max_lon]: [i32; 4]) -> bool {
        let [a_min_lat, a_max_lat, a_min_lon, a_max_lon] = self.bounds;
        let d = |v: i32| v as f64 * 1e-7;
        min_lat <= max_lat && d(max_lat) >= a_min_lat && d(min_lat) <= a_max_lat && d(max_lon) >= a_min_lon && d(min_lon) <= a_max_lon
    }

    /// The area's bounds in degrees: `[min_lat, max_lat, min_lon, max_lon]` (nothing outside
    /// them is inside the area).
    pub fn bounds(&self) -> [f64; 4] {
        self.bounds
    }

    /// Whether every point is inside (no test needed).
    pub fn is_everywhere(&self) -> bool {
        matches!(self.area, Area::Everywhere)
    }

    /// The relation whose outline is the area, before the read plan has found it.
    pub fn relation(&self) -> Option<i64> {
        match self.area {
            Area::Relation(id) => Some(id),
            _ => None,
        }
    }

    /// The area as given.
    pub fn area(&self) -> &Area {
        &self.area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_contains_centre_and_excludes_far_points() {
        let t = Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 }.prepare().unwrap();
        assert!(t.contains(60.1699, 24.9384));
        assert!(t.contains(60.1699 + 0.0089, 24.9384)); // ~990 m north
        assert!(!t.contains(60.1699 + 0.0091, 24.9384)); // ~1012 m north
        assert!(!t.contains(35.0, 14.0));
    }

    #[test]
    fn circle_near_antimeridian_and_pole_uses_exact_test() {
        let t = Area::Circle { lat: 0.0, lon: 179.999, radius: 1000.0 }.prepare().unwrap();
        assert!(t.contains(0.0, -179.9995));
        let p = Area::Circle { lat: 89.999, lon: 0.0, radius: 1000.0 }.prepare().unwrap();
        assert!(p.contains(89.9995, 170.0));
    }

    #[test]
    fn a_polygons_own_vertex_is_inside_however_its_degrees_round() {
        // A node's degrees are nanodegrees × 1e-9, an outline's 1e-7-degree units × 1e-7: the
        // two may differ in the last place, and the top vertex must pass the bounds all the same.
        for k in 0..2_000i64 {
            let (lat_e7, lon_e7) = (359_000_000 + k * 7_919, 145_000_000 + k * 104_729);
            let (lat, lon) = (lat_e7 as f64 * 1e-7, lon_e7 as f64 * 1e-7);
            let area = Area::Polygon(vec![vec![vec![[lon - 0.01, lat - 0.01], [lon + 0.01, lat - 0.01], [lon, lat]]]]).prepare().unwrap();
            assert!(area.contains((lat_e7 * 100) as f64 * 1e-9, (lon_e7 * 100) as f64 * 1e-9), "{lat_e7} {lon_e7}");
        }
    }

    #[test]
    fn bbox_is_inclusive_and_validated() {
        let t = Area::Bbox { min_lon: 14.5, min_lat: 35.88, max_lon: 14.53, max_lat: 35.91 }.prepare().unwrap();
        assert!(t.contains(35.88, 14.5));
        assert!(!t.contains(35.87, 14.5));
        assert!(Area::Bbox { min_lon: 1.0, min_lat: 0.0, max_lon: 0.0, max_lat: 1.0 }.prepare().is_err());
        assert!(Area::Circle { lat: 91.0, lon: 0.0, radius: 1.0 }.prepare().is_err());
        assert!(Area::Circle { lat: 0.0, lon: 0.0, radius: -1.0 }.prepare().is_err());
    }
}
