//! Blob payloads (spec: "File format", message `Blob`): raw, zlib (RFC 1950), zstd (RFC 8878,
//! a Zstandard frame) or lz4 (a raw LZ4 block, as libosmium writes it, whose size is
//! `raw_size`) data, decompressed with a hard cap so a lying `raw_size` or a bomb cannot exhaust
//! memory: the output buffer is `raw_size` bytes at most 32 MiB, and a stream that would write
//! more is an error. zlib uses zune-inflate (whole-buffer inflate, safe Rust), measured faster
//! than zlib-rs and miniz_oxide on real blobs in wasm32 (see the README); zstd uses structured-zstd and lz4 lz4_flex (pure Rust, both build for
//! wasm32-unknown-unknown).

use prost::bytes::Bytes;
use prost::Message;

use crate::error::DecodeError;
use crate::format::frame::MAX_BLOB_SIZE;
use crate::format::proto::{self, blob::Data};

/// Decodes an encoded `Blob` message and returns its uncompressed data.
///
/// Shapes: `blob` is the Blob's bytes as framed in the file; the result is at most
/// 32 MiB ([`MAX_BLOB_SIZE`]).
/// Errors: [`DecodeError::Protobuf`], [`DecodeError::EmptyBlob`],
/// [`DecodeError::UnsupportedCompression`] for lzma and bzip2,
/// [`DecodeError::Inflate`] for a corrupt zlib, zstd or lz4 stream (or lz4 without `raw_size`), [`DecodeError::RawSizeMismatch`] when the
/// data inflates past the cap or to a size other than `raw_size`.
pub fn blob_data(blob: &[u8]) -> Result<Bytes, DecodeError> {
    blob_data_and_compression(blob).map(|(data, _)| data)
}

/// The compressions of `Blob.data`, by the index [`blob_data_and_compression`] gives.
pub const COMPRESSIONS: [&str; 6] = ["raw", "zlib", "lzma", "bzip2", "lz4", "zstd"];

/// Which compression (an index into [`COMPRESSIONS`]) a decoded Blob uses; None when empty.
fn compression_of(blob: &proto::Blob) -> Option<u8> {
    Some(match blob.data.as_ref()? {
        Data::Raw(_) => 0,
        Data::ZlibData(_) => 1,
        Data::LzmaData(_) => 2,
        Data::ObsoleteBzip2Data(_) => 3,
        Data::Lz4Data(_) => 4,
        Data::ZstdData(_) => 5,
    })
}

/// [`blob_data`], with the Blob's compression as an index into [`COMPRESSIONS`].
///
/// Errors: as [`blob_data`].
pub fn blob_data_and_compression(blob: &[u8]) -> Result<(Bytes, u8), DecodeError> {
    let blob = proto::Blob::decode(blob).map_err(|e| DecodeError::protobuf("Blob", e))?;
    let compression = compression_of(&blob).unwrap_or(0);
    decompress(blob).map(|data| (data, compression))
}

fn decompress(blob: proto::Blob) -> Result<Bytes, DecodeError> {
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
        Some(Data::Lz4Data(data)) => decompress_lz4(&data, declared).map(Bytes::from),
        Some(Data::ZstdData(data)) => decompress_zstd(&data, declared).map(Bytes::from),
        None => Err(DecodeError::EmptyBlob),
    }
}

/// Bench only: [`blob_data`]'s zlib path on the data of a Blob; returns the inflated size.
#[cfg(feature = "bench-inflate")]
pub fn blob_data_zlib_for_bench(data: &[u8], declared: Option<i32>) -> Result<usize, DecodeError> {
    inflate_zlib(data, declared).map(|v| v.len())
}

/// The output buffer for a blob that declares `declared` bytes: exactly that, when it is within
/// the cap and `possible` (the most this stream can expand to); else a mismatch error.
fn declared_output(declared: Option<i32>, possible: usize) -> Result<Vec<u8>, DecodeError> {
    match declared {
        Some(n) if n >= 0 && (n as u64) <= MAX_BLOB_SIZE && (n as usize) <= possible => Ok(vec![0u8; n as usize]),
        _ => Err(DecodeError::RawSizeMismatch { declared: declared.map_or(-1, i64::from), actual: 0 }),
    }
}

