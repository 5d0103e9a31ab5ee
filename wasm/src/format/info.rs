//! Element metadata (spec: "Metadata", messages `Info` and `DenseInfo`): version, timestamp,
//! changeset, user and, in history files, `visible`. Both messages are kept encoded in
//! `osmformat.proto` (a query rarely needs them) and are read here in place, column by column.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::format::block::{for_each_field, Field};
use crate::error::DecodeError;
use crate::format::varint::Varints;

/// One element version's metadata. `timestamp` in seconds since the Unix epoch (the stored
/// value × `date_granularity` ms); `user` is untrusted text. Absent fields are
/// `version` -1, `timestamp`/`changeset`/`uid` 0, `visible` true (spec: "visible … if absent,
/// true").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    pub version: i32,
    pub timestamp: i64,
    pub changeset: i64,
    pub uid: i32,
    pub user: String,
    pub visible: bool,
}

/// [`Meta`] with the user still a string-table index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawMeta {
    pub version: i32,
    pub timestamp: i64,
    pub changeset: i64,
    pub uid: i32,
    pub user_sid: u32,
    pub visible: bool,
}

impl Default for RawMeta {
    fn default() -> Self {
        RawMeta { version: -1, timestamp: 0, changeset: 0, uid: 0, user_sid: 0, visible: true }
    }
}

impl RawMeta {
    /// With the user's name looked up in the block's string table (lossy UTF-8; an index out
    /// of range gives an empty name: metadata never fails a query).
    pub fn resolve<B: AsRef<[u8]>>(&self, table: &[B]) -> Meta {
        let user = table.get(self.user_sid as usize).map(|s| String::from_utf8_lossy(s.as_ref()).into_owned()).unwrap_or_default();
        Meta { version: self.version, timestamp: self.timestamp, changeset: self.changeset, uid: self.uid, user, visible: self.visible }
    }
}

/// Seconds from a stored timestamp and the block's `date_granularity` (milliseconds).
#[inline]
fn seconds(stored: i64, date_granularity: i64) -> i64 {
    // The usual granularity (1000 ms) without a multiply and a division: both are 128-bit
    // libcalls in wasm32 (a saturating 64-bit multiply, a division by a constant).
    if date_granularity == 1000 {
        return stored;
    }
    stored.saturating_mul(date_granularity) / 1000
}

/// Decodes an encoded `Info` message (a node's, way's or relation's `info` field).
/// Errors: [`DecodeError::Protobuf`] for a malformed message.
pub fn decode_info(msg: &[u8], date_granularity: i64) -> Result<RawMeta, DecodeError> {
    let mut m = RawMeta::default();
    for_each_field(msg, "Info", |number, field| {
        if let Field::Varint(x, _) = field {
            match number {
                1 => m.version = x as i32,
                2 => m.timestamp = seconds(x as i64, date_granularity),
                3 => m.changeset = x as i64,
                4 => m.uid = x as i32,
                5 => m.user_sid = x as u32,
                6 => m.visible = x != 0,
                _ => {}
            }
        }
        Ok(())
    })?;
    Ok(m)
}

/// The newest timestamp (seconds) of an encoded `Info`, without decoding the rest; None
/// when it has none or is malformed. Writers put `version` (1) before `timestamp` (2), so the
/// read stops at the timestamp (a repeated one is not looked for: a file's newest timestamp is
/// all it serves); an `Info` with a field that is not a varint first is read in full.
pub fn info_timestamp(msg: &[u8], date_granularity: i64) -> Option<i64> {
    let mut v = Varints::new(msg, "Info");
    while !v.is_empty() {
        let key = v.next_u64().ok()?;
        if key & 7 != 0 {
            return info_timestamp_full(msg, date_granularity);
        }
        let value = v.next_u64().ok()?;
        if key >> 3 == 2 {
            return Some(seconds(value as i64, date_granularity));
        }
    }
    None
}

