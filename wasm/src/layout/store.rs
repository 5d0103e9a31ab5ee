//! Every element of a file held in memory, column by column, for `optimize` to write again in
//! another order. What grows with the input: about 49 bytes a node, 45 a way plus 8 a node
//! ref, 45 a relation plus 13 a member, 8 a tag, and each distinct string once.

use rustc_hash::FxHashMap;

use super::column::Column;
use crate::error::DecodeError;
use crate::format::block::{Block, Element};
use crate::format::info::{decode_info, DenseInfoColumns, RawMeta};
use crate::format::varint::{deltas, Varints};

/// Every distinct string of the file (keys, values, roles, user names) once, by number. Each
/// is held once: found again by its hash, with a map by bytes only for the rare string whose
/// hash an earlier one has (held as key and list entry, 40 names of 30 MB took 2.4 GB).
#[derive(Debug, Default)]
pub(crate) struct Strings {
    /// By the hash of its bytes: the number of the first string with that hash.
    ids: FxHashMap<u64, u32>,
    /// Strings whose hash an earlier, other string has: by their bytes.
    collided: FxHashMap<Box<[u8]>, u32>,
    pub list: Vec<Box<[u8]>>,
    /// Bytes of all the strings.
    pub bytes: usize,
}

impl Strings {
    fn intern(&mut self, s: &[u8]) -> u32 {
        let hash = {
            let mut h = rustc_hash::FxHasher::default();
            std::hash::Hasher::write(&mut h, s);
            std::hash::Hasher::finish(&h)
        };
        let first = self.ids.get(&hash).copied();
        match first {
            Some(id) if *self.list[id as usize] == *s => return id,
            Some(_) => {
                if let Some(&id) = self.collided.get(s) {
                    return id;
                }
            }
            None => {}
        }
        let id = self.list.len() as u32;
        self.list.push(s.into());
        self.bytes += s.len();
        if first.is_some() {
            self.collided.insert(s.into(), id);
        } else {
            self.ids.insert(hash, id);
        }
        id
    }
}

/// Metadata flags: the element carried an Info (or DenseInfo entry).
pub(crate) const HAS_META: u8 = 1;

/// What every element carries: id, metadata (spec: "Metadata") and tags as string numbers.
#[derive(Debug, Default)]
pub(crate) struct Common {
    pub id: Column<i64>,
    pub version: Column<i32>,
    /// Seconds since the Unix epoch.
    pub timestamp: Column<i64>,
    pub changeset: Column<i64>,
    pub uid: Column<i32>,
    pub user: Column<u32>,
    pub flags: Column<u8>,
    /// Where each element's tags start in `tags` (one more entry than elements).
    pub tags_start: Column<u32>,
    pub tags: Column<(u32, u32)>,
}

impl Common {
    fn push(&mut self, id: i64, meta: Option<RawMeta>, user: u32, tags: impl Iterator<Item = (u32, u32)>) -> Result<(), DecodeError> {
        let m = meta.unwrap_or(RawMeta { version: 0, ..RawMeta::default() });
        self.id.push(id);
        self.version.push(m.version);
        self.timestamp.push(m.timestamp);
        self.changeset.push(m.changeset);
        self.uid.push(m.uid);
        self.user.push(user);
        self.flags.push(if meta.is_some() { HAS_META } else { 0 });
        tags.for_each(|t| self.tags.push(t));
        let end = u32::try_from(self.tags.len()).map_err(|_| DecodeError::Inconsistent("more than 4 294 967 295 tags: too many to optimize in memory"))?;
        self.tags_start.push(end);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// Element `i`'s tags: (key, value) string numbers.
    pub fn tags_of(&self, i: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.tags.range(self.tags_start.get(i) as usize, self.tags_start.get(i + 1) as usize)
    }

    /// Element `i`'s metadata (with `user_sid` a string number), None when it had none.
    pub fn meta_of(&self, i: usize) -> Option<RawMeta> {
        (self.flags.get(i) & HAS_META != 0).then(|| RawMeta {
            version: self.version.get(i),
            timestamp: self.timestamp.get(i),
            changeset: self.changeset.get(i),
            uid: self.uid.get(i),
            user_sid: self.user.get(i),
            visible: true,
        })
    }
}

/// The file's elements, in the order read. Made by [`Elements::new`] only (its columns of
/// starts begin with a 0).
#[derive(Debug)]
pub(crate) struct Elements {
    pub strings: Strings,
    pub nodes: Common,
    /// Node locations in 1e-7 degrees.
    pub lat: Column<i32>,
    pub lon: Column<i32>,
    pub ways: Common,
    /// Where each way's refs start in `refs` (one more entry than ways).
    pub refs_start: Column<u64>,
    pub refs: Column<i64>,
    pub relations: Common,
    /// Where each relation's members start in `members` (one more entry than relations).
    pub members_start: Column<u64>,
    /// (type: 0 node, 1 way, 2 relation; id; role string number).
    pub members: Column<(u8, i64, u32)>,
    /// Whether the nodes came in ascending id order (else finding one by id sorts them first).
    pub nodes_ascending: bool,
}

/// A block's string numbers as a store's, each taken into the store on first use.
struct BlockStrings<'a> {
    block: &'a [&'a [u8]],
    /// By the block's number: the store's, or u32::MAX when not taken yet.
    ours: Vec<u32>,
}