/// A raw LZ4 block (no frame header) of `declared` bytes. LZ4 expands at most 255-fold.
fn decompress_lz4(data: &[u8], declared: Option<i32>) -> Result<Vec<u8>, DecodeError> {
    if declared.is_none() {
        return Err(DecodeError::Inflate("lz4: the blob has no raw_size, which a raw LZ4 block needs".into()));
    }
    let mut out = declared_output(declared, data.len().saturating_mul(255).saturating_add(16))?;
    let n = lz4_flex::decompress_into(data, &mut out).map_err(|e| DecodeError::Inflate(format!("lz4: {e}")))?;
    if n != out.len() {
        return Err(DecodeError::RawSizeMismatch { declared: out.len() as i64, actual: n as u64 });
    }
    Ok(out)
}

/// A Zstandard frame of `declared` bytes (the cap when absent); its window may not exceed
/// the cap either (checked in its header first), so a header asking for a huge one allocates
/// nothing.
fn decompress_zstd(data: &[u8], declared: Option<i32>) -> Result<Vec<u8>, DecodeError> {
    if zstd_window_size(data).is_some_and(|w| w > MAX_BLOB_SIZE) {
        return Err(DecodeError::Inflate("zstd: the frame's window is larger than 32 MiB".into()));
    }
    let mut out = match declared {
        Some(_) => declared_output(declared, MAX_BLOB_SIZE as usize)?,
        None => vec![0u8; MAX_BLOB_SIZE as usize],
    };
    let mut decoder = structured_zstd::decoding::FrameDecoder::new();
    let n = match decoder.decode_all(data, &mut out) {
        Ok(n) => n,
        Err(structured_zstd::decoding::errors::FrameDecoderError::TargetTooSmall) => {
            return Err(DecodeError::RawSizeMismatch { declared: declared.map_or(-1, i64::from), actual: out.len() as u64 + 1 })
        }
        // The decoder's messages nest their causes' debug output: keep the first clause.
        Err(e) => return Err(DecodeError::Inflate(format!("zstd: {}", e.to_string().split(['(', ':']).next().unwrap_or_default().trim()))),
    };
    if declared.is_some() && n != out.len() {
        return Err(DecodeError::RawSizeMismatch { declared: out.len() as i64, actual: n as u64 });
    }
    out.truncate(n);
    Ok(out)
}

/// The window size in bytes a Zstandard frame's header asks for (RFC 8878 §3.1.1.1.2: the
/// Window_Descriptor, or with Single_Segment_flag the Frame_Content_Size), or None when the
/// header is too short to tell (the decoder then reports it).
fn zstd_window_size(frame: &[u8]) -> Option<u64> {
    let descriptor = *frame.get(4)?; // after the 4-byte magic number
    let single_segment = descriptor & 0x20 != 0;
    if !single_segment {
        let w = *frame.get(5)?;
        let base = 1u64 << (10 + (w >> 3));
        return Some(base + (base / 8) * u64::from(w & 7));
    }
    // Frame_Content_Size follows the Dictionary_ID (0, 1, 2 or 4 bytes).
    let dictionary_bytes = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let size_bytes = [1, 2, 4, 8][usize::from(descriptor >> 6)];
    let at = 5 + dictionary_bytes;
    let raw = frame.get(at..at + size_bytes)?;
    let value = raw.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    Some(if size_bytes == 2 { value + 256 } else { value })
}

