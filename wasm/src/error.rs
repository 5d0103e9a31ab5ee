//! The one error type of the decoder: every way a PBF file can be malformed, unsupported or
//! hostile, each with a message a user can act on.

use std::fmt;

/// What went wrong while decoding. Offsets, where present, are byte offsets in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The 4-byte BlobHeader length exceeds the spec's 64 KiB cap (spec: "File format").
    BlobHeaderTooLarge { offset: u64, length: u64 },
    /// `BlobHeader.datasize` is negative or exceeds the spec's 32 MiB cap.
    BlobTooLarge { offset: u64, datasize: i64 },
    /// The file ends inside a frame.
    Truncated { offset: u64, needed: u64, available: u64 },
    /// A protobuf message could not be parsed.
    Protobuf { what: &'static str, detail: String },
    /// The Blob uses a compression this decoder does not implement.
    UnsupportedCompression(&'static str),
    /// The Blob has no data field at all.
    EmptyBlob,
    /// The zlib stream is corrupt, or inflates past the cap.
    Inflate(String),
    /// `raw_size` disagrees with the inflated length, or exceeds the 32 MiB cap.
    RawSizeMismatch { declared: i64, actual: u64 },
    /// The OSMHeader lists a required feature this decoder does not know.
    UnsupportedFeature(String),
    /// A string-table index points past the end of the table.
    StringIndexOutOfRange { index: u64, table_len: usize },
    /// A delta-coded or scaled value overflows 64 bits.
    Overflow(&'static str),
    /// Parallel arrays (ids/lats/lons, keys/vals, …) have different lengths, or
    /// `keys_vals` is not a sequence of pairs ended by 0.
    Inconsistent(&'static str),
    /// An invalid query (bad coordinates, radius, bbox or tag).
    Query(String),
    /// The query's area could not be made (a relation not in the file, not an area, or broken):
    /// nothing is read for the query.
    NoArea(String),
    /// A bound this reader keeps on what one task may cost was reached (the message says which).
    Limit(&'static str),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DecodeError::*;
        match self {
            BlobHeaderTooLarge { offset, length } => write!(
                f,
                "BlobHeader at byte {offset} claims {length} bytes; the PBF spec caps it at 64 KiB (not a PBF file, or corrupt)"
            ),
            BlobTooLarge { offset, datasize } => write!(
                f,
                "Blob datasize {datasize} exceeds the spec's 32 MiB cap (frame at byte {offset})"
            ),
            Truncated { offset, needed, available } => write!(
                f,
                "file truncated: the frame at byte {offset} needs {needed} more bytes but only {available} remain"
            ),
            Protobuf { what, detail } => write!(f, "corrupt {what}: {detail}"),
            UnsupportedCompression(kind) => write!(
                f,
                "unsupported compression {kind}: this decoder reads zlib and raw blobs (re-encode with `osmium cat in.osm.pbf -o out.osm.pbf`)"
            ),
            EmptyBlob => write!(f, "Blob holds no data"),
            Inflate(detail) => write!(f, "corrupt compressed data: {detail}"),
            RawSizeMismatch { declared, actual } => write!(
                f,
                "Blob raw_size says {declared} bytes but the data inflates to {actual} bytes (corrupt, or over the 32 MiB cap)"
            ),
            UnsupportedFeature(feature) => write!(
                f,
                "the file requires feature \"{feature}\", which this reader does not support"
            ),
            StringIndexOutOfRange { index, table_len } => write!(
                f,
                "string table index {index} out of range (table has {table_len} strings)"
            ),
            Overflow(what) => write!(f, "{what} overflows 64 bits (corrupt or hostile data)"),
            Inconsistent(what) => write!(f, "inconsistent block: {what}"),
            Query(detail) => write!(f, "invalid query: {detail}"),
            NoArea(why) => write!(f, "no area to read in: {why}"),
            Limit(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl DecodeError {
    pub(crate) fn protobuf(what: &'static str, err: prost::DecodeError) -> Self {
        DecodeError::Protobuf { what, detail: err.to_string() }
    }
}
