//! The `OSMHeader` frame (spec: "Definition of the OSMHeader fileblock"): bbox and feature
//! lists, checked so a file needing a feature this reader lacks is refused, not misread.

use prost::Message;
use serde::Serialize;

use crate::error::DecodeError;
use crate::format::proto;

/// Required features this reader implements. A `HistoricalInformation` file holds every version
/// of each element; queries answer it as of a moment (see [`crate::query::Query::at`]).
pub const SUPPORTED_FEATURES: [&str; 3] = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"];

/// The required feature of history files (spec: "HistoricalInformation").
pub const HISTORY_FEATURE: &str = "HistoricalInformation";

/// What the OSMHeader says about the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeaderInfo {
    /// `[minlon, minlat, maxlon, maxlat]` in degrees WGS84, if the header has a bbox.
    pub bbox: Option<[f64; 4]>,
    pub required_features: Vec<String>,
    pub optional_features: Vec<String>,
    pub writing_program: Option<String>,
    pub source: Option<String>,
    /// `osmosis_replication_timestamp`, seconds since the Unix epoch.
    pub replication_timestamp: Option<i64>,
    pub replication_sequence_number: Option<i64>,
    pub replication_base_url: Option<String>,
}

impl HeaderInfo {
    /// Whether the file is a history file (it requires [`HISTORY_FEATURE`]).
    pub fn is_history(&self) -> bool {
        self.required_features.iter().any(|f| f == HISTORY_FEATURE)
    }
}

/// Decodes the uncompressed data of an `OSMHeader` blob into a [`HeaderInfo`].
///
/// Errors: [`DecodeError::Protobuf`]; [`DecodeError::UnsupportedFeature`] for a required
/// feature not in [`SUPPORTED_FEATURES`].
pub fn decode_header(data: &[u8]) -> Result<HeaderInfo, DecodeError> {
    let block = proto::HeaderBlock::decode(data).map_err(|e| DecodeError::protobuf("HeaderBlock", e))?;
    if let Some(unknown) = block
        .required_features
        .iter()
        .find(|f| !SUPPORTED_FEATURES.contains(&f.as_str()))
    {
        return Err(DecodeError::UnsupportedFeature(unknown.clone()));
    }
    // HeaderBBox is in nanodegrees, with no granularity (spec: "HeaderBBox").
    let bbox = block.bbox.map(|b| {
        [b.left as f64 * 1e-9, b.bottom as f64 * 1e-9, b.right as f64 * 1e-9, b.top as f64 * 1e-9]
    });
    Ok(HeaderInfo {
        bbox,
        required_features: block.required_features,
        optional_features: block.optional_features,
        writing_program: block.writingprogram,
        source: block.source,
        replication_timestamp: block.osmosis_replication_timestamp,
        replication_sequence_number: block.osmosis_replication_sequence_number,
        replication_base_url: block.osmosis_replication_base_url,
    })
}