fn inflate_zlib(data: &[u8], declared: Option<i32>) -> Result<Vec<u8>, DecodeError> {
    // Trust raw_size only as far as the cap: the output may not grow past raw_size bytes, so a
    // stream that inflates to more is detected (OutputLimitExceeded) without being produced.
    let mismatch = |actual: u64| DecodeError::RawSizeMismatch { declared: declared.map_or(-1, i64::from), actual };
    // Deflate cannot expand data more than 1032-fold, so a larger raw_size is a lie, refused
    // before anything is allocated for it.
    let possible = data.len().saturating_mul(1032).saturating_add(64);
    let size = match declared {
        Some(n) if n >= 0 && (n as u64) <= MAX_BLOB_SIZE && (n as usize) <= possible => n as usize,
        Some(_) => return Err(mismatch(0)),
        // No raw_size: expect 4× the compressed size (the output grows as needed, up to the cap).
        None => (data.len() * 4).clamp(64 << 10, (MAX_BLOB_SIZE as usize).min(possible.max(64 << 10))),
    };
    // The declared size is the limit (a stream that inflates to more stops there, as an error);
    // without one, the cap.
    let limit = if declared.is_some() { size } else { (MAX_BLOB_SIZE as usize).min(possible) };
    let options = zune_inflate::DeflateOptions::default().set_limit(limit).set_size_hint(size);
    match zune_inflate::DeflateDecoder::new_with_options(data, options).decode_zlib() {
        Ok(out) if declared.is_none() || out.len() == size => Ok(out),
        Ok(out) => Err(mismatch(out.len() as u64)),
        Err(e) => match e.error {
            zune_inflate::errors::DecodeErrorStatus::OutputLimitExceeded(..) => Err(mismatch(limit as u64 + 1)),
            other => Err(DecodeError::Inflate(format!("zlib: {other:?}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::proto::Blob;

    #[test]
    fn a_zstd_window_over_32_mib_is_refused_from_its_header() {
        let magic = [0x28, 0xb5, 0x2f, 0xfd];
        // Window_Descriptor: exponent 15, mantissa 0 → 2^25 = 32 MiB (allowed); exponent 16 → 64 MiB.
        assert_eq!(zstd_window_size(&[&magic[..], &[0x00, 15 << 3]].concat()), Some(32 << 20));
        assert_eq!(zstd_window_size(&[&magic[..], &[0x00, (15 << 3) | 1]].concat()), Some((32 << 20) + (4 << 20)));
        // Single segment, 4-byte Frame_Content_Size of 100 MB.
        let single = [&magic[..], &[0xa0], &100_000_000u32.to_le_bytes()].concat();
        assert_eq!(zstd_window_size(&single), Some(100_000_000));
        let big = Blob { raw_size: Some(1000), data: Some(Data::ZstdData(Bytes::from([&single[..], &[0u8; 16]].concat()))) };
        let err = blob_data(&big.encode_to_vec()).unwrap_err();
        assert_eq!(err, DecodeError::Inflate("zstd: the frame's window is larger than 32 MiB".into()));
        // What a real encoder writes passes.
        let data = vec![7u8; 100_000];
        let z = crate::testing::encode::blob_with(&data, crate::testing::encode::Compression::Zstd);
        assert_eq!(&blob_data(&z.encode_to_vec()).unwrap()[..], &data[..]);
    }

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
    fn reads_zstd_and_lz4_and_refuses_lies() {
        use crate::testing::encode::{blob_with, Compression};
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        for c in [Compression::Zstd, Compression::Lz4, Compression::Raw] {
            let blob = blob_with(&data, c);
            assert_eq!(blob_data(&blob.encode_to_vec()).unwrap(), data, "{c:?}");
            for lie in [Some(1000), Some(400_000), Some(i32::MAX), Some(-1)] {
                let lying = Blob { raw_size: lie, ..blob.clone() };
                if c != Compression::Raw {
                    assert!(blob_data(&lying.encode_to_vec()).is_err(), "{c:?} raw_size {lie:?}");
                }
            }
        }
        // zstd without raw_size is read up to the cap; lz4 needs it.
        let zstd = Blob { raw_size: None, ..blob_with(&data, Compression::Zstd) };
        assert_eq!(blob_data(&zstd.encode_to_vec()).unwrap(), data);
        let lz4 = Blob { raw_size: None, ..blob_with(&data, Compression::Lz4) };
        assert!(matches!(blob_data(&lz4.encode_to_vec()), Err(DecodeError::Inflate(_))));
        // Garbage is an error, never a panic.
        for bad in [Data::ZstdData(Bytes::from_static(b"\x28\xb5\x2f\xfd\xff\xff\xff")), Data::Lz4Data(Bytes::from_static(b"\xff\xff\xff"))] {
            assert!(blob_data(&Blob { raw_size: Some(100), data: Some(bad) }.encode_to_vec()).is_err());
        }
    }

    #[test]
    fn names_unsupported_compressions() {
        let lzma = Blob { raw_size: Some(1), data: Some(Data::LzmaData(Bytes::from_static(b"x"))) }.encode_to_vec();
        assert_eq!(blob_data(&lzma), Err(DecodeError::UnsupportedCompression("lzma")));
        assert_eq!(blob_data(&Blob { raw_size: None, data: None }.encode_to_vec()), Err(DecodeError::EmptyBlob));
    }
}
