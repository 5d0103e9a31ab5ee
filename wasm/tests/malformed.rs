//! Malformed, unsupported and hostile input: every case gives its own clear error (or, for
//! hostile text, is decoded as plain text), and nothing panics.

use pbf_explorer::Area;
use pbf_explorer::DecodeError;
use pbf_explorer::testing::fixtures;
use pbf_explorer::Query;
use pbf_explorer::scan_file;

fn cafes_near_helsinki() -> Query {
    Query::from_tags("amenity=cafe", Area::Circle { lat: 60.1699, lon: 24.9384, radius: 1000.0 }).unwrap()
}

fn error_of(file: &[u8]) -> DecodeError {
    match scan_file(file, &cafes_near_helsinki()) {
        Err(e) => e,
        Ok(_) => panic!("expected an error"),
    }
}

#[test]
fn empty_and_truncated_files() {
    assert!(matches!(error_of(&[]), DecodeError::Inconsistent(_)));
    let good = fixtures::hostile();
    for cut in [2, 10, good.len() / 2, good.len() - 1] {
        assert!(matches!(error_of(&good[..cut]), DecodeError::Truncated { .. }), "cut at {cut}");
    }
}

#[test]
fn oversized_headers_and_blobs() {
    let mut big_header = fixtures::hostile();
    big_header[..4].copy_from_slice(&(70_000u32).to_be_bytes());
    assert!(matches!(error_of(&big_header), DecodeError::BlobHeaderTooLarge { length: 70_000, .. }));
    // BlobHeader { type: "OSMHeader", datasize: 40 MiB }
    let mut header = vec![0x0a, 9];
    header.extend(b"OSMHeader");
    header.extend([0x18, 0x80, 0x80, 0x80, 0x14]);
    let mut file = (header.len() as u32).to_be_bytes().to_vec();
    file.extend(header);
    assert!(matches!(error_of(&file), DecodeError::BlobTooLarge { datasize: 41_943_040, .. }));
}

#[test]
fn not_a_pbf() {
    let xml = b"<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\"></osm>";
    assert!(matches!(error_of(xml), DecodeError::BlobHeaderTooLarge { .. }));
}

#[test]
fn unsupported_features_and_compressions() {
    assert_eq!(error_of(&fixtures::unknown_feature()), DecodeError::UnsupportedFeature("Fancy-Future-Feature".into()));
    assert_eq!(error_of(&fixtures::lzma_blob()), DecodeError::UnsupportedCompression("lzma"));
}

#[test]
fn corrupt_and_hostile_blocks() {
    assert!(matches!(error_of(&fixtures::corrupt_zlib()), DecodeError::Inflate(_) | DecodeError::RawSizeMismatch { .. }));
    assert!(matches!(error_of(&fixtures::lying_raw_size()), DecodeError::RawSizeMismatch { .. }));
    assert!(matches!(error_of(&fixtures::corrupt_zstd()), DecodeError::Inflate(ref m) if m.starts_with("zstd:")), "{}", error_of(&fixtures::corrupt_zstd()));
    assert!(matches!(error_of(&fixtures::lying_lz4()), DecodeError::Inflate(_) | DecodeError::RawSizeMismatch { .. }), "{}", error_of(&fixtures::lying_lz4()));
    assert!(matches!(error_of(&fixtures::string_index_out_of_range()), DecodeError::StringIndexOutOfRange { index: 999, .. }));
    assert!(matches!(error_of(&fixtures::delta_overflow()), DecodeError::Overflow(_)));
}

#[test]
fn hostile_tag_values_are_decoded_as_plain_text() {
    let matches = scan_file(&fixtures::hostile(), &cafes_near_helsinki()).unwrap().matches;
    assert_eq!(matches.len(), 4);
    let names: Vec<&str> = matches.iter().flat_map(|m| m.tags.iter()).filter(|(k, _)| k == "name").map(|(_, v)| v.as_str()).collect();
    assert!(names.contains(&"<img src=x onerror=\"window.__pwned=1\">"));
    assert!(names.iter().any(|n| n.len() == 5000));
}

#[test]
fn every_error_reads_as_a_sentence() {
    for (name, bytes) in fixtures::all() {
        if let Err(e) = scan_file(&bytes, &cafes_near_helsinki()) {
            let text = e.to_string();
            assert!(text.len() > 20 && !text.contains("Error {"), "{name}: {text}");
        }
    }
}

#[test]
fn ids_near_the_ends_of_i64_do_not_panic() {
    // Found by the scan_file fuzz target: a node id near i64::MAX overflowed its map feature id
    // (`id × 4 + type`). No OSM id comes near; a hostile file's may, and must not panic. The
    // overflow panics only where overflow is checked (`cargo test` without --release, and the
    // fuzz build, which runs this input first: write_fuzz_seeds puts it in its corpus).
    let file = include_bytes!("inputs/node-id-near-i64-max.osm.pbf");
    let query = Query::from_tags("amenity", Area::Bbox { min_lon: -180.0, min_lat: -90.0, max_lon: 180.0, max_lat: 90.0 }).unwrap();
    let _ = scan_file(file, &query);
}

#[test]
fn an_index_page_past_any_file_is_refused() {
    // Found by the decode_index and read_optimized fuzz targets: a head naming a page at an
    // offset near u64::MAX overflowed when the head's length was added (a panic where overflow
    // is checked: `cargo test` without --release, and the fuzz build, whose corpus
    // write_fuzz_seeds gives this input). Fuzzing builds skip the head's checksum; here it is
    // written again, so the input reaches the decoder in any build. It also holds an entry of
    // no compression (the next test), refused first now; the refusal of the page itself, which a
    // release build would otherwise wrap silently, is `index::pages`'s own test.
    let mut index = include_bytes!("inputs/index-page-offset-overflow.idx").to_vec();
    let head_len = u32::from_le_bytes(index[12..16].try_into().unwrap()) as usize;
    let sum = twox_hash::XxHash64::oneshot(0, &index[..head_len - 8]);
    index[head_len - 8..head_len].copy_from_slice(&sum.to_le_bytes());
    let refused = pbf_explorer::BlobIndex::decode(&index).unwrap_err().to_string();
    assert!(refused.contains("the blob index is corrupt"), "{refused}");
    let query = Query::from_tags("amenity", Area::Everywhere).unwrap().prepare().unwrap();
    assert!(pbf_explorer::scan_file_paged(include_bytes!("inputs/node-id-near-i64-max.osm.pbf"), &query, &index).is_err());
}

#[test]
fn an_index_entry_naming_no_compression_is_refused() {
    // Found by the read_optimized fuzz target: an entry whose compression byte names none of the
    // format's (255) indexed the list of names out of bounds when the file facts were made (a
    // panic, a trap in the page's worker). Written here with true checksums, as a server's may be.
    let file = pbf_explorer::testing::fixtures::all().into_iter().find(|(name, _)| *name == "members-missing.osm.pbf").unwrap().1;
    let (grouped, index) = pbf_explorer::optimize(&file).unwrap();
    let mut hostile = pbf_explorer::BlobIndex::decode(&index).unwrap();
    hostile.entries[0].summary.compression = 255;
    let hostile = hostile.encode();
    let refused = pbf_explorer::BlobIndex::decode(&hostile).unwrap_err().to_string();
    assert!(refused.contains("compression is none of the format's"), "{refused}");
    let query = Query::from_tags("amenity", Area::Everywhere).unwrap().prepare().unwrap();
    assert!(pbf_explorer::scan_file_paged(&grouped, &query, &hostile).is_err());
}
