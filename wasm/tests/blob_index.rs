//! The blob index (`docs/blob-index.md`): built during a full read of each real file, it round
//! trips through its file format, refuses corrupt and stale bytes, and an indexed read gives
//! exactly the answer of a full read (matches, shapes, basemap, file facts) for every listed
//! query, while reading only part of the file when the query is local or rare.

mod common;

use pbf_explorer::Area;
use pbf_explorer::ElementType;
use pbf_explorer::{BlobIndex, FileIdentity, IndexError};
use pbf_explorer::{PreparedQuery, Query};
use pbf_explorer::{scan_file_indexed, scan_file_prepared};

use common::{data_dir, read};

/// The index a full read of `file` builds.
fn build(file: &[u8]) -> BlobIndex {
    let mut query = PreparedQuery::count_only();
    query.index = true;
    scan_file_prepared(file, &query).unwrap().index.expect("the scans noted an index")
}

#[test]
fn an_indexed_read_gives_the_full_reads_answer_for_every_listed_query() {
    let mut files = std::collections::HashMap::new();
    for (name, query) in common::every_listed_query() {
        let (file, index) = files.entry(name.clone()).or_insert_with(|| {
            let file = read(&name);
            let index = build(&file);
            (file, index)
        });
        let prepared = query.prepare().unwrap();
        let full = scan_file_prepared(file, &prepared).unwrap();
        let indexed = scan_file_indexed(file, &prepared, index).unwrap();
        let label = format!("{name} {}", query.text);
        assert!(!full.matches.is_empty() || query.text.contains("no-such"), "{label}: the query matches something");
        assert_eq!(indexed.matches, full.matches, "{label}: matches");
        assert_eq!(indexed.shapes, full.shapes, "{label}: shapes");
        assert_eq!(indexed.context, full.context, "{label}: basemap");
        assert_eq!(indexed.facts, full.facts, "{label}: file facts");
    }
}

/// `file` with its OSMData blobs in reverse order (the OSMHeader first): relations, then ways,
/// then nodes, each blob's ids descending from one to the next — an unsorted file.
fn reversed(file: &[u8]) -> Vec<u8> {
    let frames: Vec<_> = pbf_explorer::frames(file).map(|f| f.unwrap()).collect();
    let bytes = |f: &pbf_explorer::Frame| &file[f.offset as usize..f.end as usize];
    let (header, data): (Vec<_>, Vec<_>) = frames.iter().partition(|f| f.kind == "OSMHeader");
    header.into_iter().chain(data.into_iter().rev()).flat_map(bytes).copied().collect()
}

/// Ways before their nodes: the index built from such a file still places every way blob
/// (its cells come from node blobs read after it), and indexed reads answer as full ones,
/// holding only the ways that match once the area's nodes are in. The whole read drops ways
/// from its first blob of relations on, as if the file were sorted (its header, Malta's, even
/// says so), and scans those blobs again when the area's nodes come after all.
#[test]
fn an_unsorted_files_index_gives_the_full_reads_answers() {
    let file = reversed(&read("malta.osm.pbf"));
    let index = build(&file);
    let malta = Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    let mut skipped = 0;
    for (tags, area) in [("amenity=cafe", malta.clone()), ("highway=primary", malta.clone()), ("building", malta.clone()), ("leisure=park", Area::Everywhere), ("amenity=no-such-value", malta)] {
        let bounded = area != Area::Everywhere;
        let prepared = Query::from_tags(tags, area).unwrap().prepare().unwrap();
        let full = scan_file_prepared(&file, &prepared).unwrap();
        let indexed = scan_file_indexed(&file, &prepared, &index).unwrap();
        assert!(!full.matches.is_empty() || tags.contains("no-such"), "{tags}: the query matches something");
        assert_eq!((&indexed.matches, &indexed.shapes), (&full.matches, &full.shapes), "{tags}");
        if bounded {
            // The ways came before the nodes of the area: those that cannot match go once they are in.
            let ways = full.matches.iter().filter(|m| m.element == ElementType::Way).count();
            assert_eq!(indexed.ways_held, ways, "{tags}: ways the indexed read held");
        }
        skipped += index.entries.len() - index.plan(&prepared).entries.len();
    }
    assert!(skipped > 0, "the index skipped no blob of the unsorted file");
}

#[test]
fn a_local_or_rare_query_reads_a_small_part_of_the_file() {
    let file = read("malta-x20-synthetic.osm.pbf");
    let index = build(&file);
    let size = file.len() as f64;
    let part = |tags: &str, area: Area| index.bytes_of(&index.plan(&Query::from_tags(tags, area).unwrap().prepare().unwrap())) as f64 / size;
    let copy = Area::Circle { lat: 36.8989, lon: 15.7146, radius: 1000.0 };
    let near = part("amenity=cafe", copy.clone());
    assert!(near < 0.10, "amenity=cafe 1000 m reads {:.1} % of the file", near * 100.0);
    let rare = part("amenity=no-such-value", Area::Everywhere);
    assert!(rare < 0.10, "a value in no blob reads {:.1} %", rare * 100.0);
    assert!(part("building", Area::Everywhere) > 0.5, "a common tag everywhere reads most of it");
    let encoded = index.encode().len() as f64;
    assert!(encoded <= 0.01 * size, "the index is {:.2} % of the file", encoded / size * 100.0);
}

