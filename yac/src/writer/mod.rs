//! The streaming writer: whole documents, canonical by construction.
//!
//! [`Writer`] appends items one after another and keeps a stack of the open
//! containers, so that it can refuse, with an error and before writing a
//! byte of it, whatever would make the output invalid or non-canonical: a
//! MAP key that is not a non-empty STR or is not above the previous key
//! (length first, then bytewise), a MAP closed after a key, a close with
//! nothing open or of the other kind of container, a second root item
//! (unless a sequence of documents is allowed), a BLOB chunk that does not
//! fit the chunk length, an item inside a BLOB, nesting deeper than its
//! level array. Each of those is decided by [`crate::grammar`], rebuilt
//! from the writer's state at each call. The atoms themselves are
//! validated and encoded by [`crate::enc`].
//!
//! Output goes to a buffer; or to a buffer that a flush callback empties
//! (to stream into a file or socket through a small buffer); or nowhere,
//! only counted. The first error sticks: every later call returns it and
//! does nothing, and [`Writer::failure`] tells which call it was and at
//! what output offset. Running out of room ([`Error::NoMem`]) is the
//! exception: the writer then writes nothing more but keeps counting and
//! checking (the call itself succeeds), so that [`Writer::finish`] reports
//! `NoMem` and [`Writer::position`] the exact size the document needs (a
//! refusal found later replaces `NoMem`: a document that cannot be written
//! at any size says why). The buffer's content is then unspecified.
//! [`Writer::finish`] also refuses containers or a BLOB left open
//! ([`Error::Unclosed`]).
//!
//! # Where the previous MAP key is kept
//! To check a key, the writer compares it with the MAP's previous key. That
//! key is read from the caller's key area when one is given (each open MAP
//! keeps its last key there: [`keys_size`] gives the size from the deepest
//! nesting and the longest key; a key that does not fit gives
//! [`Error::LenTooBig`]), else from the output buffer. In the latter case a
//! flushing writer never flushes an open MAP's last key, so a large value
//! under a MAP fills the buffer ([`Error::NoMem`]), and so does a key longer
//! than the buffer (refused at the key): streams of MAPs want a key area. A writer without a key area that runs out of room uses its
//! buffer as one from then on, so key order stays checked while the open
//! MAPs' last keys fit in the buffer. A count-only writer checks key order
//! only with a key area.
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
//! use keks::writer::Writer;
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map().unwrap();
//! w.str("b").unwrap();
//! w.uint(1).unwrap();
//! assert_eq!(w.str("a"), Err(keks::Error::MapUnordered)); // nothing written
//! assert_eq!(w.finish(), Err(keks::Error::MapUnordered)); // it sticks
//! assert_eq!(w.failure().map(|f| (f.call, f.offset)), Some((3, 6)));
//!
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map_sorted().unwrap();
//! w.str("b").unwrap();
//! w.uint(1).unwrap();
//! w.str("a").unwrap();
//! w.nil().unwrap();
//! w.map_close().unwrap();
//! assert_eq!(w.finish(), Ok(10));
//! assert_eq!(w.written(), &[0x09, 0xC1, b'a', 0x01, 0xC1, b'b', 0x0C, 0x81, 0x01, 0x00]);
//! ```

mod core;
mod output;
mod sort;
mod state;
#[cfg(test)]
mod tests;

pub use self::core::Sink;
capi_internal! {
pub use self::core::Core;
}
pub use self::state::{Failure, Hot, Level, State, T_LIST, T_MAP_KEY, T_MAP_VAL};

use crate::atom::Atom;
use crate::error::Error;

