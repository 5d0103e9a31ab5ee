//! A growable array kept in fixed-size chunks, so that growing never copies what it holds.

/// Values per chunk: 2^20.
const SHIFT: usize = 20;
const MASK: usize = (1 << SHIFT) - 1;

/// A column of `T` in chunks of 2^20 values. A `Vec` doubles and copies as it grows: for the
/// 35 million node ids of a planet-like file that needs half as much again as the ids, at once,
/// which a 32-bit Wasm memory (4 GiB) cannot spare.
#[derive(Debug)]
pub(crate) struct Column<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Column<T> {
    fn default() -> Self {
        Column { chunks: Vec::new(), len: 0 }
    }
}

impl<T: Copy> Column<T> {
    pub fn push(&mut self, value: T) {
        if self.len & MASK == 0 {
            self.chunks.push(Vec::with_capacity(1 << SHIFT));
        }
        self.chunks[self.len >> SHIFT].push(value);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The value at `i`. Panics past the end.
    #[inline]
    pub fn get(&self, i: usize) -> T {
        self.chunks[i >> SHIFT][i & MASK]
    }

    /// The values from `from` up to `to` (exclusive), in order.
    pub fn range(&self, from: usize, to: usize) -> impl Iterator<Item = T> + '_ {
        (from..to).map(move |i| self.get(i))
    }

    /// Every value, in order.
    #[cfg(any(test, feature = "testing"))]
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

impl<T: Copy + Ord> Column<T> {
    /// The position of the first value not less than `value`, the column being ascending.
    pub fn partition_point_lt(&self, value: T) -> usize {
        // The chunk that may hold it (by its first value), then within that chunk.
        let chunk = self.chunks.partition_point(|c| c[0] < value).saturating_sub(1);
        match self.chunks.get(chunk) {
            None => 0,
            Some(c) => (chunk << SHIFT) + c.partition_point(|&v| v < value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_holds_what_was_pushed_across_chunks_and_finds_by_value() {
        let mut c = Column::default();
        let n = (3 << SHIFT) + 17;
        (0..n as i64).for_each(|i| c.push(i * 2));
        assert_eq!(c.len(), n);
        assert_eq!(c.get(0), 0);
        assert_eq!(c.get(1 << SHIFT), (1 << SHIFT) as i64 * 2);
        assert_eq!(c.get(n - 1), (n as i64 - 1) * 2);
        assert_eq!(c.range(5, 8).collect::<Vec<_>>(), vec![10, 12, 14]);
        for probe in [0i64, 1, 2, (1 << SHIFT) * 2, (1 << SHIFT) * 2 + 1, (n as i64 - 1) * 2, n as i64 * 2] {
            let at = c.partition_point_lt(probe);
            assert_eq!(at, c.iter().position(|v| v >= probe).unwrap_or(n), "probe {probe}");
        }
        assert_eq!(Column::<i64>::default().partition_point_lt(5), 0);
    }
}
