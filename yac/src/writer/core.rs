//! The writer's operations over borrowed parts ([`Core`]): what the Rust
//! [`super::Writer`] and the C `struct YACWriter` both run on, in place on
//! their [`State`].

use super::sort::sort_pairs;
use super::state::*;
use crate::atom::{tag, Atom};
use crate::enc;
use crate::error::Error;
use crate::grammar::{self, check_key, Fed, Grammar, NoLevels, State as Expect, Step};
use crate::rules::{key_above, strip_zeros};
use crate::{float, tai64};

/// The flush callback's Rust shape: takes the bytes to pass on; an error
/// becomes the writer's (sticky) error.
pub type Sink<'s> = &'s mut dyn FnMut(&[u8]) -> Result<(), Error>;

capi_internal! {
/// The writer over borrowed parts: what every operation runs on. The Rust
/// [`super::Writer`] and the C `struct YACWriter` both lend their parts to
/// it.
pub struct Core<'x, 's> {
    /// The output buffer.
    pub buf: &'x mut [u8],
    /// The open containers.
    pub levels: &'x mut [Level],
    /// The key area (the keys of open MAPs, for their order).
    pub keys: &'x mut [u8],
    /// Where full buffers go; `None` for a writer without flushing.
    pub sink: Option<Sink<'s>>,
    /// The state between calls.
    pub st: &'x mut State,
}
}

/// What a STR is where it comes.
enum StrRole {
    Value,
    /// A key of the MAP on top of the stack (checked order).
    Key,
    /// A key of a MAP sorted on close.
    SortedKey,
}

/// `len` bytes at `at` in `bytes`, if all there.
fn key_at(bytes: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    bytes.get(at..at.checked_add(len)?)
}

/// Copies `src` to the start of `dst`, which is as long by construction
/// (a `zip` copy, which cannot panic, unlike `copy_from_slice`).
#[inline(always)]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

