//! The synthetic file a new query worker answers a query on before a real file arrives
//! (`encode::warm_up_file`; the query is `WARM_UP_QUERY` in `workers/query-worker.ts`): a valid
//! PBF on which that query matches nodes of several blobs, so that every stage of a read runs.

use pbf_explorer::encode::warm_up_file;
use pbf_explorer::query::Query;
use pbf_explorer::scan_file;

#[test]
fn the_warm_up_query_matches_nodes_of_several_blobs() {
    let query = Query::from_json(r#"{"q":"amenity=cafe","area":{"circle":{"lat":0.005,"lon":0.015,"radius":1000}}}"#).unwrap();
    let scan = scan_file(&warm_up_file(), &query).unwrap();
    assert_eq!((scan.counts.nodes, scan.counts.ways), (32_000, 4_000));
    // Blob b holds the nodes of 0.01·b to 0.01·b + 0.018 degrees of longitude: the circle
    // (±0.009 degrees) meets blobs 0, 1 and 2.
    let blobs: std::collections::BTreeSet<i64> = scan.matches.iter().map(|m| (m.id - 1) / 24_000).collect();
    assert_eq!(blobs.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);
    assert!(scan.matches.len() > 200, "{} matches", scan.matches.len());
}
