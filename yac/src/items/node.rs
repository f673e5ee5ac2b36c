//! The tree node: 16 bytes, public C layout (`struct YACItem`).
//!
//! ```text
//! offset 0  union v   8 bytes  Pint: u64 value | Nint: i64 value |
//!                              bytes types: pointer to the payload |
//!                              LIST/MAP/BLOB: { u32 first child, u32 parent }
//! offset 8  next      4 bytes  index of the next sibling, NONE if last
//! offset 12 meta      4 bytes  bits 0..4 type (ItemType), bits 5..31 "size":
//!                              bytes types: payload length;
//!                              containers: number of children
//! ```
//!
//! A size of [`SIZE_ESC`] means "does not fit in 27 bits": for a bytes node
//! the pointer then points at the BIN/STR wire header (tag byte) instead of
//! the payload, and the length is read from that header (such payloads are
//! at least 65853 bytes, so the header is always the 9-byte form); for a
//! container the children must be counted by walking them.
//!
//! A BLOB node is followed by an extension slot (never linked) whose `v.u`
//! holds the chunk length minus one.
//!
//! Reading the union is the one place where the tree needs `unsafe`: the
//! layout is fixed by the C API, so that C code reads a node with a load.

use core::ffi::c_uchar;

use crate::atom::ItemType;

/// "No node": the index stored where there is no sibling, child or parent.
pub const NONE: u32 = u32::MAX;
/// Largest size stored in a node's meta word; larger ones escape.
pub const SIZE_ESC: u32 = (1 << 27) - 1;
/// In the meta word of a LIST or MAP that a parse has opened and not yet
/// closed (whose size is not known yet): set when its parent is a MAP, so
/// that closing it need not read the parent.
pub const OPEN_IN_MAP: u32 = 1 << SIZE_SHIFT;
/// Mask of the type bits in the meta word.
pub const TYPE_MASK: u32 = 0x1F;
/// Shift of the size bits in the meta word.
pub const SIZE_SHIFT: u32 = 5;

/// Child and parent links of a LIST, MAP or BLOB node.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links {
    /// Index of the first child, `YACItemNone` (Rust: `NONE`) when empty.
    pub first: u32,
    /// Index of the enclosing container, `YACItemNone` (Rust: `NONE`) for a
    /// root.
    pub parent: u32,
}

/// The value word of a node; which member is meaningful depends on the type.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ItemValue {
    /// `YACItemPint` (Rust: `ItemType::Pint`): the value. BLOB extension
    /// slot: chunk length minus one.
    pub u: u64,
    /// `YACItemNint`: the (negative) value.
    pub i: i64,
    /// Bytes types (HEXLET, FLOAT, TAI64, MAGIC, BIN, STR, `YACItemPbig`,
    /// `YACItemNbig`): the
    /// payload (or the wire header when the size escapes).
    pub ptr: *const c_uchar,
    /// LIST, MAP, BLOB: first child and parent.
    pub c: Links,
}

/// One node of a tree: 16 bytes on every target with 64-bit alignment.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Item {
    /// The value word.
    pub v: ItemValue,
    /// Index of the next sibling, `YACItemNone` (Rust: `NONE`) if this is
    /// the last one.
    pub next: u32,
    /// Type (bits 0..4) and size (bits 5..31).
    pub meta: u32,
}

impl Default for Item {
    fn default() -> Self {
        Item {
            v: ItemValue { u: 0 },
            next: NONE,
            meta: 0,
        }
    }
}

impl core::fmt::Debug for Item {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Item")
            .field("type", &self.item_type())
            .field("size", &self.size())
            .field("v", &self.raw_u64())
            .field("next", &self.next)
            .finish()
    }
}

/// The meta word for a type and a size (saturating at [`SIZE_ESC`]).
#[inline(always)]
pub fn meta(t: ItemType, size: usize) -> u32 {
    let s = if size >= SIZE_ESC as usize {
        SIZE_ESC
    } else {
        size as u32
    };
    (s << SIZE_SHIFT) | t as u32
}

impl Item {
    /// A scalar node without payload (NIL, FALSE, TRUE).
    #[inline(always)]
    pub fn plain(t: ItemType) -> Item {
        Item {
            v: ItemValue { u: 0 },
            next: NONE,
            meta: meta(t, 0),
        }
    }