/// Length of the header of a BIN/STR of `len` bytes.
fn string_head_len(len: usize) -> usize {
    enc::string_header(tag::STR, len, &mut [0u8; 9])
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

    /// Records a refusal (it replaces a `NoMem`), with the call and the
    /// offset, and returns it. Every later call goes to the library.
    #[cold]
    fn fail(&mut self, e: Error) -> Error {
        let st = &mut *self.st;
        st.err = e.code();
        st.flags &= !W_ROOM;
        st.err_call = st.hot.calls.wrapping_sub(1);
        st.err_at = st.total();
        st.err_depth = st.hot.depth;
        st.err_top = st.hot.top;
        st.hot.lim = 0;
        e
    }

    /// Refuses with `e` unless `r` is fine.
    #[inline(always)]
    pub(super) fn check<T>(&mut self, r: Result<T, Error>) -> Result<T, Error> {
        r.map_err(|e| self.fail(e))
    }

    // ----- structure -----

    /// The grammar where the writer stands, rebuilt from its state before
    /// a step (the writer keeps its own levels, so the grammar needs
    /// none): the innermost container's state, the depth against the
    /// level array, a BLOB's chunk length. MAP keys are checked with the
    /// grammar's key rule where the writer finds the previous key
    /// ([`Core::str_role`]), so the machine is given none.
    fn grammar(&self) -> Grammar<'static> {
        let h = &self.st.hot;
        let (state, chunk_minus_one) = match h.top {
            T_ROOT | T_ROOT_DONE => (Expect::Top, 0),
            T_BLOB => (Expect::Blob, self.own()),
            t if !is_map(t) => (Expect::List, 0),
            t if t & 1 != 0 => (Expect::MapValue, 0),
            _ => (Expect::MapKey, 0),
        };
        Grammar {
            state,
            depth: h.depth,
            max_depth: u32::try_from(self.levels.len()).unwrap_or(u32::MAX),
            prev_key: &[],
            chunk_minus_one,
        }
    }

    /// Refuses with what the grammar says of `step` unless it takes it
    /// (the writer's one call of the machine).
    #[inline(never)]
    fn feed(&mut self, step: Step<'_>) -> Result<Fed, Error> {
        let r = self.grammar().feed(step, &mut NoLevels);
        self.check(r)
    }

    /// Takes the place of one item that is not a MAP key nor a BLOB chunk
    /// (`step` a container's opening, or [`Step::Leaf`] for any other
    /// item: where a key or a chunk is due, the grammar refuses a STR or
    /// BIN value as it does a leaf): at the top level (one root unless a
    /// sequence is allowed), in a LIST, and as a MAP value. The common
    /// cases (a LIST or a MAP value, and for a container a free level; a
    /// document's root) are decided here as the grammar would, the rest by
    /// the grammar.
    #[inline(always)]
    fn value_slot(&mut self, step: Step<'static>) -> Result<(), Error> {
        let top = self.st.hot.top;
        let opens = matches!(step, Step::List | Step::Map | Step::Blob(_));
        if top & 1 != 0 && (!opens || (self.st.hot.depth as usize) < self.levels.len()) {
            self.st.hot.top = after_value(top);
            return Ok(());
        }
        // A document's root (nothing is open: a container needs a level).
        if top == T_ROOT && (!opens || !self.levels.is_empty()) {
            self.st.hot.top = T_ROOT_DONE;
            return Ok(());
        }
        self.value_slow(step)
    }

    /// [`Core::value_slot`] beyond the common case.
    #[inline(never)]
    fn value_slow(&mut self, step: Step<'static>) -> Result<(), Error> {
        let top = self.st.hot.top;
        if top == T_ROOT_DONE {
            let r = grammar::another_root(self.st.flags & W_SEQ != 0);
            self.check(r)?;
        }
        self.feed(step)?;
        self.st.hot.top = if top & 1 != 0 {
            after_value(top)
        } else {
            T_ROOT_DONE
        };
        Ok(())
    }

    /// Opens a container or BLOB whose opening bytes were just written:
    /// its state becomes `top`, the enclosing one's is saved.
    fn push(&mut self, own: u64, top: u32, key: usize) -> Result<(), Error> {
        let d = self.st.hot.depth as usize;
        let h = self.st.hot;
        match self.levels.get_mut(d) {
            Some(l) => {
                *l = Level {
                    own,
                    key: h.key as u64,
                    key_len: h.key_len as u32,
                    top: h.top,
                }
            }
            // Not met: the grammar checked the depth against the level
            // array.
            None => return Err(self.fail(Error::DeepRecursion)),
        }
        self.st.hot.depth += 1;
        self.st.hot.top = top;
        self.st.hot.key = key;
        self.st.hot.key_len = 0;
        Ok(())
    }

    /// Closes the innermost container: the enclosing one's state comes
    /// back.
    fn pop(&mut self) {
        let d = (self.st.hot.depth as usize).saturating_sub(1);
        let l = self.levels.get(d).copied().unwrap_or_default();
        let h = &mut self.st.hot;
        h.depth = d as u32;
        h.top = l.top;
        h.key = l.key as usize;
        h.key_len = l.key_len as usize;
    }

    /// The innermost container's own fact ([`Level::own`]).
    fn own(&self) -> u64 {
        let d = (self.st.hot.depth as usize).wrapping_sub(1);
        self.levels.get(d).map_or(0, |l| l.own)
    }

    // ----- items -----

    /// Writes one atom that is neither a container, a STR, a BIN nor a
    /// bigint (those have their own paths), after validating it.
    pub fn scalar(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        self.stuck()?;
        let mut head = [0u8; 48];
        let n = self.check(enc::encode(atom, &mut head))?;
        self.value_slot(Step::Leaf)?;
        self.put(head.get(..n).unwrap_or(&[]))
    }

    /// +INT or -INT of a magnitude that fits `u64`.
    #[inline(always)]
    pub fn int(&mut self, t: u8, magnitude: u64) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot(Step::Leaf)?;
        let (w, n) = enc::int_window(t, magnitude);
        self.put_window(&w, n)
    }

    /// A +INT.
    pub fn uint(&mut self, v: u64) -> Result<(), Error> {
        self.int(tag::PINT, v)
    }

    /// A +INT or -INT.
    pub fn sint(&mut self, v: i64) -> Result<(), Error> {
        match enc::nint_magnitude(v) {
            Ok(m) => self.int(tag::NINT, m),
            Err(_) => self.int(tag::PINT, v as u64),
        }
    }

    /// A +INT or -INT of any size, from its big-endian magnitude.
    pub fn bigint(&mut self, negative: bool, magnitude: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot(Step::Leaf)?;
        let m = strip_zeros(magnitude);
        let n = self.check(Atom::Bin(m).encoded_len())?;
        if self.whole(n.saturating_add(1)) {
            self.put(&[if negative { tag::NINT } else { tag::PINT }])?;
            self.string(tag::BIN, m)?;
        }
        Ok(())
    }

    /// A BIN/STR header and payload.
    #[inline(always)]
    fn string(&mut self, base: u8, payload: &[u8]) -> Result<(), Error> {
        let mut head = [0u8; 9];
        let h = enc::string_header(base, payload.len(), &mut head);
        let pos = self.st.hot.pos;
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
            self.st.hot.pos = pos + n;
            return Ok(());
        }
        if self.whole(n) {
            self.put(head.get(..h).unwrap_or(&[]))?;
            self.put(payload)?;
        }
        Ok(())
    }

    /// Where the innermost MAP's keys are kept: the caller's key area, the
    /// buffer used as one (out of room), or `None` (in the buffer as
    /// written).
    fn key_store(&self) -> Option<&[u8]> {
        if !self.keys.is_empty() {
            Some(self.keys)
        } else if self.st.flags & W_BUF_KEYS != 0 {
            Some(self.buf)
        } else {
            None
        }
    }

    /// What the next STR is, with the checks of a key done.
    #[inline(always)]
    fn str_role(&mut self, s: &[u8]) -> Result<StrRole, Error> {
        let top = self.st.hot.top;
        if !is_map(top) || top & 1 != 0 {
            self.value_slot(Step::Leaf)?;
            return Ok(StrRole::Value);
        }
        self.key_role(s, top)
    }

    /// [`Core::str_role`] of a MAP key (out of line: it keeps the value
    /// path's registers free).
    #[inline(never)]
    fn key_role(&mut self, s: &[u8], top: u32) -> Result<StrRole, Error> {
        // (An empty key is never too long: the key rule refuses it.)
        if s.len() > u32::MAX as usize {
            return Err(self.fail(Error::LenTooBig));
        }
        // The previous key where it is still at hand; none for a MAP
        // sorted on close, whose keys are ordered then.
        let (key, len) = (self.st.hot.key, self.st.hot.key_len);
        let prev = match self.key_store() {
            _ if top & SORTED != 0 || len == 0 => None,
            Some(store) => key_at(store, key, len),
            None => key_at(self.buf.get(..self.st.hot.pos).unwrap_or(&[]), key, len),
        };
        let r = check_key(s, prev.unwrap_or(&[]));
        self.check(r)?;
        if top & SORTED != 0 {
            return Ok(StrRole::SortedKey);
        }
        if !self.keys.is_empty() && key.saturating_add(s.len()) > self.keys.len() {
            return Err(self.fail(Error::LenTooBig));
        }
        // Without a key area a flushing writer reads the previous key back
        // from its buffer, so a key must fit there whole: a longer one would
        // go straight to the sink and the next key could not be checked.
        if self.keys.is_empty()
            && self.sink.is_some()
            && self.st.flags & (W_ROOM | W_COUNT) == 0
            && string_head_len(s.len()).saturating_add(s.len()) > self.buf.len()
        {
            return Err(self.fail(Error::NoMem));
        }
        Ok(StrRole::Key)
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
        self.string(tag::STR, s)?;
        // Where the payload landed: read after the write, which may have
        // flushed and moved the buffer's bytes.
        let at = self.st.hot.pos.saturating_sub(s.len());
        match role {
            StrRole::Value => {}
            StrRole::Key => {
                self.st.hot.top |= 1;
                if self.key_store().is_none() {
                    self.st.hot.key = at;
                    self.st.hot.key_len = s.len();
                } else {
                    self.store_key(s);
                }
            }
            StrRole::SortedKey => {
                let h = self.st.hot;
                let in_buf = self.buf.get(..h.pos).unwrap_or(&[]);
                if h.key_len > 0
                    && !key_at(in_buf, h.key, h.key_len).is_some_and(|p| key_above(s, p))
                {
                    self.st.hot.top |= UNSORTED;
                }
                self.st.hot.top |= 1;
                self.st.hot.key = at;
                self.st.hot.key_len = s.len();
            }
        }
        Ok(())
    }

    /// Keeps key `s` in the innermost MAP's slot of the key store. Out of
    /// room without a key area (the buffer is the store), a key that does
    /// not fit leaves the MAP without a previous key.
    fn store_key(&mut self, s: &[u8]) {
        let slot = self.st.hot.key;
        let end = slot.saturating_add(s.len());
        let store: &mut [u8] = if self.keys.is_empty() {
            self.buf
        } else {
            self.keys
        };
        let fits = match store.get_mut(slot..end) {
            Some(d) => {
                copy(d, s);
                true
            }
            None => false,
        };
        self.st.hot.key_len = if fits { s.len() } else { 0 };
        self.st.keys_top = if fits { end as u64 } else { slot as u64 };
    }

    /// A BIN: a value, or a chunk of the BLOB on top.
    pub fn bin(&mut self, b: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        if self.st.hot.top == T_BLOB {
            let full = self.feed(Step::Bin(b.len()))? == Fed::Item;
            self.string(tag::BIN, b)?;
            if !full {
                // The short chunk ends the BLOB.
                self.pop();
            }
            return Ok(());
        }
        self.value_slot(Step::Leaf)?;
        self.string(tag::BIN, b)
    }

    capi_internal! {
    /// A BLOB chunk: `bin` where only a BLOB may be open.
    pub fn chunk(&mut self, b: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        if self.st.hot.top != T_BLOB {
            return Err(self.fail(Error::Invalid));
        }
        self.bin(b)
    }
    }

    /// Opens a LIST, a MAP or a MAP sorted on close (`top` its first
    /// state: `T_LIST`, `T_MAP_KEY`, `T_MAP_KEY | SORTED`).
    #[inline(always)]
    fn open(&mut self, top: u32) -> Result<(), Error> {
        self.stuck()?;
        // The grammar checks the depth against the level array first, so
        // that a refused push writes nothing.
        self.value_slot(if top == T_LIST { Step::List } else { Step::Map })?;
        let own = self.st.total();
        self.put_byte(if top == T_LIST { tag::LIST } else { tag::MAP })?;
        // Where the keys go is known once the tag is written (running out
        // of room makes the buffer the key area). Without a slot, `key`
        // means nothing until the first key and is left as it is, as the
        // inline calls do.
        let (top, key) = match top {
            T_MAP_KEY if self.key_store().is_some() => {
                (T_MAP_KEY | AREA, self.st.keys_top as usize)
            }
            _ => (top, self.st.hot.key),
        };
        self.push(own, top, key)
    }

    /// Opens a LIST.
    pub fn list(&mut self) -> Result<(), Error> {
        self.open(T_LIST)
    }

    /// Opens a MAP whose keys come in order.
    pub fn map(&mut self) -> Result<(), Error> {
        self.open(T_MAP_KEY)
    }

    /// Opens a MAP sorted on close.
    pub fn map_sorted(&mut self) -> Result<(), Error> {
        self.open(T_MAP_KEY | SORTED)
    }

    /// Opens a BLOB of chunks of `chunk_len_minus_one + 1` bytes.
    pub fn blob(&mut self, chunk_len_minus_one: u64) -> Result<(), Error> {
        self.stuck()?;
        self.value_slot(Step::Blob(chunk_len_minus_one))?;
        let mut head = [0u8; 9];
        head[0] = tag::BLOB;
        copy(
            head.get_mut(1..).unwrap_or(&mut []),
            &chunk_len_minus_one.to_be_bytes(),
        );
        self.put(&head)?;
        let key = self.st.hot.key;
        self.push(chunk_len_minus_one, T_BLOB, key)
    }

    /// Closes the innermost LIST or MAP (EOC), whatever its kind.
    pub fn close(&mut self) -> Result<(), Error> {
        self.close_kind(None)
    }

    /// Closes the innermost container, which must be a MAP (`map` true) or
    /// a LIST (`map` false): else [`Error::WrongClose`].
    pub fn close_checked(&mut self, map: bool) -> Result<(), Error> {
        self.close_kind(Some(map))
    }

    fn close_kind(&mut self, map: Option<bool>) -> Result<(), Error> {
        self.stuck()?;
        let top = self.st.hot.top;
        if let Some(map) = map {
            let r = self.grammar().check_close(map);
            self.check(r)?;
        }
        self.feed(Step::Eoc)?;
        if top & UNSORTED != 0 {
            self.sort(self.own())?;
        }
        self.put_byte(tag::EOC)?;
        if is_map(top) && top & SORTED == 0 && self.key_store().is_some() {
            self.st.keys_top = self.st.hot.key as u64;
        }
        self.pop();
        Ok(())
    }

    /// Sorts the pairs of the MAP sorted on close whose tag is at stream
    /// position `start`, if all of it is in the buffer; a duplicate key is
    /// refused and the MAP is taken back out of the buffer.
    #[cold]
    #[inline(never)]
    fn sort(&mut self, start: u64) -> Result<(), Error> {
        if self.st.flags & (W_ROOM | W_COUNT) != 0 || start < self.st.flushed {
            return Ok(());
        }
        let tag_at = usize::try_from(start - self.st.flushed).unwrap_or(usize::MAX);
        let pos = self.st.hot.pos;
        let region = self.buf.get_mut(tag_at.saturating_add(1)..pos);
        if let Err(e) = sort_pairs(region.unwrap_or(&mut [])) {
            // The MAP goes back out of the buffer, tag included.
            self.st.hot.pos = tag_at.min(pos);
            return Err(self.fail(e));
        }
        Ok(())
    }

    /// Checks that the document is balanced, flushes everything, and
    /// returns the total size (the size needed after `NoMem`). The next
    /// item starts a new document.
    pub fn finish(&mut self) -> Result<u64, Error> {
        self.stuck()?;
        let r = self.grammar().finish();
        self.check(r)?;
        if self.st.flags & (W_ROOM | W_COUNT) == 0 && self.sink.is_some() {
            self.flush_some()?;
        }
        self.st.hot.top = T_ROOT;
        if self.st.flags & W_ROOM != 0 {
            return Err(Error::NoMem);
        }
        Ok(self.st.total())
    }

    // ----- the other atoms -----

    /// NIL.
    pub fn nil(&mut self) -> Result<(), Error> {
        self.scalar(&Atom::Nil)
    }

    /// TRUE or FALSE.
    pub fn bool(&mut self, v: bool) -> Result<(), Error> {
        self.scalar(&Atom::Bool(v))
    }

    /// A HEXLET.
    pub fn hexlet(&mut self, h: &[u8; 16]) -> Result<(), Error> {
        self.scalar(&Atom::Hexlet(h))
    }

    /// A float, in the shortest width that keeps its value.
    pub fn float(&mut self, v: f64) -> Result<(), Error> {
        self.stuck()?;
        let mut b = [0u8; 8];
        let n = self.check(float::shortest(v, &mut b))?;
        self.scalar(&Atom::Float(b.get(..n).unwrap_or(&[])))
    }

    /// A TAI64N label of a UTC time: seconds since the Unix epoch and nanoseconds.
    pub fn tai64_utc(&mut self, unix: i64, nsec: u32) -> Result<(), Error> {
        self.stuck()?;
        let mut label = [0u8; 16];
        let n = self.check(tai64::utc_to_label(unix, nsec, &mut label))?;
        self.scalar(&Atom::Tai64(label.get(..n).unwrap_or(&[])))
    }

    /// A MAGIC of exactly 12 bytes (pad a shorter one with zero bytes
    /// yourself): before a document's root, where it does not count as
    /// the root; elsewhere, an item.
    pub fn magic(&mut self, magic: &[u8]) -> Result<(), Error> {
        self.stuck()?;
        let m = self.check(enc::exact_magic(magic))?;
        let top = self.st.hot.top;
        let r = self.scalar(&Atom::Magic(m));
        if r.is_ok() && self.st.hot.depth == 0 {
            self.st.hot.top = top;
        }
        r
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
