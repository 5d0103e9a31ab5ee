//! Blob payloads (spec: "File format", message `Blob`): raw or zlib (RFC 1950) data, inflated
//! with a hard cap so a lying `raw_size` or a zip bomb cannot exhaust memory.

use miniz_oxide::inflate::{decompress_to_vec_zlib_with_limit, TINFLStatus};
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
pub fn blob_data(blob: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let blob = proto::Blob::decode(blob).map_err(|e| DecodeError::protobuf("Blob", e))?;
    let declared = blob.raw_size;
    match blob.data {
        Some(Data::Raw(data)) => {
            if data.len() as u64 > MAX_BLOB_SIZE {
                return Err(DecodeError::RawSizeMismatch { declared: -1, actual: data.len() as u64 });
            }
            Ok(data)
        }
        Some(Data::ZlibData(data)) => inflate_zlib(&data, declared),
        Some(Data::LzmaData(_)) => Err(DecodeError::UnsupportedCompression("lzma")),
        Some(Data::ObsoleteBzip2Data(_)) => Err(DecodeError::UnsupportedCompression("bzip2")),
        Some(Data::Lz4Data(_)) => Err(DecodeError::UnsupportedCompression("lz4")),
        Some(Data::ZstdData(_)) => Err(DecodeError::UnsupportedCompression("zstd")),
        None => Err(DecodeError::EmptyBlob),
    }
}

fn inflate_zlib(data: &[u8], declared: Option<i32>) -> Result<Vec<u8>, DecodeError> {
    // Trust raw_size only as far as the cap: inflate at most min(raw_size, cap) + 1 bytes,
    // so a larger output is detected without being produced.
    let cap = match declared {
        Some(n) if n >= 0 && (n as u64) <= MAX_BLOB_SIZE => n as usize,
        Some(n) => return Err(DecodeError::RawSizeMismatch { declared: n as i64, actual: 0 }),
        None => MAX_BLOB_SIZE as usize,
    };
    match decompress_to_vec_zlib_with_limit(data, cap + 1) {
        Ok(out) => {
            if let Some(n) = declared {
                if out.len() != n as usize {
                    return Err(DecodeError::RawSizeMismatch { declared: n as i64, actual: out.len() as u64 });
                }
            }
            Ok(out)
        }
        Err(e) if e.status == TINFLStatus::HasMoreOutput => Err(DecodeError::RawSizeMismatch {
            declared: declared.map_or(-1, |n| n as i64),
            actual: e.output.len() as u64,
        }),
        Err(e) => Err(DecodeError::Inflate(format!("{:?}", e.status))),
    }
}
