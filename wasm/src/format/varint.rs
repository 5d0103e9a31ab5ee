//! Packed varint arrays read in place (protobuf encoding: base-128 varints, zigzag for
//! sint64): the hot arrays of a PrimitiveBlock, as [`crate::format::block`] hands them over, walked
//! without allocating, or merely counted.

use crate::error::DecodeError;

/// A cursor over a packed varint array.
pub struct Varints<'a> {
    bytes: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Varints<'a> {
    /// `what` names the field in errors, e.g. `"DenseNodes id"`.
    pub fn new(bytes: &'a [u8], what: &'static str) -> Self {
        Varints { bytes, pos: 0, what }
    }

    /// Whether every value has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// Bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves to byte `pos` (at most the end), e.g. past a length-delimited field.
    #[inline]
    pub fn skip_to(&mut self, pos: usize) {
        self.pos = pos.min(self.bytes.len());
    }

    /// The next raw varint. Errors: [`DecodeError::Inconsistent`] when the array ends inside a
    /// varint, [`DecodeError::Overflow`] for a varint longer than 10 bytes.
    #[inline]
    pub fn next_u64(&mut self) -> Result<u64, DecodeError> {
        // A one-byte varint first, wherever it is; then, with four bytes left, up to four bytes
        // unrolled, with neither a bounds check nor the overflow check per byte: the DenseNodes
        // columns and the refs are varints of 1 to 4 bytes by the million, and a way's refs, its
        // keys and vals and the field keys near a message's end seldom have ten bytes left
        // (`docs/decisions.md`, "Varints"). What must hold: the unchecked path reads at most the
        // four bytes it checked are there, and a fifth byte goes to the checked loop.
        match self.bytes.get(self.pos) {
            Some(&b0) if b0 < 0x80 => {
                self.pos += 1;
                return Ok(u64::from(b0));
            }
            None => return self.next_u64_slow(),
            _ => {}
        }
        if let Some(&[b0, b1, b2, b3]) = self.bytes.get(self.pos..self.pos + 4) {
            let v = u64::from(b0 & 0x7f) | u64::from(b1 & 0x7f) << 7;
            if b1 < 0x80 {
                self.pos += 2;
                return Ok(v);
            }
            let v = v | u64::from(b2 & 0x7f) << 14;
            if b2 < 0x80 {
                self.pos += 3;
                return Ok(v);
            }
            if b3 < 0x80 {
                self.pos += 4;
                return Ok(v | u64::from(b3) << 21);
            }
        }
        self.next_u64_slow()
    }

    /// [`Self::next_u64`] a byte at a time, with every check.
    #[inline]
    fn next_u64_slow(&mut self) -> Result<u64, DecodeError> {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(DecodeError::Inconsistent("a packed array ends inside a varint"));
            };
            self.pos += 1;
            if shift == 63 && b > 1 {
                return Err(DecodeError::Overflow(self.what));
            }
            value |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// The next zigzag-coded sint64.
    #[inline]
    pub fn next_sint64(&mut self) -> Result<i64, DecodeError> {
        let n = self.next_u64()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }

    /// Reads the next sint64 as a delta and adds it to `acc` (the spec's delta coding).
    /// Errors as [`Self::next_u64`], and [`DecodeError::Overflow`] when the sum overflows.
    #[inline]
    pub fn next_delta(&mut self, acc: &mut i64) -> Result<i64, DecodeError> {
        let d = self.next_sint64()?;
        *acc = acc.checked_add(d).ok_or(DecodeError::Overflow(self.what))?;
        Ok(*acc)
    }
}

/// How many varints a packed array holds, without decoding them: one per byte < 0x80.
/// Errors: [`DecodeError::Inconsistent`] when the last varint is cut off.
pub fn count(bytes: &[u8]) -> Result<usize, DecodeError> {
    if bytes.last().is_some_and(|&b| b >= 0x80) {
        return Err(DecodeError::Inconsistent("a packed array ends inside a varint"));
    }
    // Eight bytes at a time: a way's refs are 14 bytes on average, too short for the
    // compiler's vector loop, which left them to a byte loop.
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        n += (!word & 0x8080_8080_8080_8080).count_ones() as usize;
    }
    Ok(n + words.remainder().iter().filter(|&&b| b < 0x80).count())
}

