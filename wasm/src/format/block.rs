//! A PrimitiveBlock read in place (spec: "Definition of OSMData fileblock"; wire format:
//! protobuf.dev "Encoding"). Strings, packed arrays and encoded `Info`s stay slices of the
//! inflated block, and a node, way or relation is read only when it is visited, so scanning a
//! block allocates a few vectors per group instead of several per element (prost's owned
//! messages cost 47 % of a native scan of the 110 MB file, see `docs/decisions.md`).
//!
//! Protobuf's rules are kept: fields in any order, unknown fields skipped, a repeated scalar
//! packed or not (an unpacked value's varint is itself a one-value packed array), a packed
//! array split into pieces (one array), an embedded message given twice (merged), and a
//! scalar given twice (the last wins).

use std::borrow::Cow;

use crate::error::DecodeError;
use crate::format::varint::Varints;

/// One field of a protobuf message.
#[derive(Clone, Copy)]
pub(crate) enum Field<'a> {
    /// Wire type 0: the value, and its varint's bytes (a one-value packed array).
    Varint(u64, &'a [u8]),
    /// Wire type 2: the payload.
    Bytes(&'a [u8]),
    /// Wire types 1 and 5 (fixed 64 and 32 bits), not used by the PBF messages.
    Fixed,
}

/// Walks a message's fields in order, calling `f(field number, value)`.
///
/// Errors: [`DecodeError::Protobuf`] naming `what` for a field cut off by the message's end,
/// a wire type protobuf does not define, or a group (wire types 3 and 4, unused by PBF);
/// and whatever `f` returns.
pub(crate) fn for_each_field<'a>(msg: &'a [u8], what: &'static str, mut f: impl FnMut(u64, Field<'a>) -> Result<(), DecodeError>) -> Result<(), DecodeError> {
    let cut = || DecodeError::Protobuf { what, detail: "a field runs past the end of its message".into() };
    let mut v = Varints::new(msg, what);
    while !v.is_empty() {
        let key = v.next_u64().map_err(|_| cut())?;
        let (number, wire) = (key >> 3, key & 7);
        match wire {
            0 => {
                let start = v.position();
                let value = v.next_u64().map_err(|_| cut())?;
                f(number, Field::Varint(value, &msg[start..v.position()]))?;
            }
            2 => {
                let len = v.next_u64().map_err(|_| cut())?;
                let start = v.position();
                let end = (start as u64).checked_add(len).filter(|&e| e <= msg.len() as u64).ok_or_else(cut)? as usize;
                v.skip_to(end);
                f(number, Field::Bytes(&msg[start..end]))?;
            }
            1 | 5 => {
                let end = v.position() + if wire == 1 { 8 } else { 4 };
                if end > msg.len() {
                    return Err(cut());
                }
                v.skip_to(end);
                f(number, Field::Fixed)?;
            }
            _ => return Err(DecodeError::Protobuf { what, detail: format!("field {number} has wire type {wire}, which the PBF messages do not use") }),
        }
    }
    Ok(())
}

/// A field that must be a varint (`int32`, `int64`, `sint64`, `bool`, enum): its raw value.
/// Errors: [`DecodeError::Protobuf`] naming `what` when it is not one.
fn varint(field: Field, what: &'static str, number: u64) -> Result<u64, DecodeError> {
    match field {
        Field::Varint(x, _) => Ok(x),
        _ => Err(DecodeError::Protobuf { what, detail: format!("field {number} is not a varint") }),
    }
}

/// A field that must be length-delimited (`bytes`, `string`, an embedded message).
fn payload<'a>(field: Field<'a>, what: &'static str, number: u64) -> Result<&'a [u8], DecodeError> {
    match field {
        Field::Bytes(b) => Ok(b),
        _ => Err(DecodeError::Protobuf { what, detail: format!("field {number} is not length-delimited") }),
    }
}

/// The zigzag decoding of a `sint64`.
#[inline]
fn zigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