fn info_timestamp_full(msg: &[u8], date_granularity: i64) -> Option<i64> {
    let mut t = None;
    for_each_field(msg, "Info", |number, field| {
        if let (2, Field::Varint(x, _)) = (number, field) {
            t = Some(seconds(x as i64, date_granularity));
        }
        Ok(())
    })
    .ok()?;
    t
}

/// The newest timestamp (seconds) of an encoded `DenseInfo`: the largest running sum of its
/// delta-coded timestamp column, in one tight pass (sums wrap rather than fail: a hostile
/// column gives a wrong newest timestamp, never an error). None when the column is empty.
pub fn dense_newest_timestamp(msg: &[u8], date_granularity: i64) -> Option<i64> {
    // A packed column may come in several pieces: one array, read in turn.
    let mut pieces: Vec<&[u8]> = Vec::new();
    for_each_field(msg, "DenseInfo", |number, field| {
        if let (2, Field::Bytes(b) | Field::Varint(_, b)) = (number, field) {
            pieces.push(b);
        }
        Ok(())
    })
    .ok()?;
    // Without a branch per byte: each byte adds its 7 bits, and a varint's last byte (high
    // bit clear) adds the value to the sum and starts the next one through masks. Timestamps
    // are varints of 1 to 5 bytes in no order, whose ends a branch mispredicted at nearly every
    // node.
    let (mut acc, mut newest, mut value, mut shift) = (0i64, i64::MIN, 0u64, 0u32);
    for &b in pieces.iter().flat_map(|p| p.iter()) {
        value |= u64::from(b & 0x7f).wrapping_shl(shift);
        let end = u64::from(b >> 7).wrapping_sub(1); // all ones on a varint's last byte
        let delta = (value >> 1) as i64 ^ -((value & 1) as i64);
        acc = acc.wrapping_add(delta & end as i64);
        newest = newest.max(acc);
        value &= !end;
        shift = (shift + 7) & !(end as u32);
    }
    (newest > i64::MIN).then(|| seconds(newest, date_granularity))
}

/// The six packed columns of an encoded `DenseInfo`, read node by node in step with the
/// DenseNodes ids (spec: version and visible plain, the rest delta-coded; visible only in
/// history files). A column written in several pieces is one array (joined here).
pub struct DenseInfoColumns<'a> {
    /// version, timestamp, changeset, uid, user_sid, visible; and where each is read up to.
    columns: [Cow<'a, [u8]>; 6],
    at: [usize; 6],
    acc: RawMeta,
    /// The running sum of the timestamp column, in `date_granularity` units.
    acc_timestamp: i64,
    date_granularity: i64,
}

const COLUMN_NAMES: [&str; 6] = ["DenseInfo version", "DenseInfo timestamp", "DenseInfo changeset", "DenseInfo uid", "DenseInfo user_sid", "DenseInfo visible"];

