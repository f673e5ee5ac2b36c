//! The streaming writer: whole documents, canonical by construction.
//!
//! [`Writer`] appends items one after another and keeps a stack of the open
//! containers, so that it can refuse, with an error and before writing a
//! byte of it, whatever would make the output invalid or non-canonical: a
//! MAP key that is not a non-empty STR or is not above the previous key
//! (length first, then bytewise: `rules::key_above`, the one home
//! of that rule), a MAP closed after a key, an EOC with nothing open, a
//! BLOB chunk that does not fit the chunk length, an item inside a BLOB.
//! The atoms themselves are validated and encoded by [`crate::enc`].
//!
//! Output goes to a buffer; or to a buffer that a flush callback empties
//! (to stream into a file or socket through a small buffer); or nowhere,
//! only counted. The first error sticks: every later call returns it and
//! does nothing. Running out of room ([`Error::NoMem`]) is the exception:
//! the writer then writes nothing more but keeps counting and checking (the
//! call itself succeeds), so that [`Writer::finish`] reports `NoMem` and
//! [`Writer::position`] the exact size the document needs (a
//! refusal found later replaces `NoMem`: a document that cannot be written
//! at any size says why). [`Writer::finish`] also refuses an unbalanced
//! document ([`Error::NotEnough`]: containers or a BLOB left open).
//!
//! # Where the previous MAP key is kept
//! To check a key, the writer compares it with the MAP's previous key. That
//! key is read from the caller's key area when one is given (each open MAP
//! keeps its last key there; size the area to the sum, over the nesting
//! levels, of the longest key written at that level; a key that does not
//! fit gives [`Error::LenTooBig`]), else from the output buffer. In the
//! latter case a flushing writer never flushes an open MAP's last key, so a
//! large value under a MAP fills the buffer ([`Error::NoMem`]): streams of
//! MAPs want a key area. When the previous key is in neither place (only
//! possible while nothing is being written: count-only, or counting after
//! `NoMem`) the order is not checked.
//!
//! # MAPs sorted on close
//! [`Writer::map_sorted`] opens a MAP whose keys may come in any order: the
//! pairs are sorted in place in the buffer when it is closed (no heap; an
//! insertion sort, O(n^2) in the number of keys when they come out of
//! order, free when they come in order), and a duplicate key is refused
//! then. The whole MAP must therefore be in the buffer at its close: a
//! flushing writer keeps it there, and a MAP that outgrows the buffer gives
//! `NoMem`. A count-only writer counts such MAPs exactly but cannot see
//! duplicates.
//!
//! ```
//! use yac::writer::Writer;
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map().unwrap();
//! w.str("b").unwrap();
//! w.uint(1).unwrap();
//! assert_eq!(w.str("a"), Err(yac::Error::MapUnordered)); // nothing written
//! assert_eq!(w.finish(), Err(yac::Error::MapUnordered)); // it sticks
//!
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map_sorted().unwrap();
//! w.str("b").unwrap();
//! w.uint(1).unwrap();
//! w.str("a").unwrap();
//! w.nil().unwrap();
//! w.eoc().unwrap();
//! assert_eq!(w.finish(), Ok(10));
//! assert_eq!(w.written(), &[0x09, 0xC1, b'a', 0x01, 0xC1, b'b', 0x0C, 0x81, 0x01, 0x00]);
//! ```

use crate::atom::{self, tag, Atom, MAGIC_LEN};
use crate::enc;
use crate::error::Error;
use crate::rules::{chunk_fits, key_above, strip_zeros};
use crate::{float, tai64};

/// One open container on the writer's stack. The caller provides the
/// stack (an array of these, as deep as the documents nest); its fields are
/// internal. 24 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// `K_LIST`, `K_MAP`, `K_SMAP` or `K_BLOB`.
    kind: u8,
    /// `F_*` bits.
    flags: u8,
    _pad: u16,
    /// Length of the MAP's previous key.
    key_len: u32,
    /// MAP: where the previous key is: its offset in the key area (the
    /// level's fixed slot there), or the stream position of its payload.
    /// BLOB: the chunk length minus one.
    key_at: u64,
    /// Sorted MAP: stream position of its tag.
    start: u64,
}

const K_LIST: u8 = 1;
const K_MAP: u8 = 2;
/// A MAP sorted on close.
const K_SMAP: u8 = 3;
const K_BLOB: u8 = 4;

/// MAP: a value is due (a key was written).
const F_VALUE: u8 = 1;
/// MAP: a key was written (`key_at`/`key_len` are set).
const F_PREV: u8 = 2;
/// Sorted MAP: a key came out of order, sort at the close.
const F_UNSORTED: u8 = 4;

/// Writer flag: the buffer ran out of room; count only from now on.
const W_ROOM: u32 = 1;
/// Writer flag: count-only (no buffer, and that is not an error).
const W_COUNT: u32 = 2;

/// The writer's scalar state: plain integers with a C layout, so that the C
/// layer can keep it inside `struct YACWriter`. Callers treat it as opaque.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// Bytes of the document(s) so far, written or only counted.
    total: u64,
    /// Bytes handed to the flush callback so far.
    flushed: u64,
    /// Bytes in the buffer.
    pos: usize,
    /// Bytes of the key area in use.
    keys_top: usize,
    /// Open containers (and BLOBs).
    depth: u32,
    /// The sticky error's code ([`Error::code`]), 0 for none.
    err: u32,
    /// `W_*` bits.
    flags: u32,
    _pad: u32,
}

impl State {
    /// A writer's state before its first item.
    pub const fn new() -> Self {
        State {
            total: 0,
            flushed: 0,
            pos: 0,
            keys_top: 0,
            depth: 0,
            err: 0,
            flags: 0,
            _pad: 0,
        }
    }

    /// The state of a count-only writer.
    pub const fn count_only() -> Self {
        let mut s = State::new();
        s.flags = W_COUNT;
        s
    }

    /// Bytes of the document so far, written or counted: after
    /// [`Error::NoMem`], the size the output needs.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes in the buffer (written and not flushed).
    pub fn buffered(&self) -> usize {
        self.pos
    }

    /// The sticky error, if any.
    pub fn error(&self) -> Option<Error> {
        Error::from_code(self.err)
    }

    /// Whether there is no error (not even `NoMem`).
    #[inline(always)]
    pub fn is_ok(&self) -> bool {
        self.err == 0
    }
}

/// The flush callback's Rust shape: takes the bytes to pass on; an error
/// becomes the writer's (sticky) error.
pub type Sink<'s> = &'s mut dyn FnMut(&[u8]) -> Result<(), Error>;

/// The writer over borrowed parts: what every operation runs on. The Rust
/// [`Writer`] and the C `struct YACWriter` both lend their parts to it.
#[doc(hidden)] // For the C library (capi/src/ffi/writer.rs); not Rust API.
pub struct Core<'x, 's> {
    pub buf: &'x mut [u8],
    pub levels: &'x mut [Level],
    pub keys: &'x mut [u8],
    pub sink: Option<Sink<'s>>,
    pub st: &'x mut State,
}

