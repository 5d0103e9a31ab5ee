//! Blob payloads (spec: "File format", message `Blob`): raw or zlib (RFC 1950) data, inflated
//! with a hard cap so a lying `raw_size` or a zip bomb cannot exhaust memory. Inflation uses
//! zlib-rs, measured faster than miniz_oxide on real blobs (native and wasm32; see the README).

use prost::bytes::Bytes;
use prost::Message;

use crate::error::DecodeError;
use crate::frame::MAX_BLOB_SIZE;
use crate::proto::{self, blob::Data};

/// Decodes an encoded `Blob` message and returns its uncompressed data.
///
/// Shapes: `blob` is the Blob's bytes as framed in the file; the result is at most
/// 32 MiB ([`MAX_BLOB_SIZE`]).
/// Errors: [`DecodeError::Protobuf`], [`DecodeError::EmptyBlob`],
/// [`DecodeError::UnsupportedCompression`] for lzma, bzip2, lz4 and zstd,
/// [`DecodeError::Inflate`] for a corrupt zlib stream, [`DecodeError::RawSizeMismatch`] when the
/// data inflates past the cap or to a size other than `raw_size`.
pub fn blob_data(blob: &[u8]) -> Result<Bytes, DecodeError> {
    let blob = proto::Blob::decode(blob).map_err(|e| DecodeError::protobuf("Blob", e))?;
    let declared = blob.raw_size;
    match blob.data {
        Some(Data::Raw(data)) => {
            if data.len() as u64 > MAX_BLOB_SIZE {
                return Err(DecodeError::RawSizeMismatch { declared: -1, actual: data.len() as u64 });
            }
            Ok(data)
        }
        Some(Data::ZlibData(data)) => inflate_zlib(&data, declared).map(Bytes::from),
        Some(Data::LzmaData(_)) => Err(DecodeError::UnsupportedCompression("lzma")),
        Some(Data::ObsoleteBzip2Data(_)) => Err(DecodeError::UnsupportedCompression("bzip2")),
        Some(Data::Lz4Data(_)) => Err(DecodeError::UnsupportedCompression("lz4")),
        Some(Data::ZstdData(_)) => Err(DecodeError::UnsupportedCompression("zstd")),
        None => Err(DecodeError::EmptyBlob),
    }
}

/// Bench only: [`blob_data`]'s zlib path on the data of a Blob; returns the inflated size.
#[cfg(feature = "bench-inflate")]
pub fn blob_data_zlib_for_bench(data: &[u8], declared: Option<i32>) -> Result<usize, DecodeError> {
    inflate_zlib(data, declared).map(|v| v.len())
}

fn inflate_zlib(data: &[u8], declared: Option<i32>) -> Result<Vec<u8>, DecodeError> {
    // Trust raw_size only as far as the cap: the output buffer is exactly raw_size bytes, so a
    // stream that inflates to more is detected (BufError) without being produced.
    let mismatch = |actual: u64| DecodeError::RawSizeMismatch { declared: declared.map_or(-1, i64::from), actual };
    // Deflate cannot expand data more than 1032-fold, so a larger raw_size is a lie, refused
    // before anything is allocated for it.
    let possible = data.len().saturating_mul(1032).saturating_add(64);
    let mut size = match declared {
        Some(n) if n >= 0 && (n as u64) <= MAX_BLOB_SIZE && (n as usize) <= possible => n as usize,
        Some(_) => return Err(mismatch(0)),
        // No raw_size: start at 4× the compressed size and double up to the cap.
        None => (data.len() * 4).clamp(64 << 10, (MAX_BLOB_SIZE as usize).min(possible.max(64 << 10))),
    };
    loop {
        let mut out = vec![0u8; size];
        let (inflated, code) = zlib_rs::decompress_slice(&mut out, data, zlib_rs::InflateConfig::default());
        let len = inflated.len();
        match code {
            zlib_rs::ReturnCode::Ok if declared.is_none() || len == size => {
                out.truncate(len);
                return Ok(out);
            }
            zlib_rs::ReturnCode::Ok => return Err(mismatch(len as u64)),
            zlib_rs::ReturnCode::BufError if declared.is_none() && size < (MAX_BLOB_SIZE as usize).min(possible) => {
                size = (size * 2).min(MAX_BLOB_SIZE as usize).min(possible);
            }
            zlib_rs::ReturnCode::BufError => return Err(mismatch(len as u64 + 1)),
            other => return Err(DecodeError::Inflate(format!("{other:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::Blob;

    fn zlib_blob(data: &[u8], raw_size: Option<i32>) -> Vec<u8> {
        let mut out = vec![0u8; zlib_rs::compress_bound(data.len())];
        let (z, _) = zlib_rs::compress_slice(&mut out, data, zlib_rs::DeflateConfig::default());
        Blob { raw_size, data: Some(Data::ZlibData(Bytes::copy_from_slice(z))) }.encode_to_vec()
    }

    #[test]
    fn inflates_zlib_with_and_without_raw_size() {
        let data = vec![7u8; 300_000];
        assert_eq!(blob_data(&zlib_blob(&data, Some(300_000))).unwrap(), data);
        assert_eq!(blob_data(&zlib_blob(&data, None)).unwrap(), data);
    }

    #[test]
    fn refuses_a_lying_raw_size_and_corrupt_data() {
        let data = vec![7u8; 1000];
        assert!(matches!(blob_data(&zlib_blob(&data, Some(10))), Err(DecodeError::RawSizeMismatch { .. })));
        assert!(matches!(blob_data(&zlib_blob(&data, Some(2000))), Err(DecodeError::RawSizeMismatch { .. })));
        assert!(matches!(blob_data(&zlib_blob(&data, Some(i32::MAX))), Err(DecodeError::RawSizeMismatch { .. })));
        let mut corrupt = zlib_blob(&data, Some(1000));
        let n = corrupt.len();
        corrupt[n - 6] ^= 0xff;
        assert!(blob_data(&corrupt).is_err());
    }

    #[test]
    fn names_unsupported_compressions() {
        let lz4 = Blob { raw_size: Some(1), data: Some(Data::Lz4Data(Bytes::from_static(b"x"))) }.encode_to_vec();
        assert_eq!(blob_data(&lz4), Err(DecodeError::UnsupportedCompression("lz4")));
        let zstd = Blob { raw_size: Some(1), data: Some(Data::ZstdData(Bytes::from_static(b"x"))) }.encode_to_vec();
        assert_eq!(blob_data(&zstd), Err(DecodeError::UnsupportedCompression("zstd")));
        assert_eq!(blob_data(&Blob { raw_size: None, data: None }.encode_to_vec()), Err(DecodeError::EmptyBlob));
    }
}