/// The bytes of a packed array, or of an embedded message kept encoded: usually one piece,
/// borrowed; several (a split array, unpacked values, a message given twice) are one array.
#[derive(Debug, Clone, Default)]
pub struct Packed<'a> {
    first: &'a [u8],
    /// The pieces after the first, boxed: elements are read by the million and carry six of
    /// these, nearly always in one piece (a `Vec` here made a Way 2× as large to move).
    #[allow(clippy::box_collection)] // a thin pointer on purpose: the extra allocation is rare
    rest: Option<Box<Vec<&'a [u8]>>>,
}

impl<'a> Packed<'a> {
    fn push(&mut self, piece: &'a [u8]) {
        if self.first.is_empty() {
            self.first = piece; // an empty piece leaves it empty
        } else if !piece.is_empty() {
            self.rest.get_or_insert_default().push(piece);
        }
    }

    /// A repeated scalar field's value: a packed piece, or one unpacked varint.
    fn push_field(&mut self, field: Field<'a>, what: &'static str, number: u64) -> Result<(), DecodeError> {
        match field {
            Field::Varint(_, raw) => self.push(raw),
            Field::Bytes(b) => self.push(b),
            Field::Fixed => return Err(DecodeError::Protobuf { what, detail: format!("field {number} is neither packed nor a varint") }),
        }
        Ok(())
    }

    /// All the bytes, borrowed when they are one piece.
    pub fn bytes(&self) -> Cow<'a, [u8]> {
        match &self.rest {
            None => Cow::Borrowed(self.first),
            Some(rest) => {
                let mut all = self.first.to_vec();
                rest.iter().for_each(|p| all.extend_from_slice(p));
                Cow::Owned(all)
            }
        }
    }

    /// Whether the array holds nothing.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    /// Decodes a packed `uint32`/`int32` array of string-table indexes into `out` (cleared
    /// first). A value past `u32::MAX` (a negative `int32`) becomes `u32::MAX`, which no
    /// string table reaches. Errors: those of [`Varints::next_u64`], naming `what`.
    pub fn indexes_into(&self, out: &mut Vec<u32>, what: &'static str) -> Result<(), DecodeError> {
        out.clear();
        for piece in std::iter::once(self.first).chain(self.rest.iter().flat_map(|r| r.iter().copied())) {
            let mut v = Varints::new(piece, what);
            while !v.is_empty() {
                out.push(u32::try_from(v.next_u64()?).unwrap_or(u32::MAX));
            }
        }
        Ok(())
    }
}

/// A PrimitiveBlock: its string table, its groups (elements still encoded) and the fields
/// that scale coordinates (nanodegrees: `lat_offset + granularity × lat`) and timestamps
/// (milliseconds per unit), with the spec's defaults 100, 0, 0 and 1000.
#[derive(Debug)]
pub struct Block<'a> {
    pub strings: Vec<&'a [u8]>,
    pub groups: Vec<Group<'a>>,
    pub granularity: i32,
    pub lat_offset: i64,
    pub lon_offset: i64,
    pub date_granularity: i32,
}

/// A PrimitiveGroup: its plain nodes, ways and relations as encoded messages (read them with
/// [`Node::read`], [`Way::read`], [`Relation::read`]) and its DenseNodes.
#[derive(Debug, Default)]
pub struct Group<'a> {
    pub nodes: Vec<&'a [u8]>,
    pub dense: Option<Dense<'a>>,
    pub ways: Vec<&'a [u8]>,
    pub relations: Vec<&'a [u8]>,
}

/// DenseNodes: packed delta-coded `id`, `lat`, `lon` (sint64), `keys_vals` (int32 pairs, each
/// node's ended by 0) and the encoded `DenseInfo`.
#[derive(Debug, Default)]
pub struct Dense<'a> {
    pub id: Packed<'a>,
    pub denseinfo: Packed<'a>,
    pub lat: Packed<'a>,
    pub lon: Packed<'a>,
    pub keys_vals: Packed<'a>,
}