/// What a STR is where it comes.
enum StrRole {
    Value,
    /// A key of the MAP on top of the stack (checked order).
    Key,
    /// A key of a MAP sorted on close.
    SortedKey,
}

impl Core<'_, '_> {
    // ----- errors -----

    /// The error every call must return before doing anything, if any:
    /// the sticky one, unless it is `NoMem` from the buffer (then the
    /// writer goes on counting).
    #[inline(always)]
    fn stuck(&self) -> Result<(), Error> {
        if self.st.err == 0 || self.st.flags & W_ROOM != 0 {
            return Ok(());
        }
        Err(Error::from_code(self.st.err).unwrap_or(Error::Invalid))
    }

    /// Refuses the call with `e` (a bad argument found by the caller of the
    /// core): the sticky error if there is one, else `e`, which sticks.
    pub fn refuse(&mut self, e: Error) -> Error {
        match self.stuck() {
            Err(old) => old,
            Ok(()) => self.fail(e),
        }
    }

    /// Records a refusal (it replaces a `NoMem`) and returns it.
    #[cold]
    fn fail(&mut self, e: Error) -> Error {
        self.st.err = e.code();
        self.st.flags &= !W_ROOM;
        e
    }

    /// The call's result: `Ok` also while counting past the buffer (the C
    /// layer reports the sticky `NoMem` of the state; Rust callers get it
    /// from `finish`), so that `?` does not stop the count.
    #[inline(always)]
    fn done(&self) -> Result<(), Error> {
        Ok(())
    }

    /// Refuses with `e` unless `r` is fine.
    #[inline(always)]
    fn check<T>(&mut self, r: Result<T, Error>) -> Result<T, Error> {
        r.map_err(|e| self.fail(e))
    }

    // ----- output -----

    /// Appends `src`, or counts it past the buffer's end (recording
    /// `NoMem`, which [`Core::done`] reports once the call's state is
    /// updated). Errs only when the flush callback fails.
    #[inline(always)]
    fn put(&mut self, src: &[u8]) -> Result<(), Error> {
        let pos = self.st.pos;
        if self.st.flags & W_ROOM == 0 {
            if let Some(dst) = self.buf.get_mut(pos..pos.wrapping_add(src.len())) {
                copy(dst, src);
                self.st.pos = pos + src.len();
                self.st.total += src.len() as u64;
                return Ok(());
            }
        }
        self.put_slow(src)
    }

    /// Appends one byte.
    #[inline(always)]
    fn put_byte(&mut self, b: u8) -> Result<(), Error> {
        let pos = self.st.pos;
        if self.st.flags & W_ROOM == 0 {
            if let Some(d) = self.buf.get_mut(pos) {
                *d = b;
                self.st.pos = pos + 1;
                self.st.total += 1;
                return Ok(());
            }
        }
        self.put_slow(&[b])
    }

    /// Appends the first `n` bytes of `w`, storing the whole window when
    /// there is room for it (the bytes after the first `n` are scratch).
    #[inline(always)]
    fn put_window(&mut self, w: &[u8; 16], n: usize) -> Result<(), Error> {
        let pos = self.st.pos;
        if self.st.flags & W_ROOM == 0 {
            let dst = self.buf.get_mut(pos..pos.wrapping_add(16));
            if let Some(dst) = dst.and_then(|d| <&mut [u8; 16]>::try_from(d).ok()) {
                *dst = *w; // one 16-byte store
                self.st.pos = pos + n;
                self.st.total += n as u64;
                return Ok(());
            }
        }
        self.put(w.get(..n).unwrap_or(&[]))
    }

    /// `put` when the bytes do not fit: flush, or write around the buffer,
    /// or count.
    #[inline(never)]
    fn put_slow(&mut self, src: &[u8]) -> Result<(), Error> {
        let n = src.len() as u64;
        if self.st.flags & (W_ROOM | W_COUNT) == 0 && self.sink.is_some() {
            self.flush_some()?;
            let pos = self.st.pos;
            if let Some(dst) = self.buf.get_mut(pos..pos.wrapping_add(src.len())) {
                copy(dst, src);
                self.st.pos = pos + src.len();
                self.st.total += n;
                return Ok(());
            }
            if pos == 0 {
                // Nothing is kept back: the bytes go straight to the sink.
                self.call_sink(src)?;
                self.st.flushed += n;
                self.st.total += n;
                return Ok(());
            }
        }
        self.overflow(n);
        Ok(())
    }

    /// Counts `n` bytes that are not written: count-only, or out of room.
    #[cold]
    fn overflow(&mut self, n: u64) {
        self.st.total = self.st.total.saturating_add(n);
        if self.st.flags & W_COUNT == 0 {
            if self.st.err == 0 {
                self.st.err = Error::NoMem.code();
            }
            self.st.flags |= W_ROOM;
            // An open MAP sorted on close will not be sorted: out of the
            // buffer with it, so that the buffer holds a prefix of the
            // document.
            let open = self.levels.get(..self.st.depth as usize).unwrap_or(&[]);
            if let Some(l) = open.iter().find(|l| l.kind == K_SMAP) {
                let tag_at = l.start.saturating_sub(self.st.flushed);
                self.st.pos = usize::try_from(tag_at).map_or(self.st.pos, |t| t.min(self.st.pos));
            }
        }
    }

    /// Before an atom written in pieces: whether to write them, or (when
    /// the buffer cannot take the whole atom and nothing flushes it) only
    /// count its `n` bytes, so that the buffer never ends inside an atom.
    #[inline(always)]
    fn whole(&mut self, n: usize) -> bool {
        if self.st.flags & (W_ROOM | W_COUNT) == 0
            && (self.sink.is_some() || n <= self.buf.len().saturating_sub(self.st.pos))
        {
            return true;
        }
        self.overflow(n as u64);
        false
    }

    fn call_sink(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if bytes.is_empty() {
            return Ok(());
        }
        let r = match self.sink.as_mut() {
            Some(sink) => sink(bytes),
            None => Ok(()),
        };
        self.check(r)
    }

    /// Stream position below which the buffer may be flushed: the first
    /// byte an open MAP still needs (its previous key when kept in the
    /// buffer, or the whole of a MAP sorted on close).
    fn keep_from(&self) -> u64 {
        let area = !self.keys.is_empty();
        let open = self.levels.get(..self.st.depth as usize).unwrap_or(&[]);
        for l in open {
            match l.kind {
                K_SMAP => return l.start,
                K_MAP if !area && l.flags & F_PREV != 0 => return l.key_at,
                _ => {}
            }
        }
        u64::MAX
    }