impl BlockStrings<'_> {
    /// Errors: [`DecodeError::StringIndexOutOfRange`].
    fn string(&mut self, strings: &mut Strings, i: u32) -> Result<u32, DecodeError> {
        let slot = self.ours.get_mut(i as usize).ok_or(DecodeError::StringIndexOutOfRange { index: i as u64, table_len: self.block.len() })?;
        if *slot == u32::MAX {
            *slot = strings.intern(self.block[i as usize]);
        }
        Ok(*slot)
    }

    /// An element's tags (the block's numbers) and the user of its metadata, as the store's.
    fn take(&mut self, strings: &mut Strings, tags: &[(u32, u32)], meta: Option<RawMeta>) -> Result<(Vec<(u32, u32)>, u32), DecodeError> {
        let t = tags.iter().map(|&(k, v)| Ok((self.string(strings, k)?, self.string(strings, v)?))).collect::<Result<Vec<_>, DecodeError>>()?;
        Ok((t, meta.map_or(Ok(0), |m| self.string(strings, m.user_sid))?))
    }
}

/// [`Elements::add_block_where`]'s kinds of a block: it holds nodes, ways, relations.
pub(crate) const KINDS_NODES: u8 = 1;
pub(crate) const KINDS_WAYS: u8 = 2;
pub(crate) const KINDS_RELATIONS: u8 = 4;

/// Which elements of a block [`Elements::add_block_where`] adds: asked once an element's id and
/// place (coordinates in 1e-7 degrees, node refs, members as (type: 0 node, 1 way, 2 relation;
/// id)) are decoded, before its tags and metadata are taken.
pub(crate) trait Keep {
    fn node(&mut self, id: i64, lat_e7: i32, lon_e7: i32) -> bool;
    fn way(&mut self, id: i64, refs: &[i64]) -> bool;
    fn relation(&mut self, id: i64, members: &[(u8, i64)]) -> bool;
}

/// Keeps every element (`optimize`).
struct KeepAll;

impl Keep for KeepAll {
    fn node(&mut self, _: i64, _: i32, _: i32) -> bool {
        true
    }
    fn way(&mut self, _: i64, _: &[i64]) -> bool {
        true
    }
    fn relation(&mut self, _: i64, _: &[(u8, i64)]) -> bool {
        true
    }
}

impl Elements {
    pub fn new() -> Elements {
        // Each column of starts holds one more entry than elements: the first element's 0.
        let common = || {
            let mut c = Common::default();
            c.tags_start.push(0);
            c
        };
        let starts = || {
            let mut c = Column::default();
            c.push(0u64);
            c
        };
        Elements {
            strings: Strings::default(),
            nodes: common(),
            lat: Column::default(),
            lon: Column::default(),
            ways: common(),
            refs_start: starts(),
            refs: Column::default(),
            relations: common(),
            members_start: starts(),
            members: Column::default(),
            nodes_ascending: true,
        }
    }

    /// Adds every element of an uncompressed PrimitiveBlock. Errors: those of decoding it; a
    /// string index out of its table; a coordinate not on the 1e-7 degree grid (a granularity
    /// or offset finer than the usual 100 nanodegrees, which no known writer uses).
    pub fn add_block(&mut self, data: &[u8]) -> Result<(), DecodeError> {
        self.add_block_where(data, &mut KeepAll).map(|_| ())
    }