/// The size of a key area for documents whose MAPs nest at most `depth`
/// deep with keys of at most `longest_key` bytes: each open MAP keeps its
/// last key in its own slot.
pub const fn keys_size(depth: usize, longest_key: usize) -> usize {
    depth.saturating_mul(longest_key)
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
        let cap = buf.len();
        Writer {
            buf,
            own: [Level::default(); INLINE_LEVELS],
            levels: None,
            keys: &mut [],
            sink: None,
            st: State::new(cap, INLINE_LEVELS, false),
        }
    }

    /// A writer that writes nothing and only counts (see
    /// [`Writer::finish`]): give it a key area to check key order.
    pub fn count_only() -> Self {
        let mut w = Writer::new(&mut []);
        w.st = State::count_only(INLINE_LEVELS, false);
        w
    }

    /// Uses `levels` as the stack of open containers: as deep as the
    /// documents nest (a deeper one gives [`Error::DeepRecursion`]).
    pub fn levels(mut self, levels: &'b mut [Level]) -> Self {
        self.st.hot.max_depth = u32::try_from(levels.len()).unwrap_or(u32::MAX);
        self.levels = Some(levels);
        self
    }

    /// Keeps the open MAPs' previous keys in `keys` (see the module
    /// documentation).
    pub fn keys(mut self, keys: &'b mut [u8]) -> Self {
        self.st.hot.area = !keys.is_empty() as u32;
        self.keys = keys;
        self
    }

    /// Hands the buffer's bytes to `sink` whenever it is full, and at
    /// [`Writer::finish`].
    pub fn flush(mut self, sink: Sink<'b>) -> Self {
        self.sink = Some(sink);
        self
    }

    /// Accepts any number of root items (a sequence of documents); else a
    /// second one is refused with [`Error::SecondRoot`].
    pub fn sequence(mut self) -> Self {
        self.st.allow_sequence();
        self
    }

    /// Runs `f`, one call on the writer, on the core and takes the sink
    /// back.
    #[inline(always)]
    fn run<T>(&mut self, f: impl FnOnce(&mut Core<'_, 'b>) -> T) -> T {
        self.st.count_call();
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
        usize::try_from(self.st.total()).unwrap_or(usize::MAX)
    }

    /// The bytes in the buffer (all that was written, unless flushed;
    /// unspecified after [`Error::NoMem`]).
    pub fn written(&self) -> &[u8] {
        self.buf.get(..self.st.buffered()).unwrap_or(&[])
    }

    /// The sticky error, if any.
    pub fn error(&self) -> Option<Error> {
        self.st.error()
    }

    /// Where the sticky error was met: the refused call's index (counting
    /// every call on the writer from 0) and output offset, and the open
    /// containers then. `None` without an error and for `NoMem`.
    pub fn failure(&self) -> Option<Failure> {
        self.st.failure()
    }

    /// Number of open containers (and BLOBs).
    pub fn depth(&self) -> usize {
        self.st.depth()
    }

    /// Ends the document(s): refuses open containers or BLOB
    /// ([`Error::Unclosed`]), flushes what is left, and returns the total
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

    /// Closes the innermost LIST or MAP (EOC), whatever its kind (for
    /// replaying atoms); [`list_close`](Writer::list_close) and
    /// [`map_close`](Writer::map_close) also check the kind.
    pub fn eoc(&mut self) -> Result<(), Error> {
        self.run(|c| c.close())
    }

    /// Closes the innermost container, which must be a LIST
    /// ([`Error::WrongClose`] otherwise).
    pub fn list_close(&mut self) -> Result<(), Error> {
        self.run(|c| c.close_checked(false))
    }

    /// Closes the innermost container, which must be a MAP (sorted on close
    /// or not; [`Error::WrongClose`] otherwise).
    pub fn map_close(&mut self) -> Result<(), Error> {
        self.run(|c| c.close_checked(true))
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

    /// Appends a MAGIC: "KEKS" then `magic`, exactly 12 bytes (pad a
    /// shorter magic with zero bytes; another length is
    /// [`Error::Invalid`]). Before a document's root it does not count as
    /// the root.
    pub fn magic(&mut self, magic: &[u8]) -> Result<(), Error> {
        self.run(|c| c.magic(magic))
    }
}