    /// Hands the buffered bytes that no open MAP needs to the sink and moves
    /// the rest to the buffer's start.
    fn flush_some(&mut self) -> Result<(), Error> {
        let keep = self.keep_from().saturating_sub(self.st.flushed);
        let pos = self.st.pos;
        let n = usize::try_from(keep).unwrap_or(usize::MAX).min(pos);
        if n == 0 {
            return Ok(());
        }
        // The slice is taken apart from `self` for the call.
        let buf = core::mem::take(&mut self.buf);
        let r = self.call_sink(buf.get(..n).unwrap_or(&[]));
        self.buf = buf;
        r?;
        // The rest moves to the front (a rotation that cannot panic).
        if let Some(b) = self.buf.get_mut(..pos) {
            swap_parts(b, n);
        }
        self.st.pos = pos - n;
        self.st.flushed += n as u64;
        Ok(())
    }

    // ----- structure -----

    #[inline(always)]
    fn top(&mut self) -> Option<&mut Level> {
        let d = self.st.depth as usize;
        self.levels.get_mut(d.checked_sub(1)?)
    }

    /// Takes the place of one item that is not a STR: fine at the top
    /// level, in a LIST, and as a MAP value.
    #[inline(always)]
    fn value_slot(&mut self) -> Result<(), Error> {
        let e = match self.top() {
            None => return Ok(()),
            Some(l) => match l.kind {
                K_LIST => return Ok(()),
                K_MAP | K_SMAP if l.flags & F_VALUE != 0 => {
                    l.flags &= !F_VALUE;
                    return Ok(());
                }
                K_MAP | K_SMAP => Error::MapBadKey,
                _ => Error::BlobBadTerm,
            },
        };
        Err(self.fail(e))
    }

    /// Opens a container or BLOB whose opening bytes were just written.
    fn push(&mut self, level: Level) -> Result<(), Error> {
        let d = self.st.depth as usize;
        match self.levels.get_mut(d) {
            Some(l) => *l = level,
            None => return Err(self.fail(Error::DeepRecursion)),
        }
        self.st.depth += 1;
        Ok(())
    }

    // ----- items -----

    /// Writes one atom that is neither a container, a STR, a BIN nor a
    /// bigint (those have their own paths), after validating it.
    pub fn scalar(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        self.stuck()?;
        let mut head = [0u8; 48];
        let n = self.check(enc::encode(atom, &mut head))?;
        self.value_slot()?;
        self.put(head.get(..n).unwrap_or(&[]))?;
        self.done()
    }