/// Memory follows the answer: once a read has every node of the area, a candidate way none of
/// whose nodes lies in it is dropped, not kept until the end of the read, and the scans no
/// longer carry it (the area filter, `area_filter.rs`). An indexed read knows
/// when from its plan; a whole read of this sorted file at its first blob of ways (`building`
/// near one copy of the 20: before, the indexed read held 101 806 ways, the whole read every
/// building way of the file).
#[test]
fn reads_keep_only_the_ways_that_can_match() {
    let file = read("malta-x20-synthetic.osm.pbf");
    let index = build(&file);
    let near = Area::Circle { lat: 36.8989, lon: 15.7146, radius: 1000.0 };
    for tags in ["building", "highway"] {
        let prepared = Query::from_tags(tags, near.clone()).unwrap().prepare().unwrap();
        let full = scan_file_prepared(&file, &prepared).unwrap();
        let indexed = scan_file_indexed(&file, &prepared, &index).unwrap();
        assert_eq!((&indexed.matches, &indexed.shapes), (&full.matches, &full.shapes), "{tags}");
        let ways = full.matches.iter().filter(|m| m.element == ElementType::Way).count();
        assert!(ways > 100, "{tags}: {ways} ways match");
        assert_eq!((full.ways_held, indexed.ways_held), (ways, ways), "{tags}: ways the whole and the indexed read held");
        // The scans leave out the rest once the area filter is given (false positives aside): the
        // indexed read's from its first blob of ways, the whole read's after it (measured: building
        // 889 and 585 for 559, highway 7 878 and 791 for 756; before, 101 806 by the index).
        assert!(indexed.ways_scanned <= ways + ways / 10, "{tags}: the indexed read's scans carried {} ways", indexed.ways_scanned);
        assert!(full.ways_scanned <= ways + ways / 10 + 8_000, "{tags}: the whole read's scans carried {} ways", full.ways_scanned);
    }
}

/// A look-alike of `real` (raw blobs: their sizes stay): the same size and bytes but in its
/// middle 400 KB, where each string "cafe" is written "cafX". It has `real`'s identity.
fn look_alike(real: &[u8]) -> Vec<u8> {
    let mut fake = real.to_vec();
    let mid = fake.len() / 2;
    let at: Vec<usize> = (mid - 200_000..mid + 200_000).filter(|&i| fake[i - 1] == 4 && &fake[i..i + 4] == b"cafe").collect();
    assert!(!at.is_empty());
    at.iter().for_each(|&i| fake[i + 3] = b'X');
    assert_eq!(FileIdentity::of_file(&fake), FileIdentity::of_file(real));
    fake
}

/// A look-alike read by the real file's index (kept under the identity they share) is found out
/// at its first blob whose checksum differs from the index's: the read gives the index up and
/// starts again whole, answering for the file read, not the indexed one; so does the real
/// file read by the look-alike's index. Before the checksums, the look-alike answered with the
/// real file's cafés.
#[test]
fn a_look_alike_of_the_indexed_file_is_found_out_by_its_blob_checksums_and_read_whole() {
    let real = pbf_explorer::testing::encode::reencode(&read("malta.osm.pbf"), pbf_explorer::testing::encode::Compression::Raw).unwrap();
    let fake = look_alike(&real);
    let query = Query::from_tags("amenity=cafe", Area::Everywhere).unwrap().prepare().unwrap();
    for (file, other) in [(&fake, &real), (&real, &fake)] {
        let full = scan_file_prepared(file, &query).unwrap();
        let by_other = scan_file_indexed(file, &query, &build(other)).unwrap();
        let why = by_other.index_mismatch.expect("the index was given up");
        assert!(why.starts_with("the blob index does not match the file: blob "), "{why}");
        assert_eq!(by_other.matches, full.matches);
        assert_eq!(by_other.shapes, full.shapes);
        // The read whole noted the file's own index, which then holds.
        let own = by_other.index.expect("a new index");
        assert_eq!(own, build(file));
        assert_eq!(scan_file_indexed(file, &query, &own).unwrap().index_mismatch, None);
    }
    let count = |f: &[u8]| scan_file_prepared(f, &query).unwrap().matches.len();
    assert!(count(&fake) < count(&real));
}

