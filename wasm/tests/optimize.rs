//! `optimize` (`docs/optimize.md`): the optimized file holds exactly the input's elements, tags
//! and metadata (osmium's counts, and the same OPL once `osmium sort` has put it in id order),
//! its blob index is its own, every listed query answers as on the original (read whole and
//! read by the index), and on a planet-like file an area's query reads a small part of it.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::read;
use pbf_explorer::testing::planet_like::interleaved_copies;
use pbf_explorer::{optimize, scan_file_indexed, scan_file_paged, scan_file_prepared, Area, BlobIndex, FileIdentity, PreparedQuery, Query};

/// A folder for the files osmium reads, under the crate's target folder.
fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/optimize-test");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs osmium; panics with its message when it fails or is missing.
fn osmium(args: &[&str]) -> Vec<u8> {
    let out = Command::new("osmium").args(args).output().unwrap_or_else(|e| panic!("osmium (Debian's osmium-tool, installed by scripts/setup.sh): {e}"));
    assert!(out.status.success(), "osmium {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Compares the OPL text osmium prints of two files line by line, without holding either.
fn same_opl(a: &Path, b: &Path) {
    let spawn = |p: &Path| Command::new("osmium").args(["cat", "-f", "opl"]).arg(p).stdout(Stdio::piped()).spawn().expect("osmium");
    let (mut pa, mut pb) = (spawn(a), spawn(b));
    let mut la = BufReader::with_capacity(1 << 20, pa.stdout.take().unwrap()).lines();
    let mut lb = BufReader::with_capacity(1 << 20, pb.stdout.take().unwrap()).lines();
    let mut n = 0u64;
    loop {
        match (la.next().map(Result::unwrap), lb.next().map(Result::unwrap)) {
            (None, None) => break,
            (x, y) => assert_eq!(x, y, "OPL line {n} of {} and {}", a.display(), b.display()),
        }
        n += 1;
    }
    assert!(pa.wait().unwrap().success() && pb.wait().unwrap().success());
    assert!(n > 0);
}

#[test]
fn every_shared_file_round_trips_element_for_element() {
    for name in ["helsinki.osm.pbf", "malta.osm.pbf", "malta-x20-synthetic.osm.pbf"] {
        let original = common::data_dir().join(name);
        let (file, index) = optimize(&read(name)).unwrap();
        let optimized = scratch().join(name);
        std::fs::write(&optimized, &file).unwrap();
        // Counts (and id ranges) as osmium sees them.
        let counts = |p: &Path| {
            let json: serde_json::Value = serde_json::from_slice(&osmium(&["fileinfo", "-e", "-j", p.to_str().unwrap()])).unwrap();
            (json["data"]["count"].clone(), json["data"]["minid"].clone(), json["data"]["maxid"].clone())
        };
        assert_eq!(counts(&optimized), counts(&original), "{name}: osmium fileinfo -e");
        let sorted = scratch().join(format!("sorted-{name}"));
        osmium(&["sort", "--overwrite", optimized.to_str().unwrap(), "-o", sorted.to_str().unwrap()]);
        same_opl(&sorted, &original);
        // The header no longer claims id order; the index is the file's own.
        let header = pbf_explorer::frames(&file).next().unwrap().unwrap();
        let header = pbf_explorer::decode_header(&pbf_explorer::blob_data(header.blob).unwrap()).unwrap();
        assert!(!header.optional_features.iter().any(|f| f == "Sort.Type_then_ID"), "{name}: {:?}", header.optional_features);
        assert!(BlobIndex::decode(&index).unwrap().check(FileIdentity::of_file(&file)).is_ok(), "{name}: the index is of the optimized file");
        std::fs::remove_file(&sorted).unwrap();
    }
}

#[test]
fn every_listed_query_answers_on_the_optimized_file_as_on_the_original() {
    let mut files = std::collections::HashMap::new();
    for (name, query) in common::every_listed_query() {
        let (original, optimized, index, index_bytes) = files.entry(name.clone()).or_insert_with(|| {
            let original = read(&name);
            let (optimized, index_bytes) = optimize(&original).unwrap();
            let index = BlobIndex::decode(&index_bytes).unwrap().check(FileIdentity::of_file(&optimized)).unwrap();
            (original, optimized, index, index_bytes)
        });
        let prepared = query.prepare().unwrap();
        let label = format!("{name} {}", query.text);
        let before = scan_file_prepared(original, &prepared).unwrap();
        let (paged, _) = scan_file_paged(optimized, &prepared, index_bytes).unwrap();
        for (how, after) in [("read whole", scan_file_prepared(optimized, &prepared).unwrap()), ("by its index", scan_file_indexed(optimized, &prepared, index).unwrap()), ("by its index's pages", paged)] {
            assert_eq!(after.matches, before.matches, "{label}, {how}: matches");
            assert_eq!(after.shapes, before.shapes, "{label}, {how}: shapes");
            assert_eq!(common::basemap_features(&after.context), common::basemap_features(&before.context), "{label}, {how}: basemap");
            assert_eq!(after.counts, before.counts, "{label}, {how}: counts");
            // A read by pages sees the entries of its pages only: it states no facts of the whole file.
            if how != "by its index's pages" {
                assert_eq!((&after.facts.id_ranges, &after.facts.newest_timestamp), (&before.facts.id_ranges, &before.facts.newest_timestamp), "{label}, {how}: file facts");
            }
        }
    }
}

/// 16 copies of Malta with interleaved ids: every node blob of the id-sorted file spans every
/// copy, so an area's query needs most of it; optimized, a small part, with the same answer
/// (Malta's own, each id i as i·16 + k for copy k).
#[test]
fn on_a_planet_like_file_an_areas_query_reads_a_small_part_of_the_optimized_file() {
    const COPIES: usize = 16;
    let planet_like = interleaved_copies(&read("malta.osm.pbf"), COPIES).unwrap();
    let (optimized, index_bytes) = optimize(&planet_like).unwrap();
    let index = BlobIndex::decode(&index_bytes).unwrap();
    let original_index = {
        let mut q = PreparedQuery::count_only();
        q.index = true;
        scan_file_prepared(&planet_like, &q).unwrap().index.unwrap()
    };
    let k = 5;
    let malta = read("malta.osm.pbf");
    let header = pbf_explorer::frames(&malta).next().unwrap().unwrap();
    let b = pbf_explorer::decode_header(&pbf_explorer::blob_data(header.blob).unwrap()).unwrap().bbox.unwrap();
    let (dlat, dlon) = pbf_explorer::testing::planet_like::copy_shift(k, COPIES, ((b[1] + b[3]) / 2.0, (b[0] + b[2]) / 2.0));
    let area = Area::Circle { lat: 35.8989 + dlat as f64 * 1e-7, lon: 14.5146 + dlon as f64 * 1e-7, radius: 1000.0 };
    let prepared = Query::from_tags("amenity=cafe", area.clone()).unwrap().prepare().unwrap();
    let part = |index: &BlobIndex, size: usize| index.bytes_of(&index.plan(&prepared)) as f64 / size as f64;
    let (before, after) = (part(&original_index, planet_like.len()), part(&index, optimized.len()));
    println!("amenity=cafe 1000 m reads {:.1} % of the id-sorted file, {:.1} % of the optimized one", before * 100.0, after * 100.0);
    assert!(before > 0.3, "the id-sorted file: {:.1} % read", before * 100.0);
    assert!(after < 0.05, "the optimized file: {:.1} % read", after * 100.0);
    let answer = scan_file_indexed(&optimized, &prepared, &index).unwrap();
    let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(common::data_dir().join("expected/malta.cafe-1000m.json")).unwrap()).unwrap();
    let mut ids: Vec<i64> = answer.matches.iter().map(|m| m.id).collect();
    let mut want: Vec<i64> = ["nodes", "ways"].iter().flat_map(|&kind| expected[kind].as_array().unwrap().iter().map(|v| v.as_i64().unwrap() * COPIES as i64 + k as i64)).collect();
    ids.sort_unstable();
    want.sort_unstable();
    assert_eq!(ids, want);
    // By the index's pages: the same answer, from a small part of the index.
    let (paged, fetched) = scan_file_paged(&optimized, &prepared, &index_bytes).unwrap();
    assert_eq!(paged.matches, answer.matches);
    assert_eq!(paged.shapes, answer.shapes);
    println!("it fetches {fetched} bytes of the {}-byte index", index_bytes.len());
    assert!((fetched as f64) < index_bytes.len() as f64 * 0.15, "{fetched} bytes of the {}-byte index fetched", index_bytes.len());
    // Relation blobs are read by where their members are: relations matched by member ways
    // and nodes there are all found, as by a whole read.
    let relations = Query::from_tags("type=multipolygon or type=route", area).unwrap().prepare().unwrap();
    let whole = scan_file_prepared(&optimized, &relations).unwrap();
    let (paged, _) = scan_file_paged(&optimized, &relations, &index_bytes).unwrap();
    let found = whole.matches.iter().filter(|m| m.element == pbf_explorer::ElementType::Relation).count();
    println!("{found} relations of type multipolygon or route within 1000 m");
    assert!(found > 3, "{found} relations");
    let ids = |scan: &pbf_explorer::FileScan| scan.matches.iter().map(|m| (m.element, m.id)).collect::<Vec<_>>();
    assert_eq!(ids(&paged), ids(&whole), "relations by the index's pages, and by a whole read");
    assert!(paged.matches == whole.matches && paged.shapes == whole.shapes);
}