    /// +INT or -INT of a magnitude that fits `u64`.
    #[inline(always)]
    pub fn int(&mut self, t: u8, magnitude: u64) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot()?;
        let (w, n) = enc::int_window(t, magnitude);
        self.put_window(&w, n)?;
        self.done()
    }

    pub fn uint(&mut self, v: u64) -> Result<(), Error> {
        self.int(tag::PINT, v)
    }

    pub fn sint(&mut self, v: i64) -> Result<(), Error> {
        match enc::nint_magnitude(v) {
            Ok(m) => self.int(tag::NINT, m),
            Err(_) => self.int(tag::PINT, v as u64),
        }
    }

    pub fn bigint(&mut self, negative: bool, magnitude: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot()?;
        let m = strip_zeros(magnitude);
        let n = self.check(Atom::Bin(m).encoded_len())?;
        if self.whole(n.saturating_add(1)) {
            self.put(&[if negative { tag::NINT } else { tag::PINT }])?;
            self.string(tag::BIN, m)?;
        }
        self.done()
    }

    /// A BIN/STR header and payload.
    #[inline(always)]
    fn string(&mut self, base: u8, payload: &[u8]) -> Result<(), Error> {
        let mut head = [0u8; 9];
        let h = enc::string_header(base, payload.len(), &mut head);
        let pos = self.st.pos;
        let n = h.saturating_add(payload.len());
        // The common case: room for the header's 9-byte window and the
        // payload; the header's bytes after the first `h` are scratch.
        if self.st.flags & W_ROOM == 0 && n.saturating_add(9) <= self.buf.len().saturating_sub(pos)
        {
            let dst = self.buf.get_mut(pos..pos.wrapping_add(9));
            if let Some(d) = dst.and_then(|d| <&mut [u8; 9]>::try_from(d).ok()) {
                *d = head;
            }
            if let Some(d) = self.buf.get_mut(pos + h..) {
                copy(d, payload);
            }
            self.st.pos = pos + n;
            self.st.total += n as u64;
            return Ok(());
        }
        if self.whole(n) {
            self.put(head.get(..h).unwrap_or(&[]))?;
            self.put(payload)?;
        }
        Ok(())
    }

    /// What the next STR is, with the checks of a key done.
    #[inline(always)]
    fn str_role(&mut self, s: &[u8]) -> Result<StrRole, Error> {
        let area = !self.keys.is_empty();
        let flushed = self.st.flushed;
        let pos = self.st.pos;
        let Some(l) = self.top() else {
            return Ok(StrRole::Value);
        };
        if l.flags & F_VALUE != 0 {
            // K_MAP or K_SMAP: the STR is the value due.
            l.flags &= !F_VALUE;
            return Ok(StrRole::Value);
        }
        let l = *l;
        let e = match l.kind {
            K_LIST => return Ok(StrRole::Value),
            K_BLOB => Error::BlobBadTerm,
            _ if s.is_empty() => Error::MapBadKey,
            _ if s.len() > u32::MAX as usize => Error::LenTooBig,
            K_SMAP => return Ok(StrRole::SortedKey),
            _ => {
                if l.flags & F_PREV != 0 {
                    let prev = if area {
                        key_at(self.keys, l.key_at, l.key_len)
                    } else {
                        let at = l.key_at.wrapping_sub(flushed);
                        let end = pos as u64;
                        key_at(self.buf.get(..pos).unwrap_or(&[]), at.min(end), l.key_len)
                    };
                    if let Some(prev) = prev {
                        if !key_above(s, prev) {
                            return Err(self.fail(Error::MapUnordered));
                        }
                    }
                }
                if area && (l.key_at as usize).saturating_add(s.len()) > self.keys.len() {
                    return Err(self.fail(Error::LenTooBig));
                }
                return Ok(StrRole::Key);
            }
        };
        Err(self.fail(e))
    }

    /// A STR: a value, or a key of the MAP on top.
    pub fn str(&mut self, s: &str) -> Result<(), Error> {
        if s.as_bytes().contains(&0) {
            return Err(self.refuse(Error::BadUtf8));
        }
        self.str_without_nul(s)
    }

    /// [`Core::str`] of a STR known to hold no NUL (for example checked by
    /// [`crate::utf8::validate_str`]).
    pub fn str_without_nul(&mut self, s: &str) -> Result<(), Error> {
        self.stuck()?;
        let s = s.as_bytes();
        let role = self.str_role(s)?;
        let at = self.st.total + string_head_len(s.len()) as u64;
        self.string(tag::STR, s)?;
        match role {
            StrRole::Value => {}
            StrRole::Key => {
                let area = !self.keys.is_empty();
                let mut top = self.st.keys_top;
                if let Some(l) = self.top() {
                    l.flags |= F_VALUE | F_PREV;
                    l.key_len = s.len() as u32;
                    if area {
                        top = l.key_at as usize + s.len();
                    } else {
                        l.key_at = at;
                    }
                }
                if area {
                    let base = top - s.len();
                    if let Some(d) = self.keys.get_mut(base..top) {
                        copy(d, s);
                    }
                    self.st.keys_top = top;
                }
            }
            StrRole::SortedKey => {
                let (flushed, pos) = (self.st.flushed, self.st.pos);
                let in_buf = self.buf.get(..pos).unwrap_or(&[]);
                let top = (self.st.depth as usize).wrapping_sub(1);
                if let Some(l) = self.levels.get_mut(top) {
                    if l.flags & F_PREV != 0 {
                        let at = l.key_at.wrapping_sub(flushed);
                        let prev = key_at(in_buf, at, l.key_len);
                        if !prev.is_some_and(|p| key_above(s, p)) {
                            l.flags |= F_UNSORTED;
                        }
                    }
                    l.flags |= F_VALUE | F_PREV;
                    l.key_len = s.len() as u32;
                    l.key_at = at;
                }
            }
        }
        self.done()
    }

    /// A BIN: a value, or a chunk of the BLOB on top.
    pub fn bin(&mut self, b: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        if let Some(l) = self.top() {
            if l.kind == K_BLOB {
                let chunk_minus_one = l.key_at;
                let full = self.check(chunk_fits(b.len(), chunk_minus_one))?;
                self.string(tag::BIN, b)?;
                if !full {
                    // The short chunk ends the BLOB.
                    self.st.depth -= 1;
                }
                return self.done();
            }
        }
        self.value_slot()?;
        self.string(tag::BIN, b)?;
        self.done()
    }

    /// A BLOB chunk: `bin` where only a BLOB may be open.
    pub fn chunk(&mut self, b: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        if self.top().map(|l| l.kind) != Some(K_BLOB) {
            return Err(self.fail(Error::Invalid));
        }
        self.bin(b)
    }

    /// Opens a LIST, a MAP (keys in order, `sorted` false) or a MAP sorted
    /// on close.
    #[inline(always)]
    pub fn open(&mut self, kind: u8) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot()?;
        let mut level = Level {
            kind,
            ..Level::default()
        };
        match kind {
            K_MAP => level.key_at = self.st.keys_top as u64,
            K_SMAP => level.start = self.st.total,
            _ => {}
        }
        let t = if kind == K_LIST { tag::LIST } else { tag::MAP };
        // Room is checked first so that a refused push writes nothing.
        if self.levels.len() <= self.st.depth as usize {
            return Err(self.fail(Error::DeepRecursion));
        }
        self.put_byte(t)?;
        self.push(level)?;
        self.done()
    }

    pub fn list(&mut self) -> Result<(), Error> {
        self.open(K_LIST)
    }

    pub fn map(&mut self) -> Result<(), Error> {
        self.open(K_MAP)
    }

    pub fn map_sorted(&mut self) -> Result<(), Error> {
        self.open(K_SMAP)
    }

    /// Opens a BLOB of chunks of `chunk_len_minus_one + 1` bytes.
    pub fn blob(&mut self, chunk_len_minus_one: u64) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot()?;
        if self.levels.len() <= self.st.depth as usize {
            return Err(self.fail(Error::DeepRecursion));
        }
        let mut head = [0u8; 9];
        head[0] = tag::BLOB;
        copy(
            head.get_mut(1..).unwrap_or(&mut []),
            &chunk_len_minus_one.to_be_bytes(),
        );
        self.put(&head)?;
        self.push(Level {
            kind: K_BLOB,
            key_at: chunk_len_minus_one,
            ..Level::default()
        })?;
        self.done()
    }

    /// Closes the innermost LIST or MAP (EOC).
    pub fn close(&mut self) -> Result<(), Error> {
        self.stuck()?;
        let e = match self.top() {
            None => Error::UnexpectedEoc,
            Some(l) if l.kind == K_BLOB => Error::BlobBadTerm,
            Some(l) if l.flags & F_VALUE != 0 => Error::MapNoVal,
            Some(l) => {
                let (kind, flags, key_at, start) = (l.kind, l.flags, l.key_at, l.start);
                if kind == K_SMAP && flags & F_UNSORTED != 0 {
                    self.sort(start)?;
                }
                self.put_byte(tag::EOC)?;
                self.st.depth -= 1;
                if kind == K_MAP && !self.keys.is_empty() {
                    self.st.keys_top = key_at as usize;
                }
                return self.done();
            }
        };
        Err(self.fail(e))
    }

    /// Sorts the pairs of the MAP sorted on close whose first key is at
    /// stream position `start`, if all of it is in the buffer; a duplicate
    /// key is refused and the MAP is taken back out of the buffer.
    #[cold]
    #[inline(never)]
    fn sort(&mut self, start: u64) -> Result<(), Error> {
        if self.st.flags & (W_ROOM | W_COUNT) != 0 || start < self.st.flushed {
            return Ok(());
        }
        let tag_at = usize::try_from(start - self.st.flushed).unwrap_or(usize::MAX);
        let pos = self.st.pos;
        let region = self.buf.get_mut(tag_at.saturating_add(1)..pos);
        if let Err(e) = sort_pairs(region.unwrap_or(&mut [])) {
            // The MAP goes back out of the buffer, tag included.
            self.st.total -= pos.saturating_sub(tag_at) as u64;
            self.st.pos = tag_at.min(pos);
            return Err(self.fail(e));
        }
        Ok(())
    }

    /// Checks that the document is balanced, flushes everything, and
    /// returns the total size (the size needed after `NoMem`).
    pub fn finish(&mut self) -> Result<u64, Error> {
        self.stuck()?;
        if self.st.depth != 0 {
            return Err(self.fail(Error::NotEnough(self.st.depth as usize)));
        }
        if self.st.flags & (W_ROOM | W_COUNT) == 0 && self.sink.is_some() {
            self.flush_some()?;
        }
        if self.st.flags & W_ROOM != 0 {
            return Err(Error::NoMem);
        }
        Ok(self.st.total)
    }

    // ----- the other atoms -----

    pub fn nil(&mut self) -> Result<(), Error> {
        self.scalar(&Atom::Nil)
    }

    pub fn bool(&mut self, v: bool) -> Result<(), Error> {
        self.scalar(&Atom::Bool(v))
    }

    pub fn hexlet(&mut self, h: &[u8; 16]) -> Result<(), Error> {
        self.scalar(&Atom::Hexlet(h))
    }

    pub fn float(&mut self, v: f64) -> Result<(), Error> {
        self.stuck()?;
        let mut b = [0u8; 8];
        let n = self.check(float::shortest(v, &mut b))?;
        self.scalar(&Atom::Float(b.get(..n).unwrap_or(&[])))
    }

    pub fn tai64_utc(&mut self, unix: i64, nsec: u32) -> Result<(), Error> {
        self.stuck()?;
        let mut label = [0u8; 16];
        let n = self.check(tai64::utc_to_label(unix, nsec, &mut label))?;
        self.scalar(&Atom::Tai64(label.get(..n).unwrap_or(&[])))
    }

    pub fn magic(&mut self, magic: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        let m: [u8; MAGIC_LEN] = self.check(enc::pad_magic(magic))?;
        self.scalar(&Atom::Magic(&m))
    }

    /// Any atom: containers open, EOC closes, the rest is written.
    pub fn atom(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        match *atom {
            Atom::Eoc => self.close(),
            Atom::List => self.list(),
            Atom::Map => self.map(),
            Atom::Blob {
                chunk_len_minus_one,
            } => self.blob(chunk_len_minus_one),
            Atom::Str(s) => self.str(s),
            Atom::Bin(b) => self.bin(b),
            Atom::Uint(v) => self.uint(v),
            Atom::Nint(v) => {
                self.stuck()?;
                let m = self.check(enc::nint_magnitude(v))?;
                self.int(tag::NINT, m)
            }
            Atom::BigInt {
                negative,
                magnitude,
            } => self.bigint(negative, magnitude),
            _ => self.scalar(atom),
        }
    }
}