/// What every node, way and relation carries: its id, its tags as packed string-table indexes
/// (`keys`, `vals`, parallel) and its encoded `Info`.
#[derive(Debug, Default)]
pub struct Element<'a> {
    pub id: i64,
    pub keys: Packed<'a>,
    pub vals: Packed<'a>,
    pub info: Packed<'a>,
}

/// A plain Node: lat/lon in granularity units.
#[derive(Debug, Default)]
pub struct Node<'a> {
    pub element: Element<'a>,
    pub lat: i64,
    pub lon: i64,
}

/// A Way: packed delta-coded node `refs`, and with LocationsOnWays packed delta-coded
/// `lat`/`lon` in granularity units.
#[derive(Debug, Default)]
pub struct Way<'a> {
    pub element: Element<'a>,
    pub refs: Packed<'a>,
    pub lat: Packed<'a>,
    pub lon: Packed<'a>,
}

/// A Relation: its members as three parallel packed arrays, `roles_sid` (int32 string
/// indexes), `memids` (delta-coded sint64), `types` (0 node, 1 way, 2 relation).
#[derive(Debug, Default)]
pub struct Relation<'a> {
    pub element: Element<'a>,
    pub roles_sid: Packed<'a>,
    pub memids: Packed<'a>,
    pub types: Packed<'a>,
}