    /// Adds the elements of an uncompressed PrimitiveBlock that `keep` keeps, and returns the
    /// kinds the block holds ([`KINDS_NODES`], [`KINDS_WAYS`], [`KINDS_RELATIONS`]). Strings
    /// are taken into the store only when a kept element uses them. Errors: as
    /// [`Elements::add_block`]; a string index is checked where a kept element uses it.
    pub fn add_block_where(&mut self, data: &[u8], keep: &mut impl Keep) -> Result<u8, DecodeError> {
        let block = Block::read(data)?;
        let mut table = BlockStrings { block: &block.strings, ours: vec![u32::MAX; block.strings.len()] };
        let e7 = |offset: i64, v: i64| -> Result<i32, DecodeError> {
            let nano = (block.granularity as i64).checked_mul(v).and_then(|x| x.checked_add(offset)).ok_or(DecodeError::Overflow("coordinate"))?;
            if nano % 100 != 0 {
                return Err(DecodeError::Inconsistent("a coordinate finer than 1e-7 degrees (granularity or offset not a multiple of 100 nanodegrees): optimize keeps 1e-7 degrees"));
            }
            i32::try_from(nano / 100).map_err(|_| DecodeError::Overflow("coordinate"))
        };
        let dg = block.date_granularity as i64;
        let (mut keys, mut vals) = (Vec::new(), Vec::new());
        let in_range = |i: u32| if (i as usize) < block.strings.len() { Ok(i) } else { Err(DecodeError::StringIndexOutOfRange { index: i as u64, table_len: block.strings.len() }) };
        let meta = |e: &Element| -> Result<Option<RawMeta>, DecodeError> { if e.info.is_empty() { Ok(None) } else { decode_info(&e.info.bytes(), dg).map(Some) } };
        let mut kinds = 0;
        for group in &block.groups {
            if let Some(dense) = &group.dense {
                let ids = deltas(&dense.id.bytes(), "DenseNodes id")?;
                let lats = deltas(&dense.lat.bytes(), "DenseNodes lat")?;
                let lons = deltas(&dense.lon.bytes(), "DenseNodes lon")?;
                if lats.len() != ids.len() || lons.len() != ids.len() {
                    return Err(DecodeError::Inconsistent("DenseNodes ids, lats and lons differ in length"));
                }
                if !ids.is_empty() {
                    kinds |= KINDS_NODES;
                }
                let info_bytes = dense.denseinfo.bytes();
                let mut info = if info_bytes.is_empty() { None } else { Some(DenseInfoColumns::new(&info_bytes, dg)?) };
                let kv_bytes = dense.keys_vals.bytes();
                let mut kv = Varints::new(&kv_bytes, "DenseNodes keys_vals");
                let mut node_tags = Vec::new();
                for i in 0..ids.len() {
                    let (lat, lon) = (e7(block.lat_offset, lats[i])?, e7(block.lon_offset, lons[i])?);
                    let kept = keep.node(ids[i], lat, lon);
                    node_tags.clear();
                    while !kv.is_empty() {
                        let k = kv.next_u64()? as u32;
                        if k == 0 {
                            break;
                        }
                        if kv.is_empty() {
                            return Err(DecodeError::Inconsistent("DenseNodes keys_vals ends inside a pair"));
                        }
                        let v = kv.next_u64()? as u32;
                        node_tags.push((in_range(k)?, in_range(v)?));
                    }
                    let m = info.as_mut().map(|c| c.next_meta()).transpose()?;
                    if kept {
                        let (tags, user) = table.take(&mut self.strings, &node_tags, m)?;
                        self.add_node(ids[i], lat, lon, m, user, tags)?;
                    }
                }
            }
            // An element's tags as the block's string numbers.
            let mut tags = |e: &Element| -> Result<Vec<(u32, u32)>, DecodeError> {
                e.tags_into(&mut keys, &mut vals)?;
                Ok(keys.iter().copied().zip(vals.iter().copied()).collect())
            };
            for msg in &group.nodes {
                kinds |= KINDS_NODES;
                let n = crate::format::block::Node::read(msg)?;
                let m = meta(&n.element)?;
                let (lat, lon) = (e7(block.lat_offset, n.lat)?, e7(block.lon_offset, n.lon)?);
                if keep.node(n.element.id, lat, lon) {
                    let (t, user) = table.take(&mut self.strings, &tags(&n.element)?, m)?;
                    self.add_node(n.element.id, lat, lon, m, user, t)?;
                }
            }
            for msg in &group.ways {
                kinds |= KINDS_WAYS;
                let w = crate::format::block::Way::read(msg)?;
                let m = meta(&w.element)?;
                let refs = deltas(&w.refs.bytes(), "Way refs")?;
                if keep.way(w.element.id, &refs) {
                    let (t, user) = table.take(&mut self.strings, &tags(&w.element)?, m)?;
                    self.ways.push(w.element.id, m, user, t.into_iter())?;
                    refs.into_iter().for_each(|r| self.refs.push(r));
                    self.refs_start.push(self.refs.len() as u64);
                }
            }
            for msg in &group.relations {
                kinds |= KINDS_RELATIONS;
                let r = crate::format::block::Relation::read(msg)?;
                let m = meta(&r.element)?;
                let (mut roles, mut types) = (Vec::new(), Vec::new());
                r.roles_sid.indexes_into(&mut roles, "Relation roles_sid")?;
                r.types.indexes_into(&mut types, "Relation types")?;
                let ids = deltas(&r.memids.bytes(), "Relation memids")?;
                if roles.len() != ids.len() || types.len() != ids.len() {
                    return Err(DecodeError::Inconsistent("Relation roles_sid, memids and types differ in length"));
                }
                let members = types
                    .iter()
                    .zip(&ids)
                    .map(|(&ty, &id)| u8::try_from(ty).ok().filter(|&t| t <= 2).map(|t| (t, id)).ok_or(DecodeError::Inconsistent("a relation member type other than node, way or relation")))
                    .collect::<Result<Vec<_>, DecodeError>>()?;
                if keep.relation(r.element.id, &members) {
                    let (t, user) = table.take(&mut self.strings, &tags(&r.element)?, m)?;
                    self.relations.push(r.element.id, m, user, t.into_iter())?;
                    for (&role, (ty, id)) in roles.iter().zip(members) {
                        let role = table.string(&mut self.strings, role)?;
                        self.members.push((ty, id, role));
                    }
                    self.members_start.push(self.members.len() as u64);
                }
            }
        }
        Ok(kinds)
    }