/// Length of the header of a BIN/STR of `len` bytes.
fn string_head_len(len: usize) -> usize {
    enc::string_header(tag::STR, len, &mut [0u8; 9])
}

/// Copies `src` to the start of `dst`, which is as long by construction
/// (a `zip` copy, which cannot panic, unlike `copy_from_slice`).
#[inline(always)]
fn copy(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

/// `len` bytes at `at` in `bytes`, if all there.
fn key_at(bytes: &[u8], at: u64, len: u32) -> Option<&[u8]> {
    let at = usize::try_from(at).ok()?;
    bytes.get(at..at.checked_add(len as usize)?)
}

/// One MAP pair at the start of `bytes` (written by the writer, so valid):
/// the key's payload and the pair's length.
fn pair(bytes: &[u8]) -> Result<(&[u8], usize), Error> {
    let (key, k) = atom::string_raw(bytes)?;
    let (_, v) = crate::validate::count(bytes.get(k..).unwrap_or(&[]), 0)?;
    Ok((key, k + v))
}

/// Reverses `s[..mid]` and `s[mid..]` then the whole: the two parts swap
/// places (a rotation that cannot panic).
fn swap_parts(s: &mut [u8], mid: usize) {
    if let Some(a) = s.get_mut(..mid) {
        a.reverse();
    }
    if let Some(b) = s.get_mut(mid..) {
        b.reverse();
    }
    s.reverse();
}

/// Sorts the key/value pairs in `region` by key (in place: insertion sort
/// by rotations); a duplicate key gives `MapUnordered`.
fn sort_pairs(region: &mut [u8]) -> Result<(), Error> {
    let mut sorted = 0usize; // region[..sorted] holds sorted pairs
    let mut last = 0usize; // the last (largest) sorted pair
    while sorted < region.len() {
        let rest = region.get(sorted..).unwrap_or(&[]);
        let (key, len) = pair(rest)?;
        let mut at = sorted;
        if sorted > 0 {
            let (max, _) = pair(region.get(last..).unwrap_or(&[]))?;
            if key == max {
                return Err(Error::MapUnordered);
            }
            if !key_above(key, max) {
                // Find the first sorted pair above the key.
                at = 0;
                loop {
                    let (k, l) = pair(region.get(at..).unwrap_or(&[]))?;
                    if k == key {
                        return Err(Error::MapUnordered);
                    }
                    if key_above(k, key) {
                        break;
                    }
                    at += l;
                }
            }
        }
        if at == sorted {
            last = sorted;
        } else {
            if let Some(s) = region.get_mut(at..sorted + len) {
                swap_parts(s, sorted - at);
            }
            last += len;
        }
        sorted += len;
    }
    Ok(())
}

/// How many open containers [`Writer::new`] allows.
pub const INLINE_LEVELS: usize = 16;

/// Appends whole documents to a buffer (or a flushed buffer, or nowhere),
/// canonical by construction: see the [module](self) documentation.
///
/// A refused call returns its error, and every later call returns it too.
/// Running out of room is not an error of the call: the writer goes on
/// counting, and [`Writer::finish`] returns [`Error::NoMem`] with
/// [`Writer::position`] the size needed (so `?` after each call is fine).
pub struct Writer<'b> {
    buf: &'b mut [u8],
    own: [Level; INLINE_LEVELS],
    levels: Option<&'b mut [Level]>,
    keys: &'b mut [u8],
    sink: Option<Sink<'b>>,
    st: State,
}

