//! Area copies (`docs/optimize.md`, "Area copies"): a copy made for the bbox around a query's
//! area answers every listed query of that area as the file does (matches, geometry, the
//! basemap), read whole and by its own index; on a planet-like file sorted by id it is a small
//! part of the file; a history file has none.

mod common;

use common::read;
use pbf_explorer::testing::planet_like::interleaved_copies;
use pbf_explorer::{copy_bbox, frames, scan_file_indexed, scan_file_prepared, Area, AreaCopier, BlobIndex, DecodeError, FileIdentity, Query};

/// The area copy of `file` for `bbox` (degrees), as the query worker makes it: the file's
/// frames pass after pass, then the copy's frames and its blob index.
fn area_copy(file: &[u8], bbox: [f64; 4]) -> Result<(Vec<u8>, Vec<u8>), DecodeError> {
    let mut copier = AreaCopier::new(bbox);
    loop {
        for frame in frames(file) {
            let frame = frame?;
            copier.add_frame(frame.kind, frame.blob)?;
        }
        if !copier.end_pass() {
            break;
        }
    }
    let mut layout = copier.finish()?;
    let mut out = Vec::new();
    while let Some(frame) = layout.next_frame()? {
        out.extend_from_slice(&frame);
    }
    Ok((out, layout.blob_index().expect("every frame is written")))
}

#[test]
fn every_listed_query_of_an_area_answers_on_its_copy_as_on_the_file() {
    let mut tried = 0;
    // Relations whose members reach far outside the copy (routes, the island's boundary).
    let valletta = Area::Circle { lat: 35.8989, lon: 14.5146, radius: 1000.0 };
    let mut all = Query::from_tags("type=route or type=multipolygon or type=boundary", valletta.clone()).unwrap();
    all.inside = pbf_explorer::Inside::All;
    let relations = [Query::from_tags("type=route or type=multipolygon or type=boundary", valletta).unwrap(), all];
    for (name, query) in common::every_listed_query().into_iter().chain(relations.map(|q| ("malta.osm.pbf".to_string(), q))) {
        if query.area == Area::Everywhere || name.contains("history") {
            continue;
        }
        let file = read(&name);
        let bbox = copy_bbox(query.area.prepare().unwrap().bounds());
        let (copy, index_bytes) = area_copy(&file, bbox).unwrap();
        let index = BlobIndex::decode(&index_bytes).unwrap().check(FileIdentity::of_file(&copy)).unwrap();
        let prepared = query.prepare().unwrap();
        let label = format!("{name} {} (copy {:.0} % of the file)", query.text, copy.len() as f64 * 100.0 / file.len() as f64);
        let before = scan_file_prepared(&file, &prepared).unwrap();
        for (how, after) in [("read whole", scan_file_prepared(&copy, &prepared).unwrap()), ("by its index", scan_file_indexed(&copy, &prepared, &index).unwrap())] {
            assert!(after.matches == before.matches, "{label}, {how}: {} matches, {} on the file", after.matches.len(), before.matches.len());
            assert!(after.shapes == before.shapes, "{label}, {how}: other shapes");
            assert!(common::basemap_features(&after.context) == common::basemap_features(&before.context), "{label}, {how}: another basemap");
        }
        tried += 1;
    }
    assert!(tried >= 20, "{tried} listed queries of an area");
}

/// On 16 copies of Malta with interleaved ids, a 1000 m query reads most of the file even by
/// its index; a second question reads a small part of the area copy, with the same answer.
#[test]
fn on_a_planet_like_file_a_second_question_reads_little_of_the_area_copy() {
    const COPIES: usize = 16;
    let malta = read("malta.osm.pbf");
    let planet_like = interleaved_copies(&malta, COPIES).unwrap();
    // Valletta in copy 5.
    let header = frames(&malta).next().unwrap().unwrap();
    let b = pbf_explorer::decode_header(&pbf_explorer::blob_data(header.blob).unwrap()).unwrap().bbox.unwrap();
    let (dlat, dlon) = pbf_explorer::testing::planet_like::copy_shift(5, COPIES, ((b[1] + b[3]) / 2.0, (b[0] + b[2]) / 2.0));
    let area = Area::Circle { lat: 35.8989 + dlat as f64 * 1e-7, lon: 14.5146 + dlon as f64 * 1e-7, radius: 1000.0 };
    let query = Query::from_tags("amenity=cafe or shop=bakery", area.clone()).unwrap();
    let (copy, index) = area_copy(&planet_like, copy_bbox(area.prepare().unwrap().bounds())).unwrap();
    let index = BlobIndex::decode(&index).unwrap();
    let prepared = query.prepare().unwrap();
    // A second question reads the copy by its index.
    let read = index.bytes_of(&index.plan(&prepared)) as f64 / planet_like.len() as f64;
    println!("the area copy is {} bytes; a second question reads {:.2} % of the {}-byte file's size of it", copy.len(), read * 100.0, planet_like.len());
    assert!(read < 0.05, "{:.1} % read", read * 100.0);
    let (before, after) = (scan_file_prepared(&planet_like, &prepared).unwrap(), scan_file_prepared(&copy, &prepared).unwrap());
    assert!(before.matches.len() > 20, "{} matches", before.matches.len());
    assert!(after.matches == before.matches && after.shapes == before.shapes, "another answer on the copy");
}

#[test]
fn a_history_file_has_no_area_copy() {
    let history = pbf_explorer::testing::fixtures::history();
    let err = area_copy(&history, [35.8, 14.4, 36.0, 14.6]).unwrap_err();
    assert!(err.to_string().contains("history"), "{err}");
}

/// A copy is a convenience beside the answer in the query worker's memory: an area whose
/// elements hold more tag text than `MAX_COPY_STRING_BYTES` (20 names of 30 MB) gets none, with
/// the reason, while a few MB of tag text are copied whole.
#[test]
fn an_area_of_hundreds_of_megabytes_of_tags_gets_no_copy() {
    let huge = pbf_explorer::testing::huge_tags::huge_tags();
    let helsinki = [60.16, 24.92, 60.18, 24.96];
    let err = area_copy(&huge, helsinki).unwrap_err();
    assert!(err.to_string().contains("over 256 MB of tag text"), "{err}");
    assert!(area_copy(&read("helsinki.osm.pbf"), helsinki).is_ok());
}
