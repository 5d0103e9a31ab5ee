//! A way's node refs as the answer keeps them: each id's difference from the one before (the
//! first's from 0), zigzag-encoded, in LEB128 varints, the encoding of the PBF format's own
//! `Way.refs` (OSM wiki, PBF Format: "delta coded") minus protobuf's framing. A way's nodes are
//! mostly numbered close together, so a ref takes 1–3 bytes instead of 8: for an answer of
//! millions of ways this is the difference of hundreds of megabytes (`docs/decisions.md`).

/// Node ids, delta- and varint-encoded; see the module documentation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refs(Box<[u8]>);

impl Refs {
    /// The encoding of `ids`, in their order.
    pub fn new(ids: &[i64]) -> Refs {
        let mut out = Vec::with_capacity(ids.len() * 2);
        let mut last = 0i64;
        for &id in ids {
            let delta = id.wrapping_sub(last);
            last = id;
            let mut z = ((delta << 1) ^ (delta >> 63)) as u64;
            while z >= 0x80 {
                out.push(z as u8 | 0x80);
                z >>= 7;
            }
            out.push(z as u8);
        }
        Refs(out.into_boxed_slice())
    }

    /// The ids, in order.
    pub fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        let (mut at, mut last) = (0usize, 0i64);
        std::iter::from_fn(move || {
            let (mut z, mut shift) = (0u64, 0u32);
            loop {
                let byte = *self.0.get(at)?;
                at += 1;
                z |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte < 0x80 {
                    break;
                }
            }
            last = last.wrapping_add(((z >> 1) as i64) ^ -((z & 1) as i64));
            Some(last)
        })
    }

    /// The ids as a vector.
    pub fn to_vec(&self) -> Vec<i64> {
        let mut ids = Vec::with_capacity(self.len());
        ids.extend(self.iter());
        ids
    }

    /// How many ids there are (each varint ends with a byte below 0x80).
    pub fn len(&self) -> usize {
        self.0.iter().filter(|&&b| b < 0x80).count()
    }

    /// The first id, if any.
    pub fn first(&self) -> Option<i64> {
        self.iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_any_ids_in_few_bytes_when_close() {
        let ids = [5_000_000_000, 5_000_000_001, 5_000_000_003, 4_999_999_990, 5_000_000_000, -7, i64::MAX, i64::MIN, 0];
        let refs = Refs::new(&ids);
        assert_eq!((refs.to_vec(), refs.len(), refs.first()), (ids.to_vec(), ids.len(), Some(ids[0])));
        let close = Refs::new(&[1_000_000_000, 1_000_000_001, 1_000_000_002, 1_000_000_000]);
        assert_eq!(close.0.len(), 5 + 3, "the first in 5 bytes, then a byte a ref");
        assert!(Refs::new(&[]).len() == 0 && Refs::default().first().is_none());
    }
}