    /// A `Pint` node.
    #[inline(always)]
    pub fn uint(u: u64) -> Item {
        Item {
            v: ItemValue { u },
            next: NONE,
            meta: meta(ItemType::Pint, 0),
        }
    }

    /// A `Nint` node.
    #[inline(always)]
    pub fn nint(i: i64) -> Item {
        Item {
            v: ItemValue { i },
            next: NONE,
            meta: meta(ItemType::Nint, 0),
        }
    }

    /// A bytes node pointing at `payload`. When the length escapes,
    /// `wire_header` must point at the payload's BIN/STR header.
    #[inline(always)]
    pub fn bytes(t: ItemType, payload: &[u8], wire_header: *const u8) -> Item {
        let len = payload.len();
        let ptr = if len >= SIZE_ESC as usize {
            wire_header
        } else {
            payload.as_ptr()
        };
        let mut v = ItemValue { u: 0 };
        v.ptr = ptr;
        Item {
            v,
            next: NONE,
            meta: meta(t, len),
        }
    }

    /// An empty container node.
    #[inline(always)]
    pub fn container(t: ItemType, parent: u32) -> Item {
        Item {
            v: ItemValue {
                c: Links {
                    first: NONE,
                    parent,
                },
            },
            next: NONE,
            meta: meta(t, 0),
        }
    }

    /// The BLOB extension slot.
    #[inline(always)]
    pub fn blob_ext(chunk_len_minus_one: u64) -> Item {
        Item {
            v: ItemValue {
                u: chunk_len_minus_one,
            },
            next: NONE,
            meta: meta(ItemType::Invalid, 0),
        }
    }

    /// The node's type.
    #[inline(always)]
    pub fn item_type(&self) -> ItemType {
        ItemType::from_u8((self.meta & TYPE_MASK) as u8)
    }

    /// The size field (length or child count), possibly [`SIZE_ESC`].
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.meta >> SIZE_SHIFT
    }

    /// Replaces the size field, keeping the type.
    #[inline(always)]
    pub fn set_size(&mut self, size: usize) {
        let s = if size >= SIZE_ESC as usize {
            SIZE_ESC
        } else {
            size as u32
        };
        self.meta = (s << SIZE_SHIFT) | (self.meta & TYPE_MASK);
    }

    /// The raw type bits (an `ItemType` value), for hot loops that compare
    /// against a known type without decoding it.
    #[inline(always)]
    pub fn type_bits(&self) -> u32 {
        self.meta & TYPE_MASK
    }

    /// Whether the node is a LIST, MAP or BLOB.
    #[inline(always)]
    pub fn is_container(&self) -> bool {
        matches!(
            self.item_type(),
            ItemType::List | ItemType::Map | ItemType::Blob
        )
    }

    /// The value word as a `u64`.
    #[inline(always)]
    pub fn raw_u64(&self) -> u64 {
        // SAFETY: every constructor above writes all 8 bytes of the union
        // (pointer and link writes start from `u: 0`), and any bit pattern
        // is a valid u64.
        unsafe { self.v.u }
    }

    /// The value word as an `i64`.
    #[inline(always)]
    pub fn raw_i64(&self) -> i64 {
        self.raw_u64() as i64
    }

    /// Links of a container node (meaningless for other types).
    #[inline(always)]
    pub fn links(&self) -> Links {
        // SAFETY: as in `raw_u64`: all 8 bytes are initialised and two u32
        // accept any bit pattern.
        unsafe { self.v.c }
    }

    /// Mutable links of a container node.
    #[inline(always)]
    pub fn links_mut(&mut self) -> &mut Links {
        // SAFETY: `Links` is plain data valid for any bit pattern, and the
        // union is fully initialised; writing through it keeps it so.
        unsafe { &mut self.v.c }
    }

    /// The stored pointer of a bytes node.
    #[inline(always)]
    pub fn ptr(&self) -> *const u8 {
        // SAFETY: all bytes initialised; a raw pointer is valid for any bit
        // pattern (dereferencing it is a separate question, see `payload`).
        unsafe { self.v.ptr }
    }
}