impl<'b> Writer<'b> {
    /// A writer into `buf`, for documents nested up to [`INLINE_LEVELS`]
    /// deep (see [`Writer::levels`]). The bytes of `buf` past those
    /// written may be used as scratch.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Writer {
            buf,
            own: [Level::default(); INLINE_LEVELS],
            levels: None,
            keys: &mut [],
            sink: None,
            st: State::new(),
        }
    }

    /// A writer that writes nothing and only counts (see
    /// [`Writer::finish`]): give it a key area to check key order.
    pub fn count_only() -> Self {
        let mut w = Writer::new(&mut []);
        w.st = State::count_only();
        w
    }

    /// Uses `levels` as the stack of open containers: as deep as the
    /// documents nest (a deeper one gives [`Error::DeepRecursion`]).
    pub fn levels(mut self, levels: &'b mut [Level]) -> Self {
        self.levels = Some(levels);
        self
    }

    /// Keeps the open MAPs' previous keys in `keys` (see the module
    /// documentation).
    pub fn keys(mut self, keys: &'b mut [u8]) -> Self {
        self.keys = keys;
        self
    }

    /// Hands the buffer's bytes to `sink` whenever it is full, and at
    /// [`Writer::finish`].
    pub fn flush(mut self, sink: Sink<'b>) -> Self {
        self.sink = Some(sink);
        self
    }

    /// Runs `f` on the core and takes the sink back.
    #[inline(always)]
    fn run<T>(&mut self, f: impl FnOnce(&mut Core<'_, 'b>) -> T) -> T {
        let sink = self.sink.take();
        let levels = match self.levels.as_deref_mut() {
            Some(l) => l,
            None => &mut self.own,
        };
        let mut core = Core {
            buf: self.buf,
            levels,
            keys: self.keys,
            sink,
            st: &mut self.st,
        };
        let r = f(&mut core);
        self.sink = core.sink;
        r
    }

    /// Bytes of the document(s) so far, written or only counted.
    pub fn position(&self) -> usize {
        usize::try_from(self.st.total).unwrap_or(usize::MAX)
    }

    /// The bytes in the buffer (all that was written, unless flushed).
    pub fn written(&self) -> &[u8] {
        self.buf.get(..self.st.pos).unwrap_or(&[])
    }

    /// The sticky error, if any.
    pub fn error(&self) -> Option<Error> {
        self.st.error()
    }

    /// Number of open containers (and BLOBs).
    pub fn depth(&self) -> usize {
        self.st.depth as usize
    }

    /// Ends the document(s): refuses open containers or BLOB
    /// ([`Error::NotEnough`]), flushes what is left, and returns the total
    /// size. After [`Error::NoMem`], returns `Err(NoMem)`, and
    /// [`Writer::position`] is the size needed.
    pub fn finish(&mut self) -> Result<usize, Error> {
        let n = self.run(|c| c.finish())?;
        usize::try_from(n).map_err(|_| Error::LenTooBig)
    }

    /// Appends one atom: LIST and MAP atoms open a container, EOC closes
    /// one, a BLOB atom opens a BLOB (its chunks follow as BINs).
    pub fn atom(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        self.run(|c| c.atom(atom))
    }

    /// Appends NIL.
    pub fn nil(&mut self) -> Result<(), Error> {
        self.run(|c| c.nil())
    }

    /// Appends TRUE or FALSE.
    pub fn bool(&mut self, v: bool) -> Result<(), Error> {
        self.run(|c| c.bool(v))
    }

    /// Appends a +INT.
    pub fn uint(&mut self, v: u64) -> Result<(), Error> {
        self.run(|c| c.uint(v))
    }

    /// Appends a +INT or -INT.
    pub fn sint(&mut self, v: i64) -> Result<(), Error> {
        self.run(|c| c.sint(v))
    }

    /// Appends an integer of any size given by its sign and big-endian wire
    /// magnitude (for a negative one the value is -1 - magnitude); leading
    /// zero bytes of `magnitude` are dropped.
    pub fn bigint(&mut self, negative: bool, magnitude: &[u8]) -> Result<(), Error> {
        self.run(|c| c.bigint(negative, magnitude))
    }

    /// Opens a LIST (close it with [`eoc`](Writer::eoc)).
    pub fn list(&mut self) -> Result<(), Error> {
        self.run(|c| c.list())
    }

    /// Opens a MAP: keys as [`str`](Writer::str), each followed by its
    /// value, in ascending order (length first, then bytewise); close it
    /// with [`eoc`](Writer::eoc).
    pub fn map(&mut self) -> Result<(), Error> {
        self.run(|c| c.map())
    }

    /// Opens a MAP whose keys may come in any order: its pairs are sorted
    /// when it is closed (see the module documentation).
    pub fn map_sorted(&mut self) -> Result<(), Error> {
        self.run(|c| c.map_sorted())
    }

    /// Closes the innermost LIST or MAP (EOC).
    pub fn eoc(&mut self) -> Result<(), Error> {
        self.run(|c| c.close())
    }

    /// Appends a STR (refused with [`Error::BadUtf8`] if it holds NUL): a
    /// value, or the next key when a MAP is on top.
    pub fn str(&mut self, s: &str) -> Result<(), Error> {
        self.run(|c| c.str(s))
    }

    /// Appends a BIN; inside a BLOB, a chunk (a full one, or the shorter
    /// last one, which ends the BLOB).
    pub fn bin(&mut self, b: &[u8]) -> Result<(), Error> {
        self.run(|c| c.bin(b))
    }

    /// Opens a BLOB of chunks of `chunk_len_minus_one + 1` bytes: its
    /// chunks follow as [`bin`](Writer::bin).
    pub fn blob(&mut self, chunk_len_minus_one: u64) -> Result<(), Error> {
        self.run(|c| c.blob(chunk_len_minus_one))
    }

    /// Appends a whole BLOB of `data` in chunks of `chunk_len` bytes
    /// (`chunk_len` 0 is [`Error::Invalid`]).
    pub fn blob_bytes(&mut self, chunk_len: u64, data: &[u8]) -> Result<(), Error> {
        self.run(|c| c.blob_bytes(chunk_len, data))
    }

    /// Appends a HEXLET.
    pub fn hexlet(&mut self, h: &[u8; 16]) -> Result<(), Error> {
        self.run(|c| c.hexlet(h))
    }

    /// Appends a float in the shortest of 2, 4 or 8 bytes holding `v`
    /// exactly (NaN payloads kept); negative zero gives
    /// [`Error::FloatNonMinimal`].
    pub fn float(&mut self, v: f64) -> Result<(), Error> {
        self.run(|c| c.float(v))
    }

    /// Appends a float given as its big-endian IEEE 754 bytes (2, 4, 8, 16
    /// or 32), which must be canonical.
    pub fn float_raw(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.run(|c| c.scalar(&Atom::Float(bytes)))
    }

    /// Appends a TAI64, TAI64N or TAI64NA label (8, 12 or 16 bytes), which
    /// must be valid and minimal.
    pub fn tai64(&mut self, label: &[u8]) -> Result<(), Error> {
        self.run(|c| c.scalar(&Atom::Tai64(label)))
    }

    /// Appends the TAI64 (or TAI64N) label of a UNIX time: seconds since
    /// 1970-01-01 UTC and nanoseconds (leap seconds added).
    pub fn tai64_utc(&mut self, unix: i64, nsec: u32) -> Result<(), Error> {
        self.run(|c| c.tai64_utc(unix, nsec))
    }

    /// Appends a MAGIC: "KEKS" then `magic` (at most 12 bytes, else
    /// [`Error::Invalid`]) padded with zero bytes.
    pub fn magic(&mut self, magic: &[u8]) -> Result<(), Error> {
        self.run(|c| c.magic(magic))
    }
}

