//! The writer's state: plain integers with a C layout, so that the C
//! library keeps it inside `struct YACWriter` and the header's inline calls
//! read and update its hot part ([`Hot`], [`Level`]) in place.
//!
//! The innermost container's grammar state is one word, [`Hot::top`]; each
//! open container's [`Level`] keeps the state of the container around it,
//! restored when it closes. The inline calls handle exactly the states
//! [`T_LIST`], [`T_MAP_KEY`] and [`T_MAP_VAL`] (and the value transition of
//! the others with bit 0 set), and leave everything else to the core.

use crate::error::Error;

/// `Hot::top`: a LIST. Bit 0 set: a value may come.
pub const T_LIST: u32 = 1;
/// `Hot::top`: a MAP whose next item is a key, its previous key (if
/// `key_len` > 0) in the output buffer at `key`. Bit 1: a MAP.
pub const T_MAP_KEY: u32 = 2;
/// `Hot::top`: a MAP whose next item is the value of its last key.
pub const T_MAP_VAL: u32 = 3;
/// Bit of `Hot::top`: the MAP's keys are kept in the key area (its slot
/// starts at `key`).
pub(crate) const AREA: u32 = 4;
/// `Hot::top`: the top level, before the root item.
pub(crate) const T_ROOT: u32 = 8;
/// `Hot::top`: the top level after the root item.
pub(crate) const T_ROOT_DONE: u32 = 16;
/// Bit of `Hot::top`: a MAP sorted on close.
pub(crate) const SORTED: u32 = 32;
/// `Hot::top`: a BLOB (chunks only).
pub(crate) const T_BLOB: u32 = 64;
/// Bit of `Hot::top`: a MAP sorted on close got a key out of order.
pub(crate) const UNSORTED: u32 = 128;

/// The state after a value in state `top`: a MAP's value makes a key due
/// (bit 0 cleared when bit 1 is set); a LIST stays a LIST.
#[inline(always)]
pub(crate) const fn after_value(top: u32) -> u32 {
    top & !((top >> 1) & 1)
}

/// Whether `top` is a MAP (sorted or not).
#[inline(always)]
pub(crate) const fn is_map(top: u32) -> bool {
    top & T_MAP_KEY != 0
}

/// One open container on the writer's stack. The caller provides the
/// stack (an array of these, as deep as the documents nest); the header's
/// inline calls push and pop entries, the rest is internal. 24 bytes.
///
/// cbindgen:rename-all=camelCase
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// The container's own fact: a MAP sorted on close, the stream
    /// position of its tag; a BLOB, its chunk length minus one.
    pub own: u64,
    /// The enclosing container's `key` while this one is open.
    pub key: u64,
    /// The enclosing container's `keyLen`.
    pub key_len: u32,
    /// The enclosing container's `top` (after this container took its
    /// place).
    pub top: u32,
}

/// The state the header's inline calls use. Fields in the order of the
/// inline calls' needs; the layout is asserted by the C library.
///
/// cbindgen:rename-all=camelCase
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hot {
    /// Calls made on the writer so far: the index of the next call.
    pub calls: u64,
    /// Bytes in the output buffer.
    pub pos: usize,
    /// The inline calls write `n` bytes only while `pos + n <= lim`: the
    /// buffer's size, or 0 when every call must go to the library (count
    /// only, out of room, an error).
    pub lim: usize,
    /// The innermost MAP's previous key: its offset in the output buffer
    /// (or, for a MAP with keys in the key area, its slot there).
    pub key: usize,
    /// Its length in bytes, 0 before the MAP's first key.
    pub key_len: usize,
    /// The innermost container's state (`YAC_WRITER_TOP_*`).
    pub top: u32,
    /// Open containers.
    pub depth: u32,
    /// Entries of the caller's level array.
    pub max_depth: u32,
    /// 1 when the writer keeps MAP keys in a key area, else 0.
    pub area: u32,
}