    fn add_node(&mut self, id: i64, lat: i32, lon: i32, meta: Option<RawMeta>, user: u32, tags: Vec<(u32, u32)>) -> Result<(), DecodeError> {
        let n = self.nodes.len();
        if n > 0 && self.nodes.id.get(n - 1) >= id {
            self.nodes_ascending = false;
        }
        self.nodes.push(id, meta, user, tags.into_iter())?;
        self.lat.push(lat);
        self.lon.push(lon);
        Ok(())
    }

    /// Way `i`'s node refs.
    pub fn refs_of(&self, i: usize) -> impl Iterator<Item = i64> + '_ {
        self.refs.range(self.refs_start.get(i) as usize, self.refs_start.get(i + 1) as usize)
    }

    /// Relation `i`'s members.
    pub fn members_of(&self, i: usize) -> impl Iterator<Item = (u8, i64, u32)> + '_ {
        self.members.range(self.members_start.get(i) as usize, self.members_start.get(i + 1) as usize)
    }
}

/// Copying elements from one store into another (test files made of real ones: see
/// `crate::testing::planet_like`), ids and places changed on the way.
#[cfg(any(test, feature = "testing"))]
impl Elements {
    /// Every string of `from` as a string number of this store, by `from`'s numbers.
    pub fn strings_of(&mut self, from: &Elements) -> Vec<u32> {
        from.strings.list.iter().map(|s| self.strings.intern(s)).collect()
    }

    fn copy_common(to: &mut Common, from: &Common, i: usize, id: i64, strings: &[u32]) -> Result<(), DecodeError> {
        let meta = from.meta_of(i);
        let user = meta.map_or(0, |m| strings[m.user_sid as usize]);
        to.push(id, meta, user, from.tags_of(i).map(|(k, v)| (strings[k as usize], strings[v as usize])))
    }

    /// Adds node `i` of `from` as node `id`, moved by `shift` (1e-7 degrees: lat, lon).
    pub fn copy_node(&mut self, from: &Elements, i: usize, id: i64, shift: (i32, i32), strings: &[u32]) -> Result<(), DecodeError> {
        let n = self.nodes.len();
        if n > 0 && self.nodes.id.get(n - 1) >= id {
            self.nodes_ascending = false;
        }
        Self::copy_common(&mut self.nodes, &from.nodes, i, id, strings)?;
        self.lat.push(from.lat.get(i).saturating_add(shift.0));
        self.lon.push(from.lon.get(i).saturating_add(shift.1));
        Ok(())
    }

    /// Adds way `i` of `from` as way `id`, each node ref mapped by `node`.
    pub fn copy_way(&mut self, from: &Elements, i: usize, id: i64, node: impl Fn(i64) -> i64, strings: &[u32]) -> Result<(), DecodeError> {
        Self::copy_common(&mut self.ways, &from.ways, i, id, strings)?;
        from.refs_of(i).for_each(|r| self.refs.push(node(r)));
        self.refs_start.push(self.refs.len() as u64);
        Ok(())
    }

    /// Adds relation `i` of `from` as relation `id`, each member id mapped by `member` (type, id).
    pub fn copy_relation(&mut self, from: &Elements, i: usize, id: i64, member: impl Fn(u8, i64) -> i64, strings: &[u32]) -> Result<(), DecodeError> {
        Self::copy_common(&mut self.relations, &from.relations, i, id, strings)?;
        from.members_of(i).for_each(|(t, m, role)| self.members.push((t, member(t, m), strings[role as usize])));
        self.members_start.push(self.members.len() as u64);
        Ok(())
    }
}