impl Core<'_, '_> {
    /// A whole BLOB: header, full chunks, the short last one.
    pub fn blob_bytes(&mut self, chunk_len: u64, data: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        let Some(minus_one) = chunk_len.checked_sub(1) else {
            return Err(self.fail(Error::Invalid));
        };
        let step = usize::try_from(chunk_len).unwrap_or(usize::MAX);
        self.blob(minus_one)?;
        let mut rest = data;
        loop {
            let n = rest.len().min(step);
            let (chunk, tail) = (rest.get(..n).unwrap_or(&[]), rest.get(n..).unwrap_or(&[]));
            self.bin(chunk)?;
            if n < step {
                return Ok(());
            }
            rest = tail;
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::items::{Item, Items};
    use std::vec;
    use std::vec::Vec;

    type Doc = fn(&mut Writer<'_>) -> Result<(), Error>;

    /// A nested document of every kind of item, keys in order.
    fn nested(w: &mut Writer<'_>) -> Result<(), Error> {
        w.magic(b"cm/test")?;
        w.map()?;
        w.str("a")?;
        w.list()?;
        w.uint(1)?;
        w.sint(-300)?;
        w.str("x")?;
        w.eoc()?;
        w.str("b")?;
        w.bin(&[0xAB; 70])?;
        w.str("c")?;
        w.map()?;
        w.str("k")?;
        w.nil()?;
        w.str("kk")?;
        w.bool(true)?;
        w.eoc()?;
        w.str("t")?;
        w.tai64_utc(1_700_000_000, 5)?;
        w.str("bl")?;
        w.blob(2)?;
        w.bin(b"abc")?;
        w.bin(b"d")?;
        w.str("big")?;
        w.bigint(false, &[0, 1, 0, 0, 0, 0, 0, 0, 0, 0])?;
        w.str("flt")?;
        w.float(1.5)?;
        w.str("hex")?;
        w.hexlet(&[9; 16])?;
        w.str("long key of the document")?;
        w.str(&"é".repeat(200))?;
        w.eoc()?;
        w.bool(false)
    }

    /// The same MAP contents as `nested`, keys in another order, in MAPs
    /// sorted on close.
    fn nested_any_order(w: &mut Writer<'_>) -> Result<(), Error> {
        w.magic(b"cm/test")?;
        w.map_sorted()?;
        w.str("long key of the document")?;
        w.str(&"é".repeat(200))?;
        w.str("flt")?;
        w.float(1.5)?;
        w.str("c")?;
        w.map_sorted()?;
        w.str("kk")?;
        w.bool(true)?;
        w.str("k")?;
        w.nil()?;
        w.eoc()?;
        w.str("bl")?;
        w.blob(2)?;
        w.bin(b"abc")?;
        w.bin(b"d")?;
        w.str("b")?;
        w.bin(&[0xAB; 70])?;
        w.str("hex")?;
        w.hexlet(&[9; 16])?;
        w.str("a")?;
        w.list()?;
        w.uint(1)?;
        w.sint(-300)?;
        w.str("x")?;
        w.eoc()?;
        w.str("big")?;
        w.bigint(false, &[0, 1, 0, 0, 0, 0, 0, 0, 0, 0])?;
        w.str("t")?;
        w.tai64_utc(1_700_000_000, 5)?;
        w.eoc()?;
        w.bool(false)
    }

    fn write(doc: Doc, cap: usize) -> (Result<usize, Error>, Vec<u8>, usize) {
        let mut buf = vec![0u8; cap];
        let mut w = Writer::new(&mut buf);
        let _ = doc(&mut w);
        let r = w.finish();
        (r, w.written().to_vec(), w.position())
    }

    /// The document's bytes, checked by the tree parser.
    fn reference(doc: Doc) -> Vec<u8> {
        let (r, bytes, _) = write(doc, 4096);
        assert_eq!(r, Ok(bytes.len()));
        let mut pool = vec![Item::default(); 100];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        while off < bytes.len() {
            items.parse(&bytes, &mut off).unwrap();
        }
        bytes
    }

    #[test]
    fn sorted_on_close_equals_written_in_order() {
        let want = reference(nested);
        assert_eq!(reference(nested_any_order), want);
        assert_eq!(&want[..16], b"KEKScm/test\0\0\0\0\0");
    }

    #[test]
    fn bytes_needed_at_every_capacity() {
        for doc in [nested as Doc, nested_any_order] {
            let want = reference(doc);
            for cap in 0..want.len() {
                let (r, bytes, needed) = write(doc, cap);
                assert_eq!(r, Err(Error::NoMem), "cap {cap}");
                assert_eq!(needed, want.len(), "cap {cap}");
                assert_eq!(bytes, want[..bytes.len()], "a prefix, cap {cap}");
                // Made of whole atoms.
                let mut off = 0;
                while off < bytes.len() {
                    off += atom::decode(&bytes[off..]).unwrap().1;
                }
            }
            assert_eq!(
                write(doc, want.len()),
                (Ok(want.len()), want.clone(), want.len())
            );
            // Count-only, with and without a key area.
            let mut keys = [0u8; 64];
            for k in [&mut keys[..], &mut []] {
                let mut w = Writer::count_only().keys(k);
                doc(&mut w).unwrap();
                assert_eq!(w.finish(), Ok(want.len()));
                assert!(w.written().is_empty());
            }
        }
    }

    /// Writes `doc` through a flush callback with a buffer of `cap` bytes.
    fn streamed(doc: Doc, cap: usize, keys: &mut [u8]) -> (Result<usize, Error>, Vec<u8>) {
        let mut out = Vec::new();
        let mut sink = |b: &[u8]| -> Result<(), Error> {
            assert!(!b.is_empty());
            out.extend_from_slice(b);
            Ok(())
        };
        let mut buf = vec![0u8; cap];
        let r = {
            let mut w = Writer::new(&mut buf).keys(keys).flush(&mut sink);
            doc(&mut w).and_then(|()| w.finish())
        };
        (r, out)
    }

    #[test]
    fn flushed_through_small_buffers() {
        let want = reference(nested);
        let mut keys = [0u8; 64];
        for cap in 0..40 {
            let (r, out) = streamed(nested, cap, &mut keys);
            assert_eq!(r, Ok(want.len()), "cap {cap}");
            assert_eq!(out, want, "cap {cap}");
        }
        // Without a key area each open MAP's last key stays in the buffer:
        // the long STR value under the root MAP needs room for both.
        let (r, _) = streamed(nested, 40, &mut []);
        assert_eq!(r, Err(Error::NoMem));
        assert_eq!(
            streamed(nested, 640, &mut []),
            (Ok(want.len()), want.clone())
        );
        // A MAP sorted on close stays in the buffer until closed.
        let (r, _) = streamed(nested_any_order, 100, &mut keys);
        assert_eq!(r, Err(Error::NoMem));
        assert_eq!(
            streamed(nested_any_order, 640, &mut keys),
            (Ok(want.len()), want)
        );
        // A key area too small for the keys.
        assert_eq!(
            streamed(nested, 40, &mut keys[..3]).0,
            Err(Error::LenTooBig)
        );
    }

    #[test]
    fn flush_errors_stick() {
        let mut calls = 0;
        let mut sink = |_: &[u8]| -> Result<(), Error> {
            calls += 1;
            Err(Error::Invalid)
        };
        let mut buf = [0u8; 4];
        {
            let mut w = Writer::new(&mut buf).flush(&mut sink);
            w.uint(1).unwrap();
            assert_eq!(w.uint(1000), Err(Error::Invalid));
            assert_eq!(w.nil(), Err(Error::Invalid));
            assert_eq!(w.finish(), Err(Error::Invalid));
        }
        assert_eq!(calls, 1);
    }

    /// Each case: calls that must all succeed, then one that must be
    /// refused with the error; nothing of the refused call is written,
    /// and the error sticks.
    #[test]
    fn every_refusal() {
        type Steps = fn(&mut Writer<'_>) -> Result<(), Error>;
        let cases: [(Steps, Steps, Error); 24] = [
            (|w| w.map(), |w| w.uint(1), Error::MapBadKey),
            (|w| w.map(), |w| w.str(""), Error::MapBadKey),
            (|w| w.map(), |w| w.list(), Error::MapBadKey),
            (|w| w.map(), |w| w.bin(b"k"), Error::MapBadKey),
            (|w| w.map_sorted(), |w| w.nil(), Error::MapBadKey),
            (|w| w.map_sorted(), |w| w.str(""), Error::MapBadKey),
            (
                |w| {
                    w.map()?;
                    w.str("b")?;
                    w.nil()
                },
                |w| w.str("a"),
                Error::MapUnordered,
            ),
            (
                |w| {
                    w.map()?;
                    w.str("ab")?;
                    w.nil()
                },
                |w| w.str("b"),
                Error::MapUnordered,
            ),
            (
                |w| {
                    w.map()?;
                    w.str("a")?;
                    w.nil()
                },
                |w| w.str("a"),
                Error::MapUnordered,
            ),
            (
                |w| {
                    w.map_sorted()?;
                    w.str("b")?;
                    w.nil()?;
                    w.str("a")?;
                    w.nil()?;
                    w.str("b")?;
                    w.uint(2)
                },
                |w| w.eoc(),
                Error::MapUnordered,
            ),
            (
                |w| {
                    w.map()?;
                    w.str("a")
                },
                |w| w.eoc(),
                Error::MapNoVal,
            ),
            (
                |w| {
                    w.map_sorted()?;
                    w.str("a")
                },
                |w| w.eoc(),
                Error::MapNoVal,
            ),
            (|_| Ok(()), |w| w.eoc(), Error::UnexpectedEoc),
            (
                |w| {
                    w.list()?;
                    w.eoc()
                },
                |w| w.eoc(),
                Error::UnexpectedEoc,
            ),
            (|w| w.list(), |w| w.str("a\0"), Error::BadUtf8),
            (|w| w.blob(1), |w| w.str("ab"), Error::BlobBadTerm),
            (|w| w.blob(1), |w| w.eoc(), Error::BlobBadTerm),
            (|w| w.blob(1), |w| w.list(), Error::BlobBadTerm),
            (|w| w.blob(1), |w| w.bin(b"abc"), Error::BlobBadChunk),
            (|_| Ok(()), |w| w.float(-0.0), Error::FloatNonMinimal),
            (|_| Ok(()), |w| w.atom(&Atom::Nint(0)), Error::Invalid),
            (|w| w.list(), |w| w.blob_bytes(0, b""), Error::Invalid),
            (
                |w| {
                    for _ in 0..INLINE_LEVELS {
                        w.list()?;
                    }
                    Ok(())
                },
                |w| w.list(),
                Error::DeepRecursion,
            ),
            (
                |w| w.list(),
                |w| w.finish().map(|_| ()),
                Error::NotEnough(1),
            ),
        ];
        for (i, (before, bad, err)) in cases.into_iter().enumerate() {
            let mut buf = [0u8; 64];
            let mut w = Writer::new(&mut buf);
            before(&mut w).unwrap();
            let n = w.position();
            let good = w.written().to_vec();
            assert_eq!(bad(&mut w), Err(err), "case {i}");
            if err != Error::MapUnordered || i != 9 {
                assert_eq!(w.position(), n, "case {i}: nothing written");
                assert_eq!(w.written(), good);
            } else {
                // The refused MAP sorted on close goes back out.
                assert_eq!(w.written(), &[] as &[u8], "case {i}");
            }
            assert_eq!(w.error(), Some(err), "case {i}");
            assert_eq!(w.nil(), Err(err), "case {i}: sticks");
            assert_eq!(w.finish(), Err(err), "case {i}: sticks");
        }
    }

    #[test]
    fn refusal_replaces_nomem() {
        let mut buf = [0u8; 2];
        let mut w = Writer::new(&mut buf);
        w.map().unwrap();
        w.str("b").unwrap();
        assert_eq!(w.error(), Some(Error::NoMem));
        w.uint(1).unwrap();
        // Past the buffer, without a key area, the order is not known...
        w.str("a").unwrap();
        w.nil().unwrap();
        // ...but everything else is checked.
        w.eoc().unwrap();
        assert_eq!(w.finish(), Err(Error::NoMem));
        assert_eq!(w.position(), 10);
        assert_eq!(w.eoc(), Err(Error::UnexpectedEoc));
        assert_eq!(w.finish(), Err(Error::UnexpectedEoc));
        // With a key area, key order is checked past the buffer too.
        let mut keys = [0u8; 8];
        let mut w = Writer::new(&mut buf).keys(&mut keys);
        w.map().unwrap();
        w.str("b").unwrap();
        w.uint(1).unwrap();
        assert_eq!(w.str("a"), Err(Error::MapUnordered));
    }

    #[test]
    fn blobs_and_streams_of_items() {
        let mut buf = [0u8; 64];
        let mut w = Writer::new(&mut buf);
        w.blob_bytes(2, b"12345").unwrap();
        w.blob_bytes(5, b"12345").unwrap();
        w.blob(4).unwrap();
        w.bin(b"").unwrap();
        w.uint(7).unwrap();
        assert_eq!(w.finish(), Ok(w.position()));
        let want: &[u8] = &[
            0x0B, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, b'1', b'2', 0x82, b'3', b'4', 0x81, b'5', //
            0x0B, 0, 0, 0, 0, 0, 0, 0, 4, 0x85, b'1', b'2', b'3', b'4', b'5', 0x80, //
            0x0B, 0, 0, 0, 0, 0, 0, 0, 4, 0x80, //
            0x0C, 0x81, 7,
        ];
        assert_eq!(w.written(), want);
    }

    #[test]
    fn atoms_replay_a_parsed_document() {
        let want = reference(nested);
        let mut buf = vec![0u8; want.len()];
        let mut w = Writer::new(&mut buf);
        let mut off = 0;
        while off < want.len() {
            let (a, n) = atom::decode(&want[off..]).unwrap();
            w.atom(&a).unwrap();
            off += n;
        }
        assert_eq!(w.finish(), Ok(want.len()));
        assert_eq!(w.written(), want);
    }

    #[test]
    fn sort_of_many_keys() {
        // 300 keys in reverse and scrambled order give the in-order bytes.
        let keys: Vec<std::string::String> = (0..300u32).map(|i| std::format!("k{i}")).collect();
        let mut sorted = keys.clone();
        sorted.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
        let run = |order: &[std::string::String], sorted_map: bool| {
            let mut buf = vec![0u8; 8192];
            let mut w = Writer::new(&mut buf);
            if sorted_map {
                w.map_sorted().unwrap();
            } else {
                w.map().unwrap();
            }
            for k in order {
                w.str(k).unwrap();
                w.list().unwrap();
                w.str(k).unwrap();
                w.eoc().unwrap();
            }
            w.eoc().unwrap();
            let n = w.finish().unwrap();
            buf.truncate(n);
            buf
        };
        let want = run(&sorted, false);
        let mut scrambled = keys.clone();
        scrambled.reverse();
        assert_eq!(run(&scrambled, true), want);
        scrambled.sort_by_key(|k| k.bytes().rev().collect::<Vec<u8>>());
        assert_eq!(run(&scrambled, true), want);
        assert_eq!(run(&sorted, true), want);
    }
}
