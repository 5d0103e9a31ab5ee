//! The basemap drawn from the file itself: the roads, railways, water, buildings, parks and
//! landuse of the query's area, read after the answer so a person sees where the matches lie,
//! offline. Which tags make which class is decided here and only here (README: "Basemap").
//!
//! Only what lies in the area is drawn: a way's nodes that are in the area store (the nodes
//! the first read kept) give its lines, clipped to the area by leaving the other nodes out.
//! Relations (large multipolygon lakes or parks) are not drawn in the basemap.

use crate::format::block::{Block, Way};
use crate::error::DecodeError;
use crate::format::varint;

/// Areas up to this size (km²) get a basemap: a large city's centre. Past it, the ways to draw
/// would be too many to stay fluid on the map, and the read too long.
pub const CONTEXT_MAX_AREA_KM2: f64 = 100.0;

/// A basemap feature's class, as the page styles it (its numeric value is sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ContextClass {
    /// `highway=motorway|trunk|primary|secondary|tertiary` and their `_link`s.
    MajorRoad = 0,
    /// Any other `highway` value on a way, except paths (below) and `construction`/`proposed`/`abandoned`.
    MinorRoad = 1,
    /// `highway=footway|cycleway|path|steps|track|bridleway|corridor`.
    Path = 2,
    /// `railway=rail|light_rail|subway|tram|narrow_gauge|monorail|funicular`.
    Railway = 3,
    /// `natural=water`, `waterway=riverbank|dock`, `landuse=reservoir|basin`.
    Water = 4,
    /// `waterway=river|stream|canal|drain|ditch`.
    Waterway = 5,
    /// `building=*` except `building=no`.
    Building = 6,
    /// Parks and other green: `leisure=park|garden|playground|pitch|golf_course|nature_reserve|dog_park`,
    /// `landuse=grass|forest|meadow|recreation_ground|village_green|cemetery|allotments|orchard`,
    /// `natural=wood|scrub|grassland|heath|wetland`.
    Green = 7,
    /// Every other `landuse` value.
    Landuse = 8,
}

impl ContextClass {
    /// Whether a closed way of this class is drawn as an area (filled), not a line.
    pub fn is_area(self) -> bool {
        matches!(self, ContextClass::Water | ContextClass::Building | ContextClass::Green | ContextClass::Landuse)
    }
}

/// The keys the classes look at, resolved once per block's string table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Other,
    Highway,
    Railway,
    Waterway,
    Natural,
    Building,
    Leisure,
    Landuse,
}

fn key_of(bytes: &[u8]) -> Key {
    match bytes {
        b"highway" => Key::Highway,
        b"railway" => Key::Railway,
        b"waterway" => Key::Waterway,
        b"natural" => Key::Natural,
        b"building" => Key::Building,
        b"leisure" => Key::Leisure,
        b"landuse" => Key::Landuse,
        _ => Key::Other,
    }
}

/// The class of one tag, if it makes one.
fn class_of(key: Key, value: &[u8]) -> Option<ContextClass> {
    use ContextClass::*;
    Some(match (key, value) {
        (Key::Highway, b"construction" | b"proposed" | b"abandoned" | b"razed") => return None,
        (Key::Highway, v) if is_major_road(v) => MajorRoad,
        (Key::Highway, b"footway" | b"cycleway" | b"path" | b"steps" | b"track" | b"bridleway" | b"corridor") => Path,
        (Key::Highway, _) => MinorRoad,
        (Key::Railway, b"rail" | b"light_rail" | b"subway" | b"tram" | b"narrow_gauge" | b"monorail" | b"funicular") => Railway,
        (Key::Natural, b"water") | (Key::Waterway, b"riverbank" | b"dock") | (Key::Landuse, b"reservoir" | b"basin") => Water,
        (Key::Waterway, b"river" | b"stream" | b"canal" | b"drain" | b"ditch") => Waterway,
        (Key::Building, b"no") => return None,
        (Key::Building, _) => Building,
        (Key::Leisure, b"park" | b"garden" | b"playground" | b"pitch" | b"golf_course" | b"nature_reserve" | b"dog_park")
        | (Key::Landuse, b"grass" | b"forest" | b"meadow" | b"recreation_ground" | b"village_green" | b"cemetery" | b"allotments" | b"orchard")
        | (Key::Natural, b"wood" | b"scrub" | b"grassland" | b"heath" | b"wetland") => Green,
        (Key::Landuse, _) => Landuse,
        _ => return None,
    })
}