/// Writer flag: the buffer ran out of room; count only from now on.
pub(crate) const W_ROOM: u32 = 1;
/// Writer flag: count-only (no buffer, and that is not an error).
pub(crate) const W_COUNT: u32 = 2;
/// Writer flag: any number of root items (a sequence of documents).
pub(crate) const W_SEQ: u32 = 4;
/// Writer flag: out of room without a key area, the output buffer is the
/// key area.
pub(crate) const W_BUF_KEYS: u32 = 8;

/// Where and in what state the sticky error was met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Failure {
    /// The index of the refused call (0 for the first call on the writer).
    pub call: u64,
    /// The output offset where the refused item would have started.
    pub offset: u64,
    /// Containers open at the refusal.
    pub depth: u32,
    /// The innermost open container then, as its tag byte (LIST, MAP or
    /// BLOB); `None` at the top level.
    pub open: Option<u8>,
}

/// The writer's whole state: the hot part, then the rest. Callers treat it
/// as opaque.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub(crate) hot: Hot,
    /// Bytes handed to the flush callback so far.
    pub(crate) flushed: u64,
    /// Bytes counted and not written (count-only, or out of room).
    pub(crate) over: u64,
    /// Failure: the refused call's index and output offset.
    pub(crate) err_call: u64,
    pub(crate) err_at: u64,
    /// Bytes of the key area in use.
    pub(crate) keys_top: u64,
    /// The sticky error's code ([`Error::code`]), 0 for none.
    pub(crate) err: u32,
    /// `W_*` bits.
    pub(crate) flags: u32,
    /// Failure: depth and `top` at the refusal.
    pub(crate) err_depth: u32,
    pub(crate) err_top: u32,
}

impl State {
    /// A writer's state before its first item: `cap` bytes of buffer,
    /// `levels` entries of stack, and whether there is a key area.
    pub fn new(cap: usize, levels: usize, area: bool) -> Self {
        State {
            hot: Hot {
                lim: cap,
                top: T_ROOT,
                max_depth: u32::try_from(levels).unwrap_or(u32::MAX),
                area: area as u32,
                ..Hot::default()
            },
            ..State::default()
        }
    }

    /// The state of a count-only writer.
    pub fn count_only(levels: usize, area: bool) -> Self {
        let mut s = State::new(0, levels, area);
        s.flags = W_COUNT;
        s
    }

    /// Accepts any number of root items (a sequence of documents).
    pub fn allow_sequence(&mut self) {
        self.flags |= W_SEQ;
    }

    /// Counts one call on the writer (for [`Failure::call`]).
    #[inline(always)]
    pub fn count_call(&mut self) {
        self.hot.calls = self.hot.calls.wrapping_add(1);
    }

    /// Bytes of the document so far, written or counted: after
    /// [`Error::NoMem`], the size the output needs.
    pub fn total(&self) -> u64 {
        self.flushed
            .saturating_add(self.hot.pos as u64)
            .saturating_add(self.over)
    }

    /// Bytes in the buffer (written and not flushed).
    pub fn buffered(&self) -> usize {
        self.hot.pos
    }

    /// Open containers (and BLOBs).
    pub fn depth(&self) -> usize {
        self.hot.depth as usize
    }

    /// The sticky error, if any.
    pub fn error(&self) -> Option<Error> {
        Error::from_code(self.err)
    }

    /// Whether nothing was written or counted yet and there is no error.
    pub fn is_fresh(&self) -> bool {
        self.total() == 0 && self.err == 0 && self.hot.calls == 0
    }

    /// Where the sticky error was met (`None` without one, and for
    /// `NoMem`, which is no refusal).
    pub fn failure(&self) -> Option<Failure> {
        if self.err == 0 || self.flags & W_ROOM != 0 {
            return None;
        }
        Some(Failure {
            call: self.err_call,
            offset: self.err_at,
            depth: self.err_depth,
            open: open_kind(self.err_top, self.err_depth),
        })
    }
}

/// The tag byte of the container in state `top` (`None` at the top).
fn open_kind(top: u32, depth: u32) -> Option<u8> {
    use crate::atom::tag;
    if depth == 0 {
        None
    } else if top == T_BLOB {
        Some(tag::BLOB)
    } else if is_map(top) {
        Some(tag::MAP)
    } else {
        Some(tag::LIST)
    }
}
