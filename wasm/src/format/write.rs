//! Writing the PBF format (spec: OSM wiki, "PBF Format", "File format"): packed protobuf
//! arrays, zlib Blobs and frames. Used by `optimize` (crate::layout) and by the test writers.

use prost::bytes::Bytes;
use prost::Message;

use crate::format::proto::{self, blob::Data};

/// Encodes values as a packed varint array (the bytes of a packed repeated field).
pub fn packed_varints(values: impl IntoIterator<Item = u64>) -> Bytes {
    let mut out = Vec::new();
    for mut v in values {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    Bytes::from(out)
}

/// Encodes values as a packed, delta-coded sint64 array (DenseNodes ids, Way refs, …).
pub fn packed_deltas(values: &[i64]) -> Bytes {
    let mut prev = 0i64;
    packed_varints(values.iter().map(|&v| {
        let d = v.wrapping_sub(prev);
        prev = v;
        ((d << 1) ^ (d >> 63)) as u64 // zigzag
    }))
}

/// A Blob holding `data` zlib-compressed (zlib-rs, level 6), with its true `raw_size`.
pub fn zlib_blob(data: &[u8]) -> proto::Blob {
    let mut out = vec![0u8; zlib_rs::compress_bound(data.len())];
    let (z, _) = zlib_rs::compress_slice(&mut out, data, zlib_rs::DeflateConfig::default());
    proto::Blob { raw_size: Some(data.len() as i32), data: Some(Data::ZlibData(Bytes::copy_from_slice(z))) }
}

/// One frame: 4-byte big-endian BlobHeader length, the BlobHeader (`kind`: "OSMHeader" or
/// "OSMData"), the Blob.
pub fn frame(kind: &str, blob: &proto::Blob) -> Vec<u8> {
    let blob = blob.encode_to_vec();
    let header = proto::BlobHeader { r#type: kind.into(), indexdata: None, datasize: blob.len() as i32 }.encode_to_vec();
    let mut out = (header.len() as u32).to_be_bytes().to_vec();
    out.extend(header);
    out.extend(blob);
    out
}