#[test]
fn the_index_round_trips_and_refuses_corrupt_or_stale_bytes() {
    for name in ["helsinki.osm.pbf", "malta.osm.pbf"] {
        let file = read(name);
        let index = build(&file);
        assert_eq!(index.identity, FileIdentity::of_file(&file));
        assert_eq!(index.entries.len() as u64, scan_file_prepared(&file, &PreparedQuery::count_only()).unwrap().facts.blobs.values().sum::<u64>());
        let bytes = index.encode();
        assert_eq!(BlobIndex::decode(&bytes).unwrap(), index, "{name}: round trip");
        assert!(BlobIndex::decode(&bytes).unwrap().check(FileIdentity::of_file(&file)).is_ok());

        let corrupt = |b: &[u8]| matches!(BlobIndex::decode(b), Err(IndexError::Corrupt(_)));
        for at in [0, 9, 40, bytes.len() / 2, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert!(corrupt(&flipped), "{name}: byte {at} flipped");
        }
        assert!(corrupt(&bytes[..bytes.len() - 9]), "{name}: cut short");
        assert!(corrupt(b"PBFIDX\r\n"), "{name}: a bare magic");
        // The same file with one byte changed (past the first MiB, inside the last): stale.
        let mut changed = file.clone();
        let at = changed.len() - 100;
        changed[at] ^= 1;
        let stale = BlobIndex::decode(&bytes).unwrap().check(FileIdentity::of_file(&changed));
        assert_eq!(stale, Err(IndexError::Stale), "{name}: changed file");
    }
}

/// The cell at `cells.level` of a point (1e-7 degrees), as `Cells` numbers them.
fn cell_at(cells: &pbf_explorer::Cells, lat: i32, lon: i32) -> u32 {
    let top = pbf_explorer::Cells::cell_of(lat, lon);
    let shift = pbf_explorer::CELL_LEVEL - cells.level;
    let (x, y) = (top & ((1 << pbf_explorer::CELL_LEVEL) - 1), top >> pbf_explorer::CELL_LEVEL);
    ((y >> shift) << cells.level) | (x >> shift)
}

/// Whether a point, or one a hair (1e-7°) away in case the other reader rounds otherwise, is in `cells`.
fn covers(cells: &pbf_explorer::Cells, (lat, lon): (i32, i32)) -> bool {
    [(0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)].iter().any(|(a, b)| cells.ids.binary_search(&cell_at(cells, lat + a, lon + b)).is_ok())
}

/// Soundness, element by element, with another reader (the osmpbf crate): each node's location
/// lies in its blob's node bbox and cells, and each node of each way in its blob's way bbox and
/// cells — what skipping a blob relies on.
#[test]
fn every_node_and_every_way_node_is_where_the_index_says() {
    use osmpbf::{BlobDecode, BlobReader};
    for name in ["malta.osm.pbf", "helsinki.osm.pbf"] {
        let index = build(&read(name));
        let mut locations = std::collections::HashMap::new();
        let mut blocks = Vec::new();
        for blob in BlobReader::from_path(data_dir().join(name)).unwrap() {
            if let BlobDecode::OsmData(block) = blob.unwrap().decode().unwrap() {
                for group in block.groups() {
                    for n in group.dense_nodes() {
                        locations.insert(n.id(), (n.decimicro_lat(), n.decimicro_lon()));
                    }
                }
                blocks.push(block);
            }
        }
        assert_eq!(blocks.len(), index.entries.len(), "{name}: one entry per OSMData blob");
        let inside = |b: [i32; 4], (lat, lon): (i32, i32)| b[0] <= lat + 1 && lat - 1 <= b[2] && b[1] <= lon + 1 && lon - 1 <= b[3];
        let (mut nodes, mut way_nodes) = (0, 0);
        // The node bbox an index-building read notes is that of the nodes' cells: at most a
        // cell (at CELL_LEVEL) wider on each side than the nodes' own.
        let cell = [1_800_000_000 >> pbf_explorer::CELL_LEVEL, 3_600_000_000i64 >> pbf_explorer::CELL_LEVEL].map(|v| v as i32 + 1);
        for (block, entry) in blocks.iter().zip(&index.entries) {
            let mut exact = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
            for group in block.groups() {
                for n in group.dense_nodes() {
                    let at = locations[&n.id()];
                    assert!(inside(entry.summary.bbox_e7, at) && covers(&entry.node_cells, at), "{name}: node {} outside its blob's bbox or cells", n.id());
                    exact = [exact[0].min(at.0), exact[1].min(at.1), exact[2].max(at.0), exact[3].max(at.1)];
                    nodes += 1;
                }
                for w in group.ways() {
                    for r in w.refs() {
                        let Some(&at) = locations.get(&r) else { continue }; // not in the extract
                        assert!(inside(entry.summary.way_bbox_e7, at) && covers(&entry.way_cells, at), "{name}: node {r} of way {} outside its blob's way bbox or cells", w.id());
                        way_nodes += 1;
                    }
                }
            }
            if exact[0] <= exact[2] {
                let b = entry.summary.bbox_e7;
                let within = exact[0] - b[0] <= cell[0] && exact[1] - b[1] <= cell[1] && b[2] - exact[2] <= cell[0] && b[3] - exact[3] <= cell[1];
                assert!(within, "{name}: blob {}'s bbox {b:?} is more than a cell wider than its nodes' {exact:?}", entry.index);
            }
        }
        assert!(nodes > 10_000 && way_nodes > 10_000, "{name}: {nodes} nodes, {way_nodes} way nodes checked");
    }
}
