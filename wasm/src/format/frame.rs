//! File framing (spec: "File format"): a 4-byte big-endian length, a `BlobHeader` of that
//! many bytes, then a `Blob` of `BlobHeader.datasize` bytes, repeated to the end of the file.

use prost::Message;

use crate::error::DecodeError;
use crate::format::proto;

/// The spec's hard cap on a BlobHeader, in bytes.
pub const MAX_BLOB_HEADER_SIZE: u64 = 64 * 1024;
/// The spec's hard cap on a Blob (and on its uncompressed data), in bytes.
pub const MAX_BLOB_SIZE: u64 = 32 * 1024 * 1024;

/// One frame of a file: its BlobHeader `type` and the bytes of its Blob.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    /// Byte offset of the frame's 4-byte length prefix in the file.
    pub offset: u64,
    /// `BlobHeader.type`: `"OSMHeader"`, `"OSMData"`, or an unknown type to skip.
    pub kind: &'a str,
    /// The encoded `Blob` message.
    pub blob: &'a [u8],
    /// Byte offset just past the frame.
    pub end: u64,
}

/// The frame starting at byte `offset` of `file`: its BlobHeader `type` and Blob bytes.
///
/// Errors: as [`frames`].
pub fn frame_at(file: &[u8], offset: u64) -> Result<(&str, &[u8]), DecodeError> {
    if offset >= file.len() as u64 {
        return Err(DecodeError::Truncated { offset, needed: 4, available: 0 });
    }
    let mut frames = Frames { file, pos: offset as usize, failed: false };
    let frame = frames.next_frame()?;
    Ok((frame.kind, frame.blob))
}

/// Decodes a `BlobHeader` and checks its `datasize` against the 32 MiB cap.
///
/// `offset` is the frame's byte offset, used in error messages only.
/// Errors: [`DecodeError::Protobuf`] for a corrupt message, [`DecodeError::BlobTooLarge`].
pub fn decode_blob_header(bytes: &[u8], offset: u64) -> Result<proto::BlobHeader, DecodeError> {
    let header = proto::BlobHeader::decode(bytes)
        .map_err(|e| DecodeError::protobuf("BlobHeader", e))?;
    if header.datasize < 0 || header.datasize as u64 > MAX_BLOB_SIZE {
        return Err(DecodeError::BlobTooLarge { offset, datasize: header.datasize as i64 });
    }
    Ok(header)
}

/// Iterates over the frames of a whole PBF file held in memory (native use: tests, benchmarks).
///
/// Yields `Err` once, at the first malformed or truncated frame, then stops.
pub fn frames(file: &[u8]) -> Frames<'_> {
    Frames { file, pos: 0, failed: false }
}

/// Iterator returned by [`frames`].
pub struct Frames<'a> {
    file: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> Frames<'a> {
    fn slice_at(&self, start: usize, len: u64, frame_offset: u64) -> Result<&'a [u8], DecodeError> {
        let available = (self.file.len() - start) as u64;
        if len > available {
            return Err(DecodeError::Truncated { offset: frame_offset, needed: len, available });
        }
        Ok(&self.file[start..start + len as usize])
    }

    fn next_frame(&mut self) -> Result<Frame<'a>, DecodeError> {
        let offset = self.pos as u64;
        let prefix = self.slice_at(self.pos, 4, offset)?;
        let header_len = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as u64;
        if header_len > MAX_BLOB_HEADER_SIZE {
            return Err(DecodeError::BlobHeaderTooLarge { offset, length: header_len });
        }
        let header_bytes = self.slice_at(self.pos + 4, header_len, offset)?;
        let header = decode_blob_header(header_bytes, offset)?;
        let blob_start = self.pos + 4 + header_len as usize;
        let blob = self.slice_at(blob_start, header.datasize as u64, offset)?;
        self.pos = blob_start + blob.len();
        // The type string lives in the decoded header; map the two known kinds to statics so
        // the frame can borrow from the file only.
        let kind = match header.r#type.as_str() {
            "OSMHeader" => "OSMHeader",
            "OSMData" => "OSMData",
            _ => "unknown",
        };
        Ok(Frame { offset, kind, blob, end: self.pos as u64 })
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.file.len() {
            return None;
        }
        let frame = self.next_frame();
        self.failed = frame.is_err();
        Some(frame)
    }
}
