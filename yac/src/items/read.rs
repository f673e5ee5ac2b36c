//! Reading a tree the Rust way: [`Node`], a node of a tree with typed
//! getters (`Option`/`Result` of the value, never a bare index),
//! iterators over children and MAP pairs, and [`Items::parse_doc`], whose
//! error says where.
//!
//! ```
//! use keks::items::{Item, Items};
//! // MAP {"a": 1, "list": [TRUE, "x"]}
//! let doc = [0x09, 0xC1, b'a', 0x0C, 0x81, 0x01,
//!            0xC4, b'l', b'i', b's', b't', 0x08, 0x03, 0xC1, b'x', 0x00, 0x00];
//! let mut pool = [Item::default(); 8];
//! let mut items = Items::new(&mut pool);
//! let root = items.parse_doc(&doc)?;
//! let map = items.at(root);
//! assert_eq!(map.get("a").map(|n| n.as_u64()), Some(Ok(1)));
//! let keys: Vec<&str> = map.pairs().map(|(k, _)| k.as_str().unwrap()).collect();
//! assert_eq!(keys, ["a", "list"]);
//! let list = map.get("list").unwrap();
//! assert_eq!(list.children().count(), 2);
//! assert_eq!(list.nth(1).unwrap().as_str(), Ok("x"));
//! assert!(map.get("missing").is_none());
//! # Ok::<(), keks::error::ErrorAt>(())
//! ```

use super::node::Item;
use super::Items;
use crate::atom::ItemType;
use crate::error::{Error, ErrorAt};

impl<'a> Items<'a, &mut [Item]> {
    /// Parses the one item that `buf` holds, from its start to its end, and
    /// returns its root. The error carries the offset of the atom at fault
    /// (a byte after the item is `Invalid` at that byte). For several items
    /// in one buffer, or input that arrives in pieces, use [`Items::parse`].
    pub fn parse_doc(&mut self, buf: &'a [u8]) -> Result<u32, ErrorAt> {
        let mut off = 0;
        let root = self.parse(buf, &mut off).map_err(|e| e.at(off))?;
        if off != buf.len() {
            return Err(Error::Invalid.at(off));
        }
        Ok(root)
    }
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Node `idx` of this tree, to read with typed getters.
    pub fn at(&self, idx: u32) -> Node<'_, 'a, S> {
        Node { items: self, idx }
    }

    /// The (key, value) node pairs of a MAP, in order (empty for other
    /// nodes).
    pub fn pairs(&self, map: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let mut kids = self.children(map);
        let is_map = self.item_type(map) == ItemType::Map;
        core::iter::from_fn(move || {
            if !is_map {
                return None;
            }
            Some((kids.next()?, kids.next()?))
        })
    }
}

/// A node of a tree: its index and the tree, with typed getters. Getters of
/// values return `Err(Invalid)` for a node of another type; navigation
/// returns `None` where there is nothing.
pub struct Node<'t, 'a, S> {
    items: &'t Items<'a, S>,
    idx: u32,
}

impl<S> Clone for Node<'_, '_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Node<'_, '_, S> {}

impl<S> core::fmt::Debug for Node<'_, '_, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Node({})", self.idx)
    }
}

impl<'t, 'a, S: AsRef<[Item]>> Node<'t, 'a, S> {
    /// The node's index in its tree.
    pub fn index(&self) -> u32 {
        self.idx
    }

    /// The node's type (`Invalid` for an index out of range).
    pub fn item_type(&self) -> ItemType {
        self.items.item_type(self.idx)
    }

    fn at(&self, idx: u32) -> Node<'t, 'a, S> {
        Node {
            items: self.items,
            idx,
        }
    }

    /// The children of a LIST, MAP (keys and values) or BLOB (chunks).
    pub fn children(&self) -> impl Iterator<Item = Node<'t, 'a, S>> + 't {
        let (items, idx) = (self.items, self.idx);
        items.children(idx).map(move |i| Node { items, idx: i })
    }

    /// The (key, value) pairs of a MAP, in order.
    pub fn pairs(&self) -> impl Iterator<Item = (Node<'t, 'a, S>, Node<'t, 'a, S>)> + 't {
        let (items, idx) = (self.items, self.idx);
        items
            .pairs(idx)
            .map(move |(k, v)| (Node { items, idx: k }, Node { items, idx: v }))
    }

    /// The `n`-th child (from 0). O(n).
    pub fn nth(&self, n: usize) -> Option<Node<'t, 'a, S>> {
        Some(self.at(self.items.nth_child(self.idx, n)?))
    }

    /// The value under `key` in a MAP. O(number of keys).
    pub fn get(&self, key: &str) -> Option<Node<'t, 'a, S>> {
        Some(self.at(self.items.map_get(self.idx, key.as_bytes())?))
    }

    /// Number of children (pairs count twice in a MAP).
    pub fn len(&self) -> Result<usize, Error> {
        self.items.child_count(self.idx)
    }

    /// Whether a container has no children.
    pub fn is_empty(&self) -> Result<bool, Error> {
        Ok(self.len()? == 0)
    }

    /// Whether the node is NIL.
    pub fn is_nil(&self) -> bool {
        self.item_type() == ItemType::Nil
    }

    /// A FALSE or TRUE.
    pub fn as_bool(&self) -> Result<bool, Error> {
        self.items.get_bool(self.idx)
    }

    /// A +INT that fits `u64`.
    pub fn as_u64(&self) -> Result<u64, Error> {
        self.items.get_uint(self.idx)
    }

    /// A +INT or -INT that fits `i64` (`LenTooBig` beyond).
    pub fn as_i64(&self) -> Result<i64, Error> {
        self.items.get_int(self.idx)
    }

    /// A FLOAT16/32/64 widened to `f64`.
    pub fn as_f64(&self) -> Result<f64, Error> {
        self.items.get_f64(self.idx)
    }

    /// The text of a STR, borrowed from the input.
    pub fn as_str(&self) -> Result<&'a str, Error> {
        self.items.get_str(self.idx)
    }

    /// The bytes of a BIN, borrowed from the input.
    pub fn as_bin(&self) -> Result<&'a [u8], Error> {
        self.items.get_bin(self.idx)
    }

    /// The payload of any bytes node (HEXLET, FLOAT, TAI64, MAGIC, BIN,
    /// STR, integers beyond 64 bits), as on the wire.
    pub fn bytes(&self) -> Result<&'a [u8], Error> {
        self.items.bytes(self.idx)
    }
}