impl<'a> DenseInfoColumns<'a> {
    /// Errors: [`DecodeError::Protobuf`] for a malformed message.
    pub fn new(msg: &'a [u8], date_granularity: i64) -> Result<Self, DecodeError> {
        let mut columns: [Cow<'a, [u8]>; 6] = Default::default();
        for_each_field(msg, "DenseInfo", |number, field| {
            // A column is packed, in one piece or several, or (unpacked) one varint per value.
            if let (1..=6, Field::Bytes(b) | Field::Varint(_, b)) = (number, field) {
                let column = &mut columns[number as usize - 1];
                if column.is_empty() {
                    *column = Cow::Borrowed(b);
                } else {
                    column.to_mut().extend_from_slice(b);
                }
            }
            Ok(())
        })?;
        Ok(DenseInfoColumns { columns, at: [0; 6], acc: RawMeta::default(), acc_timestamp: 0, date_granularity })
    }

    /// The next raw varint of column `c`, or None when it has ended.
    #[inline]
    fn next(&mut self, c: usize) -> Result<Option<u64>, DecodeError> {
        let mut v = Varints::new(&self.columns[c], COLUMN_NAMES[c]);
        v.skip_to(self.at[c]);
        if v.is_empty() {
            return Ok(None);
        }
        let x = v.next_u64()?;
        self.at[c] = v.position();
        Ok(Some(x))
    }

    /// The next node's metadata. A column shorter than the ids gives defaults from there on
    /// (writers may leave columns out). Errors: [`DecodeError::Overflow`] on a delta overflow.
    pub fn next_meta(&mut self) -> Result<RawMeta, DecodeError> {
        self.acc.version = self.next(0)?.map_or(-1, |x| x as i32);
        if let Some(d) = self.next(1)? {
            self.acc_timestamp = self.acc_timestamp.checked_add(zigzag64(d)).ok_or(DecodeError::Overflow("DenseInfo timestamp"))?;
            self.acc.timestamp = seconds(self.acc_timestamp, self.date_granularity);
        }
        if let Some(d) = self.next(2)? {
            self.acc.changeset = self.acc.changeset.checked_add(zigzag64(d)).ok_or(DecodeError::Overflow("DenseInfo changeset"))?;
        }
        if let Some(d) = self.next(3)? {
            self.acc.uid = self.acc.uid.wrapping_add(zigzag32(d));
        }
        if let Some(d) = self.next(4)? {
            self.acc.user_sid = (self.acc.user_sid as i32).wrapping_add(zigzag32(d)) as u32;
        }
        self.acc.visible = self.next(5)?.is_none_or(|x| x != 0);
        Ok(self.acc)
    }
}

/// A zigzag-coded sint64.
#[inline]
fn zigzag64(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

/// A zigzag-coded sint32.
#[inline]
fn zigzag32(n: u64) -> i32 {
    let n = n as u32;
    (n >> 1) as i32 ^ -((n & 1) as i32)
}

/// Where a version stands at the moment a history file is answered as of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionState {
    /// Newer than the moment, or replaced by a later version at or before it.
    NotCurrent,
    /// The version current at the moment.
    Current,
    /// The version current at the moment is a deletion (`visible` false).
    Deleted,
}

impl VersionState {
    /// The state of element `i` of a group: from `states` for a history file, always
    /// [`VersionState::Current`] for other files (`states` None).
    #[inline]
    pub fn of(states: &Option<Vec<VersionState>>, i: usize) -> VersionState {
        states.as_ref().map_or(VersionState::Current, |s| s[i])
    }
}

/// The states of a run of versions, and its first id when that supersedes (see [`version_states`]).
pub type VersionStates = (Vec<VersionState>, Option<i64>);

/// History files (spec: `HistoricalInformation`; the versions of an element follow each other,
/// oldest first): the state of each version of a run at `at` (seconds since the Unix epoch).
/// `versions[i]` is (id, timestamp in seconds, visible). A version is current when its
/// timestamp is at or before `at` and the next version of the same id here, if any, is newer.
/// Also returns the run's first id when a version of it here is at or before `at`: it replaces
/// whatever an earlier block holds of that id (its versions may straddle two blocks).
pub fn version_states(versions: &[(i64, i64, bool)], at: i64) -> VersionStates {
    let states = versions
        .iter()
        .enumerate()
        .map(|(i, &(id, t, visible))| {
            let replaced = versions.get(i + 1).is_some_and(|&(next, nt, _)| next == id && nt <= at);
            match (t <= at && !replaced, visible) {
                (false, _) => VersionState::NotCurrent,
                (true, true) => VersionState::Current,
                (true, false) => VersionState::Deleted,
            }
        })
        .collect();
    let first = versions.first().filter(|v| v.1 <= at).map(|v| v.0);
    (states, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use VersionState::*;

    #[test]
    fn the_version_current_at_a_moment_is_the_last_one_at_or_before_it() {
        // id 1: versions at 10, 20 (deleted), 30; id 2: one version at 25.
        let v = [(1, 10, true), (1, 20, false), (1, 30, true), (2, 25, true)];
        assert_eq!(version_states(&v, 5), (vec![NotCurrent, NotCurrent, NotCurrent, NotCurrent], None));
        assert_eq!(version_states(&v, 15), (vec![Current, NotCurrent, NotCurrent, NotCurrent], Some(1)));
        assert_eq!(version_states(&v, 20).0, vec![NotCurrent, Deleted, NotCurrent, NotCurrent]);
        assert_eq!(version_states(&v, i64::MAX).0, vec![NotCurrent, NotCurrent, Current, Current]);
    }

    #[test]
    fn an_info_timestamp_is_read_up_to_its_field_or_in_full() {
        use prost::Message;
        let info = crate::format::proto::Info { version: Some(3), timestamp: Some(1_700_000_000), changeset: Some(9), uid: Some(4), user_sid: Some(1), visible: Some(true) };
        let bytes = info.encode_to_vec();
        assert_eq!(info_timestamp(&bytes, 1000), Some(1_700_000_000));
        assert_eq!(info_timestamp(&bytes, 500), Some(850_000_000), "date_granularity in ms");
        // No timestamp; a length-delimited field first (an unknown one here) makes it read in full.
        let none = crate::format::proto::Info { timestamp: None, ..info }.encode_to_vec();
        assert_eq!(info_timestamp(&none, 1000), None);
        let mut odd = vec![(7 << 3) | 2, 2, b'x', b'y'];
        odd.extend_from_slice(&bytes);
        assert_eq!(info_timestamp(&odd, 1000), Some(1_700_000_000));
        assert_eq!(info_timestamp(&[0x10], 1000), None, "a truncated varint");
    }

    #[test]
    fn dense_info_columns_decode_deltas_and_the_newest_timestamp() {
        use prost::Message;
        let info = crate::format::proto::DenseInfo {
            version: vec![1, 2, 1],
            timestamp: vec![100, 50, -20], // deltas: 100, 150, 130
            changeset: vec![7, 1, 1],
            uid: vec![3, 0, 2],
            user_sid: vec![1, 0, 1],
            visible: vec![true, false, true],
        };
        let bytes = info.encode_to_vec();
        let mut c = DenseInfoColumns::new(&bytes, 1000).unwrap();
        let metas: Vec<RawMeta> = (0..3).map(|_| c.next_meta().unwrap()).collect();
        assert_eq!(metas.iter().map(|m| (m.version, m.timestamp, m.changeset, m.uid, m.user_sid, m.visible)).collect::<Vec<_>>(),
            vec![(1, 100, 7, 3, 1, true), (2, 150, 8, 3, 1, false), (1, 130, 9, 5, 2, true)]);
        assert_eq!(dense_newest_timestamp(&bytes, 1000), Some(150));
        assert_eq!(dense_newest_timestamp(&bytes, 500), Some(75));
        // Real timestamps: a 5-byte first value, then deltas of every length and sign; the
        // newest is the largest running sum, as the column reader sums it.
        let timestamp = vec![1_700_000_000, -3, 86_400_000, -1_000_000_000, 127, -64, 65, 900_000_000, -1];
        let n = timestamp.len();
        let info = crate::format::proto::DenseInfo { version: vec![1; n], timestamp, changeset: vec![0; n], uid: vec![0; n], user_sid: vec![0; n], visible: vec![] };
        let bytes = info.encode_to_vec();
        let mut c = DenseInfoColumns::new(&bytes, 1000).unwrap();
        let newest = (0..n).map(|_| c.next_meta().unwrap().timestamp).max();
        assert_eq!(newest, Some(1_700_000_000 - 3 + 86_400_000));
        assert_eq!(dense_newest_timestamp(&bytes, 1000), newest);
    }
}