/// Calls `f` with each value of a packed delta-coded sint64 array, in one tight loop (the blob
/// index notes every way's refs), and returns how many there were. Sums wrap: an overflowing
/// array is malformed, and the reads that use its values check them ([`Varints::next_delta`]).
/// Errors as [`Varints::next_u64`].
#[inline]
pub fn for_each_delta(bytes: &[u8], what: &'static str, mut f: impl FnMut(i64)) -> Result<usize, DecodeError> {
    let (mut acc, mut n) = (0i64, 0usize);
    let mut v = Varints::new(bytes, what);
    while !v.is_empty() {
        let value = v.next_u64()?;
        acc = acc.wrapping_add((value >> 1) as i64 ^ -((value & 1) as i64));
        f(acc);
        n += 1;
    }
    Ok(n)
}

/// Decodes a whole packed delta-coded sint64 array (node refs, member ids).
pub fn deltas(bytes: &[u8], what: &'static str) -> Result<Vec<i64>, DecodeError> {
    let mut v = Varints::new(bytes, what);
    let mut out = Vec::with_capacity(count(bytes)?);
    let mut acc = 0i64;
    while !v.is_empty() {
        out.push(v.next_delta(&mut acc)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_varint_length_reads_back() {
        let values = [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 21, 1 << 35, (1 << 56) + 3, 1 << 63, u64::MAX];
        let bytes = crate::testing::encode::packed_varints(values.iter().copied().cycle().take(3 * values.len()));
        let mut v = Varints::new(&bytes, "t");
        let mut read = Vec::new();
        while !v.is_empty() {
            read.push(v.next_u64().unwrap());
        }
        assert_eq!(read, values.repeat(3));
        for end in 0..=bytes.len() {
            let whole = bytes[..end].last().is_none_or(|&b| b < 0x80);
            let expected = bytes[..end].iter().filter(|&&b| b < 0x80).count();
            assert_eq!(count(&bytes[..end]).ok(), whole.then_some(expected), "the first {end} bytes");
        }
        // An 11th byte is an overflow, with more bytes after it or none; a cut varint is an error.
        let mut long = vec![0xFF; 10];
        long.extend([0x01; 12]);
        assert_eq!(Varints::new(&long, "t").next_u64(), Err(DecodeError::Overflow("t")));
        assert_eq!(Varints::new(&long[..11], "t").next_u64(), Err(DecodeError::Overflow("t")));
        let ten = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x00];
        assert_eq!(Varints::new(&ten, "t").next_u64(), Err(DecodeError::Overflow("t")), "a 10th byte over 1");
        assert!(matches!(Varints::new(&[0x80, 0x80], "t").next_u64(), Err(DecodeError::Inconsistent(_))));
    }

    #[test]
    fn reads_zigzag_deltas_and_counts() {
        // zigzag: 0→0, -1→1, 1→2, 150→300 (0xAC 0x02)
        let bytes = [0x00, 0x01, 0x02, 0xAC, 0x02];
        assert_eq!(count(&bytes).unwrap(), 4);
        assert_eq!(deltas(&bytes, "t").unwrap(), vec![0, -1, 0, 150]);
        assert!(count(&[0x80]).is_err());
        assert!(deltas(&[0x80], "t").is_err());
        let too_long = [0xFF; 11];
        assert!(Varints::new(&too_long, "t").next_u64().is_err());
        let overflow = [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x02]; // i64::MAX then +1
        assert!(deltas(&overflow, "t").is_err());
        for bytes in [&bytes[..], &[0x80], &too_long] {
            let mut seen = Vec::new();
            let tight = for_each_delta(bytes, "t", |v| seen.push(v));
            match deltas(bytes, "t") {
                Ok(all) => assert_eq!((tight, seen), (Ok(all.len()), all)),
                Err(_) => assert!(tight.is_err()),
            }
        }
        // for_each_delta's sums wrap where deltas refuses.
        let mut seen = Vec::new();
        assert_eq!(for_each_delta(&overflow, "t", |v| seen.push(v)), Ok(2));
        assert_eq!(seen, vec![i64::MAX, i64::MIN]);
    }
}