impl<'a> Block<'a> {
    /// Reads the uncompressed data of an `OSMData` blob.
    /// Errors: [`DecodeError::Protobuf`] for a malformed message.
    pub fn read(data: &'a [u8]) -> Result<Block<'a>, DecodeError> {
        const WHAT: &str = "PrimitiveBlock";
        let mut block = Block { strings: Vec::new(), groups: Vec::new(), granularity: 100, lat_offset: 0, lon_offset: 0, date_granularity: 1000 };
        for_each_field(data, WHAT, |number, field| {
            match number {
                1 => for_each_field(payload(field, WHAT, number)?, "StringTable", |n, f| {
                    if n == 1 {
                        block.strings.push(payload(f, "StringTable", n)?);
                    }
                    Ok(())
                })?,
                2 => block.groups.push(Group::read(payload(field, WHAT, number)?)?),
                17 => block.granularity = varint(field, WHAT, number)? as i32,
                18 => block.date_granularity = varint(field, WHAT, number)? as i32,
                19 => block.lat_offset = varint(field, WHAT, number)? as i64,
                20 => block.lon_offset = varint(field, WHAT, number)? as i64,
                _ => {}
            }
            Ok(())
        })?;
        Ok(block)
    }
}

impl<'a> Group<'a> {
    fn read(msg: &'a [u8]) -> Result<Group<'a>, DecodeError> {
        const WHAT: &str = "PrimitiveGroup";
        let mut group = Group::default();
        for_each_field(msg, WHAT, |number, field| {
            match number {
                1 => group.nodes.push(payload(field, WHAT, number)?),
                2 => group.dense.get_or_insert_with(Dense::default).merge(payload(field, WHAT, number)?)?,
                3 => group.ways.push(payload(field, WHAT, number)?),
                4 => group.relations.push(payload(field, WHAT, number)?),
                _ => {}
            }
            Ok(())
        })?;
        Ok(group)
    }
}

impl<'a> Dense<'a> {
    /// Adds one encoding of the message (protobuf merges a message given twice).
    fn merge(&mut self, msg: &'a [u8]) -> Result<(), DecodeError> {
        const WHAT: &str = "DenseNodes";
        for_each_field(msg, WHAT, |number, field| match number {
            1 => self.id.push_field(field, WHAT, number),
            5 => self.denseinfo.push_field(field, WHAT, number),
            8 => self.lat.push_field(field, WHAT, number),
            9 => self.lon.push_field(field, WHAT, number),
            10 => self.keys_vals.push_field(field, WHAT, number),
            _ => Ok(()),
        })
    }
}

impl<'a> Element<'a> {
    /// Decodes the tags' string-table indexes into `keys` and `vals` (each cleared first).
    /// Errors: those of [`Packed::indexes_into`], and [`DecodeError::Inconsistent`] when keys
    /// and vals differ in length. The indexes are not checked against the string table.
    pub fn tags_into(&self, keys: &mut Vec<u32>, vals: &mut Vec<u32>) -> Result<(), DecodeError> {
        self.keys.indexes_into(keys, "keys")?;
        self.vals.indexes_into(vals, "vals")?;
        if keys.len() != vals.len() {
            return Err(DecodeError::Inconsistent("keys and vals differ in length"));
        }
        Ok(())
    }
}

impl<'a> Node<'a> {
    /// Reads an encoded Node. Errors: [`DecodeError::Protobuf`] for a malformed message.
    pub fn read(msg: &'a [u8]) -> Result<Node<'a>, DecodeError> {
        let (element, [lat, lon]) = read_element(msg, "Node", |location: &mut [i64; 2], number, field| match number {
            8 | 9 => varint(field, "Node", number).map(|x| location[number as usize - 8] = zigzag(x)),
            _ => Ok(()),
        })?;
        // A Node's id is a sint64, a Way's and a Relation's an int64.
        Ok(Node { element: Element { id: zigzag(element.id as u64), ..element }, lat, lon })
    }
}

/// Reads an element's [`Element`] fields — `id` (1, its varint's value as an int64), `keys`
/// (2), `vals` (3), `info` (4) — and hands every other field to `rest`, with its number, to
/// fill in `R`. Errors: [`DecodeError::Protobuf`] naming `what`, and those of `rest`.
fn read_element<'a, R: Default>(
    msg: &'a [u8],
    what: &'static str,
    mut rest: impl FnMut(&mut R, u64, Field<'a>) -> Result<(), DecodeError>,
) -> Result<(Element<'a>, R), DecodeError> {
    let (mut element, mut more) = (Element::default(), R::default());
    for_each_field(msg, what, |number, field| match number {
        1 => varint(field, what, number).map(|x| element.id = x as i64),
        2 => element.keys.push_field(field, what, number),
        3 => element.vals.push_field(field, what, number),
        4 => payload(field, what, number).map(|b| element.info.push(b)),
        _ => rest(&mut more, number, field),
    })?;
    Ok((element, more))
}

/// Fields 8, 9 and 10 as packed arrays: a Way's `refs`, `lat`, `lon`, a Relation's
/// `roles_sid`, `memids`, `types` (the rest of [`read_element`] for both).
fn arrays_8_to_10<'a>(what: &'static str) -> impl FnMut(&mut [Packed<'a>; 3], u64, Field<'a>) -> Result<(), DecodeError> {
    move |arrays, number, field| match number {
        8..=10 => arrays[number as usize - 8].push_field(field, what, number),
        _ => Ok(()),
    }
}

impl<'a> Way<'a> {
    /// Reads an encoded Way. Errors: [`DecodeError::Protobuf`] for a malformed message.
    pub fn read(msg: &'a [u8]) -> Result<Way<'a>, DecodeError> {
        let (element, [refs, lat, lon]) = read_element(msg, "Way", arrays_8_to_10("Way"))?;
        Ok(Way { element, refs, lat, lon })
    }
}

impl<'a> Relation<'a> {
    /// Reads an encoded Relation. Errors: [`DecodeError::Protobuf`] for a malformed message.
    pub fn read(msg: &'a [u8]) -> Result<Relation<'a>, DecodeError> {
        let (element, [roles_sid, memids, types]) = read_element(msg, "Relation", arrays_8_to_10("Relation"))?;
        Ok(Relation { element, roles_sid, memids, types })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::encode::{primitive_block, with_metadata, with_relations, InfoSpec, NodeSpec, RelationSpec, WaySpec};
    use prost::bytes::Bytes;
    use prost::Message;

    /// What prost holds for an `optional bytes` field, as one slice.
    fn packed(field: &Option<Bytes>) -> &[u8] {
        field.as_deref().unwrap_or(&[])
    }

    /// What prost holds for a `repeated bytes` field (pieces of one array), joined.
    fn joined(field: &[Bytes]) -> Vec<u8> {
        field.concat()
    }

    /// The same block as prost reads it and as read here: every field agrees.
    #[test]
    fn reads_what_prost_reads() {
        let tags: &[(&str, &str)] = &[("amenity", "cafe"), ("name", "Kahvila")];
        let nodes: Vec<NodeSpec> = (0..4).map(|i| NodeSpec { id: 10 + i, lat: 60.17 + 0.001 * i as f64, lon: 24.94 - 0.001 * i as f64, tags: if i % 2 == 0 { tags } else { &[] } }).collect();
        let ways = [WaySpec { id: 100, refs: &[10, 11, 12, 10], tags }];
        let relations = [RelationSpec { id: 1000, members: &[(1, 100, "outer"), (0, 11, "")], tags }];
        let info = InfoSpec { version: 3, timestamp: 1_600_000_000, changeset: 7, uid: 3, user: "mapper", visible: true };
        let mut message = with_metadata(with_relations(primitive_block(&nodes, &ways), &relations), &[info; 4], &[info], &[info]);
        message.lat_offset = Some(-5);
        message.granularity = Some(1000);
        let data = message.encode_to_vec();
        let block = Block::read(&data).unwrap();
        let strings: Vec<&[u8]> = message.stringtable.s.iter().map(|s| &s[..]).collect();
        assert_eq!(block.strings, strings);
        assert_eq!((block.granularity, block.lat_offset, block.lon_offset, block.date_granularity), (1000, -5, 0, 1000));
        assert_eq!(block.groups.len(), message.primitivegroup.len());
        let mut scratch = Vec::new();
        for (group, expected) in block.groups.iter().zip(&message.primitivegroup) {
            assert_eq!(group.dense.is_some(), expected.dense.is_some());
            if let (Some(d), Some(e)) = (&group.dense, &expected.dense) {
                assert_eq!(*d.id.bytes(), joined(&e.id));
                assert_eq!(*d.lat.bytes(), joined(&e.lat));
                assert_eq!(*d.lon.bytes(), joined(&e.lon));
                assert_eq!(*d.denseinfo.bytes(), joined(&e.denseinfo));
                d.keys_vals.indexes_into(&mut scratch, "t").unwrap();
                assert_eq!(scratch, e.keys_vals.iter().map(|&x| x as u32).collect::<Vec<_>>());
            }
            assert_eq!(group.ways.len(), expected.ways.len());
            for (msg, e) in group.ways.iter().zip(&expected.ways) {
                let w = Way::read(msg).unwrap();
                assert_eq!(w.element.id, e.id);
                w.element.keys.indexes_into(&mut scratch, "t").unwrap();
                assert_eq!(scratch, e.keys);
                w.element.vals.indexes_into(&mut scratch, "t").unwrap();
                assert_eq!(scratch, e.vals);
                assert_eq!(*w.refs.bytes(), *packed(&e.refs));
                assert_eq!(*w.element.info.bytes(), *packed(&e.info));
            }
            assert_eq!(group.relations.len(), expected.relations.len());
            for (msg, e) in group.relations.iter().zip(&expected.relations) {
                let r = Relation::read(msg).unwrap();
                assert_eq!(r.element.id, e.id);
                r.roles_sid.indexes_into(&mut scratch, "t").unwrap();
                assert_eq!(scratch, e.roles_sid.iter().map(|&x| x as u32).collect::<Vec<_>>());
                assert_eq!((&*r.memids.bytes(), &*r.types.bytes()), (packed(&e.memids), packed(&e.types)));
            }
        }
    }

    /// A plain Node with its fields out of order, an unpacked key, a packed val, an unknown
    /// field of each wire type and its id given twice (the last wins).
    #[test]
    fn protobuf_rules_for_order_unpacked_unknown_and_repeated_fields() {
        let msg = [
            0x48, 0x03, // lon = -2 (sint64, field 9)
            0x08, 0x02, // id = 1 (field 1), replaced below
            0x10, 0x05, // keys: 5, unpacked
            0x1a, 0x02, 0x06, 0x07, // vals: [6, 7] packed
            0x10, 0x81, 0x01, // keys: 129, unpacked
            0x61, 1, 2, 3, 4, 5, 6, 7, 8, // field 12, fixed64: skipped
            0x6d, 1, 2, 3, 4, // field 13, fixed32: skipped
            0x72, 0x01, 0xff, // field 14, bytes: skipped
            0x08, 0x54, // id = 42
            0x40, 0x04, // lat = 2
        ];
        let node = Node::read(&msg).unwrap();
        assert_eq!((node.element.id, node.lat, node.lon), (42, 2, -2));
        let mut out = Vec::new();
        node.element.keys.indexes_into(&mut out, "t").unwrap();
        assert_eq!(out, [5, 129]);
        node.element.vals.indexes_into(&mut out, "t").unwrap();
        assert_eq!(out, [6, 7]);
    }

    /// A packed array given in pieces, one of them an unpacked value, reads as one array.
    #[test]
    fn an_array_in_pieces_is_one_array() {
        let way = Way::read(&[0x08, 0x07, 0x42, 0x02, 0x02, 0x04, 0x40, 0x06, 0x42, 0x01, 0x08]).unwrap();
        assert_eq!(*way.refs.bytes(), [0x02, 0x04, 0x06, 0x08]);
        assert_eq!(crate::format::varint::deltas(&way.refs.bytes(), "t").unwrap(), [1, 3, 6, 10]);
        let whole = Way::read(&[0x08, 0x07, 0x42, 0x01, 0x02]).unwrap();
        assert!(matches!(whole.refs.bytes(), Cow::Borrowed([0x02])));
    }

    #[test]
    fn tags_are_keys_and_vals_of_one_length() {
        let (mut keys, mut vals) = (Vec::new(), Vec::new());
        let way = Way::read(&[0x08, 0x07, 0x12, 0x02, 0x01, 0x02, 0x1a, 0x02, 0x03, 0x04]).unwrap();
        way.element.tags_into(&mut keys, &mut vals).unwrap();
        assert_eq!((keys.as_slice(), vals.as_slice()), (&[1, 2][..], &[3, 4][..]));
        let uneven = Way::read(&[0x08, 0x07, 0x12, 0x02, 0x01, 0x02, 0x1a, 0x01, 0x03]).unwrap();
        assert_eq!(uneven.element.tags_into(&mut keys, &mut vals), Err(DecodeError::Inconsistent("keys and vals differ in length")));
    }

    #[test]
    fn malformed_messages_are_named() {
        let cases: [(&[u8], &str); 4] = [
            (&[0x0a, 0x05, 0x01], "corrupt PrimitiveBlock: a field runs past the end of its message"),
            (&[0x0b], "corrupt PrimitiveBlock: field 1 has wire type 3, which the PBF messages do not use"),
            (&[0x12, 0x02, 0x1a, 0x00, 0x8a, 0x01, 0x00], "corrupt PrimitiveBlock: field 17 is not a varint"),
            (&[0x12, 0x03, 0x12, 0x01, 0x0c], "corrupt DenseNodes: field 1 has wire type 4, which the PBF messages do not use"),
        ];
        for (bytes, message) in cases {
            assert_eq!(Block::read(bytes).unwrap_err().to_string(), message, "{bytes:?}");
        }
        assert_eq!(Way::read(&[0x0a, 0x00]).unwrap_err().to_string(), "corrupt Way: field 1 is not a varint");
    }
}