fn is_major_road(value: &[u8]) -> bool {
    matches!(value.strip_suffix(b"_link").unwrap_or(value), b"motorway" | b"trunk" | b"primary" | b"secondary" | b"tertiary")
}

/// The class of a way from its tags: when several tags make one, the first of water, building,
/// green, landuse, waterway, road and railway wins (an area is drawn under the lines anyway).
#[cfg(test)]
pub fn classify<'a>(tags: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Option<ContextClass> {
    classify_keys(tags.map(|(k, v)| (key_of(k), v)))
}

fn classify_keys<'a>(tags: impl Iterator<Item = (Key, &'a [u8])>) -> Option<ContextClass> {
    use ContextClass::*;
    const PRIORITY: [ContextClass; 9] = [Water, Building, Green, Landuse, Waterway, MajorRoad, MinorRoad, Path, Railway];
    tags.filter(|(k, _)| *k != Key::Other)
        .filter_map(|(k, v)| class_of(k, v))
        .min_by_key(|c| PRIORITY.iter().position(|p| p == c))
}

/// The area's node locations, sorted by id (1e-7 degrees): what a basemap way is drawn from.
#[derive(Debug, Default)]
pub struct ContextNodes {
    ids: Vec<i64>,
    lats_e7: Vec<i32>,
    lons_e7: Vec<i32>,
}

impl ContextNodes {
    /// From parallel arrays; `ids` must ascend (they are checked, and sorted if they do not).
    pub fn new(ids: Vec<i64>, lats_e7: Vec<i32>, lons_e7: Vec<i32>) -> ContextNodes {
        let mut nodes = ContextNodes { ids, lats_e7, lons_e7 };
        if !nodes.ids.windows(2).all(|w| w[0] <= w[1]) {
            let mut order: Vec<usize> = (0..nodes.ids.len()).collect();
            order.sort_by_key(|&i| nodes.ids[i]);
            nodes = ContextNodes {
                ids: order.iter().map(|&i| nodes.ids[i]).collect(),
                lats_e7: order.iter().map(|&i| nodes.lats_e7[i]).collect(),
                lons_e7: order.iter().map(|&i| nodes.lons_e7[i]).collect(),
            };
        }
        nodes
    }

    /// How many locations are held.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The inverse of [`ContextNodes::columns`].
    pub fn from_columns(nodes: &[f64]) -> ContextNodes {
        let n = nodes.len() / 3;
        let column = |c: usize| nodes[c * n..(c + 1) * n].iter();
        ContextNodes::new(column(0).map(|&v| v as i64).collect(), column(1).map(|&v| v as i32).collect(), column(2).map(|&v| v as i32).collect())
    }

    /// `[ids…, lats_e7…, lons_e7…]` as numbers, for a decode worker.
    pub fn columns(&self) -> Vec<f64> {
        let ids = self.ids.iter().map(|&v| v as f64);
        ids.chain(self.lats_e7.iter().chain(&self.lons_e7).map(|&v| v as f64)).collect()
    }

    fn get(&self, id: i64) -> Option<[i32; 2]> {
        self.ids.binary_search(&id).ok().map(|i| [self.lons_e7[i], self.lats_e7[i]])
    }
}

/// Kind of a basemap feature in [`context_ways`]' output.
pub const LINE: i32 = 0;
/// A ring (first vertex repeated last), drawn filled.
pub const POLYGON: i32 = 1;

/// The basemap features of one `OSMData` block: every way with a [`ContextClass`] that has a
/// node in `nodes`, encoded as i32s `class, kind, n, then n × (lon_e7, lat_e7)` (1e-7 degrees)
/// per feature. A closed way of an area class becomes one [`POLYGON`] of its located nodes in
/// ring order (at least three); any other way becomes a [`LINE`] per run of two or more
/// consecutive located nodes.
///
/// Errors: [`DecodeError::Protobuf`], [`DecodeError::StringIndexOutOfRange`] for a tag index
/// past the string table, [`DecodeError::Inconsistent`] when keys and vals differ in length,
/// and the varint errors of the refs.
pub fn context_ways(data: &[u8], nodes: &ContextNodes) -> Result<Vec<i32>, DecodeError> {
    let block = Block::read(data)?;
    let table = &block.strings;
    let keys: Vec<Key> = table.iter().map(|s| key_of(s)).collect();
    let string = |i: u32| -> Result<&[u8], DecodeError> {
        table.get(i as usize).copied().ok_or(DecodeError::StringIndexOutOfRange { index: i as u64, table_len: table.len() })
    };
    let mut out = Vec::new();
    let mut located: Vec<Option<[i32; 2]>> = Vec::new();
    let (mut way_keys, mut way_vals) = (Vec::new(), Vec::new());
    for msg in block.groups.iter().flat_map(|g| &g.ways) {
        let way = Way::read(msg)?;
        way.element.tags_into(&mut way_keys, &mut way_vals)?;
        let mut tags = Vec::new();
        for (&k, &v) in way_keys.iter().zip(&way_vals) {
            let key = *keys.get(k as usize).ok_or(DecodeError::StringIndexOutOfRange { index: k as u64, table_len: table.len() })?;
            if key != Key::Other {
                tags.push((key, string(v)?));
            }
        }
        let Some(class) = classify_keys(tags.into_iter()) else { continue };
        let refs = varint::deltas(&way.refs.bytes(), "Way refs")?;
        located.clear();
        located.extend(refs.iter().map(|&r| nodes.get(r)));
        let closed = refs.len() > 3 && refs.first() == refs.last();
        if class.is_area() && closed {
            let ring: Vec<[i32; 2]> = located[..located.len() - 1].iter().flatten().copied().collect();
            if ring.len() >= 3 {
                push_feature(&mut out, class, POLYGON, ring.len() + 1, ring.iter().chain(ring.first()));
            }
            continue;
        }
        for run in located.split(|l| l.is_none()).filter(|run| run.len() >= 2) {
            push_feature(&mut out, class, LINE, run.len(), run.iter().flatten());
        }
    }
    Ok(out)
}

fn push_feature<'a>(out: &mut Vec<i32>, class: ContextClass, kind: i32, n: usize, vertices: impl Iterator<Item = &'a [i32; 2]>) {
    out.extend([class as i32, kind, n as i32]);
    out.extend(vertices.flatten());
}

#[cfg(test)]
mod tests {
    use super::*;
    use ContextClass::*;

    fn class(tags: &[(&str, &str)]) -> Option<ContextClass> {
        classify(tags.iter().map(|(k, v)| (k.as_bytes(), v.as_bytes())))
    }

    #[test]
    fn classes_follow_the_documented_tags() {
        assert_eq!(class(&[("highway", "primary_link")]), Some(MajorRoad));
        assert_eq!(class(&[("highway", "residential")]), Some(MinorRoad));
        assert_eq!(class(&[("highway", "cycleway")]), Some(Path));
        assert_eq!(class(&[("highway", "construction")]), None);
        assert_eq!(class(&[("railway", "tram")]), Some(Railway));
        assert_eq!(class(&[("railway", "abandoned")]), None);
        assert_eq!(class(&[("natural", "water")]), Some(Water));
        assert_eq!(class(&[("waterway", "stream")]), Some(Waterway));
        assert_eq!(class(&[("building", "no")]), None);
        assert_eq!(class(&[("building", "yes"), ("highway", "service")]), Some(Building));
        assert_eq!(class(&[("leisure", "park"), ("landuse", "residential")]), Some(Green));
        assert_eq!(class(&[("landuse", "industrial")]), Some(Landuse));
        assert_eq!(class(&[("amenity", "cafe")]), None);
    }

    #[test]
    fn areas_keep_their_located_ring_and_lines_split_at_missing_nodes() {
        use crate::testing::encode::{primitive_block, WaySpec};
        use prost::Message;
        let nodes = ContextNodes::new(vec![1, 2, 3, 5, 6], vec![10, 20, 30, 50, 60], vec![1, 2, 3, 5, 6]);
        let way = |id, refs, tags| WaySpec { id, refs, tags };
        let block = primitive_block(
            &[],
            &[
                way(7, &[1, 2, 3, 4, 1], &[("building", "yes")]),
                way(8, &[1, 2, 4, 5, 6], &[("highway", "service")]),
                way(9, &[4, 5], &[("highway", "service")]),
                way(10, &[1, 2], &[("shop", "bakery")]),
            ],
        )
        .encode_to_vec();
        let out = context_ways(&block, &nodes).unwrap();
        assert_eq!(
            out,
            vec![
                Building as i32, POLYGON, 4, 1, 10, 2, 20, 3, 30, 1, 10, // the ring without node 4, closed again
                MinorRoad as i32, LINE, 2, 1, 10, 2, 20, // runs either side of node 4
                MinorRoad as i32, LINE, 2, 5, 50, 6, 60,
            ]
        );
    }
}
