//! Validation without a tree: everything [`Items::parse`] checks, with no
//! node pool.
//!
//! [`validate`] accepts exactly the documents the parser accepts, with the
//! same options, and rejects the others with the same error at the same
//! offset: every atom fully decoded (UTF-8 unless `trust_utf8`, minimal
//! forms, TAI64, MAGIC), balanced containers, BLOB chunks, MAP keys (a
//! non-empty STR, strictly above the previous key, a value after each) and
//! `max_depth`. It also says how many nodes the parse would take.
//!
//! Its memory is the caller's `levels` slice, one word per nesting level
//! below the root (a flat LIST or MAP needs none): what the parent of each
//! open container was, and for a MAP where the key of the current pair
//! starts, so that the next key can be compared with it when the value
//! closes. The loop keeps everything else in locals; there is no recursion.
//!
//! The common atoms are taken from a 16-byte window of the input, as in the
//! parser's fast loop (`items/fast.rs`); anything else, and every error,
//! goes through the exact decode, which is the parser's own
//! (`atom::decode`, `atom::string_raw`, `utf8::check_str`). The rules that
//! are not per atom have one home each, shared with the parser: MAP key
//! order is `rules::key_above`, BLOB chunk fit `rules::chunk_fits`.
//! `tests/validate.rs` holds the validator and the parser together.
//!
//! [`Items::parse`]: crate::items::Items::parse

use crate::atom::{self, tag, Class};
use crate::error::Error;
use crate::grammar::{self, Fed, Grammar, State, Step, WordLevels, PARENT_LIST};
use crate::rules::{key_above, Options};
use crate::utf8::{self, StrBatch};

/// Validates one whole item at `buf[*off..]` exactly as
/// [`Items::parse`](crate::items::Items::parse) with options `opts` would,
/// without building its tree, and returns how many nodes that parse takes.
/// On success `*off` is past the item; on error it is at the offending atom
/// (for `NotEnough`, the incomplete one), as the parser leaves it.
///
/// `levels` is the memory for nesting: one word per level below the root.
/// A document nested deeper than `levels.len() + 1` gives `Err(NoMem)` (at
/// the container that would not fit), unless `opts.max_depth` stops it
/// first with `DeepRecursion`, as in the parser. An `*off` beyond `buf` is
/// `Err(Invalid)`.
///
/// ```
/// use keks::items::Options;
/// use keks::validate::validate;
/// let doc = [0x09, 0xC1, b'a', 0x08, 0x00, 0x00]; // MAP {"a": []}
/// let mut levels = [0usize; 8];
/// let mut off = 0;
/// assert_eq!(validate(&doc, &mut off, &mut levels, Options::default()), Ok(3));
/// assert_eq!(off, doc.len());
/// let bad = [0x09, 0xC1, b'b', 0x01, 0xC1, b'a', 0x01, 0x00]; // keys out of order
/// off = 0;
/// assert_eq!(validate(&bad, &mut off, &mut levels, Options::default()),
///            Err(keks::Error::MapUnordered));
/// assert_eq!(off, 4);
/// ```
pub fn validate(
    buf: &[u8],
    off: &mut usize,
    levels: &mut [usize],
    opts: Options,
) -> Result<usize, Error> {
    if *off > buf.len() {
        return Err(Error::Invalid);
    }
    let mut v = Validator::new(buf, *off, opts, true);
    let r = v.run(levels);
    *off = v.pos;
    r
}

/// The counting pass behind [`count_nodes`](crate::items::count_nodes):
/// [`validate`] without the MAP key rules (a MAP is checked as a LIST:
/// no key type, order or pairing), so that it needs no memory at all.
/// Every atom is checked (UTF-8 included), and the nesting, BLOB chunks
/// and `max_depth` (0 = no limit). Returns the node count and the item's
/// length.
pub fn count(buf: &[u8], max_depth: u32) -> Result<(usize, usize), Error> {
    let mut off = 0;
    let nodes = count_at(buf, &mut off, max_depth)?;
    Ok((nodes, off))
}

/// [`count`] of the item at `buf[*off..]`, saying where it stopped as
/// [`validate`] does: on success `*off` is past the item, on error at the
/// offending atom (for `NotEnough`, the incomplete one). Returns the node
/// count. An `*off` beyond `buf` is `Err(Invalid)`.
pub fn count_at(buf: &[u8], off: &mut usize, max_depth: u32) -> Result<usize, Error> {
    if *off > buf.len() {
        return Err(Error::Invalid);
    }
    let opts = Options {
        max_depth,
        trust_utf8: false,
    };
    let mut v = Validator::new(buf, *off, opts, false);
    let r = v.run(&mut []);
    *off = v.pos;
    r
}

/// The validator's state, kept in locals by the loop.
struct Validator<'a> {
    buf: &'a [u8],
    /// Offset of the next atom.
    pos: usize,
    /// Nodes the parse would have made so far.
    nodes: usize,
    /// Decides every structural question; the fast loop keeps its fields
    /// in registers and writes them back when it stops.
    g: Grammar<'a>,
    trust_utf8: bool,
    /// Whether the MAP key rules are checked (else a MAP is fed to the
    /// grammar as a LIST, and `levels` is not used).
    keys: bool,
}

impl<'a> Validator<'a> {
    fn new(buf: &'a [u8], pos: usize, opts: Options, keys: bool) -> Self {
        Validator {
            buf,
            pos,
            nodes: 0,
            g: Grammar::new(opts.max_depth),
            trust_utf8: opts.trust_utf8,
            keys,
        }
    }

    /// The atom loop: the fast loop takes the common atoms, the exact path
    /// the rest one at a time, through the grammar. `self.pos` is left at
    /// the next atom on success and at the offending one on error.
    fn run(&mut self, levels: &mut [usize]) -> Result<usize, Error> {
        loop {
            // Feature `size-first`: the exact path alone.
            let fast = !cfg!(feature = "size-first");
            if fast && self.fast(levels) {
                return Ok(self.nodes);
            }
            let rest = self.buf.get(self.pos..).unwrap_or(&[]);
            let (step, used) = match rest.first_chunk::<16>().filter(|_| fast) {
                Some(w) => match self.window(w, rest) {
                    Some(s) => s,
                    None => self.exact(rest)?,
                },
                None => self.exact(rest)?,
            };
            let fed = if self.keys {
                let words = &mut *levels;
                let buf = self.buf;
                self.g.feed(step, &mut WordLevels { buf, words })?
            } else if step == Step::Map {
                self.g.feed_alone(Step::List)?
            } else {
                self.g.feed_alone(step)?
            };
            // The nodes of the parse: a BLOB header takes two, EOC none.
            self.nodes += match step {
                Step::Eoc => 0,
                Step::Blob(_) => 2,
                _ => 1,
            };
            self.pos += used;
            if fed == Fed::Done {
                return Ok(self.nodes);
            }
        }
    }

    /// The common atoms of a complete, valid window `w` (the first 16 bytes
    /// of `rest`), exactly as [`Self::exact`] takes them; `None` for
    /// anything else.
    #[inline(always)]
    fn window(&self, w: &[u8; 16], rest: &'a [u8]) -> Option<(Step<'a>, usize)> {
        let t = w[0];
        match t {
            tag::EOC => Some((Step::Eoc, 1)),
            tag::NIL | tag::FALSE | tag::TRUE => Some((Step::Leaf, 1)),
            tag::LIST => Some((Step::List, 1)),
            tag::MAP => Some((Step::Map, 1)),
            tag::PINT | tag::NINT => atom::window_int_len(w).map(|used| (Step::Leaf, used)),
            tag::BIN..=0xFF => {
                let (head, n) = atom::window_string_header(w)?;
                let body = rest.get(head..head + n)?;
                if t < tag::STR {
                    return Some((Step::Bin(n), head + n));
                }
                if !self.trust_utf8 && !utf8::window_str_ok(w, body) {
                    return None;
                }
                Some((Step::Str(body), head + n))
            }
            _ => None,
        }
    }

    /// Any atom, exactly as the parser decodes it (`decode_step` in
    /// `items/parse.rs`): BIN and STR through `atom::string_raw` and, for
    /// STR unless trusted, `utf8::check_str`; every other tag through
    /// `atom::decode`.
    #[inline(never)]
    fn exact(&self, rest: &'a [u8]) -> Result<(Step<'a>, usize), Error> {
        let t = *rest.first().ok_or(Error::NotEnough(1))?;
        if t >= tag::BIN {
            let (body, used) = atom::string_raw(rest)?;
            if t >= tag::STR {
                if !self.trust_utf8 {
                    utf8::check_str(body)?;
                }
                return Ok((Step::Str(body), used));
            }
            return Ok((Step::Bin(body.len()), used));
        }
        let (a, used) = atom::decode(rest)?;
        Ok((Step::of(&a), used))
    }
}

/// The fast loop's state, in locals.
#[derive(Clone, Copy)]
struct Regs<'a> {
    /// The input from the next atom on.
    rest: &'a [u8],
    nodes: usize,
    /// Open containers (at least 1 in the loop).
    depth: usize,
    prev_key: &'a [u8],
    /// Offset of the last MAP key atom.
    key_at: usize,
    in_map: bool,
    /// In a MAP: the value of the last key is due.
    val_due: bool,
}

/// What a value atom at the window's start is, for the fast loop.
enum Val {
    /// A complete, valid leaf of this many bytes.
    Leaf(usize),
    /// LIST (`false`) or MAP (`true`).
    Open(bool),
    /// EOC.
    Close,
    /// Anything else: the exact path.
    Slow,
}

/// What closing a container returned to.
enum Closed {
    /// It was the root: the document is complete.
    Root,
    /// A LIST.
    List,
    /// A MAP (a key is due).
    Map,
    /// Leave it to the exact path.
    Slow,
}

impl<'a> Validator<'a> {
    /// Runs the fast loop from the current state, inside a LIST or MAP;
    /// `true` when it completed the document. It stops, with the state
    /// saved, at any atom it does not take; whatever it takes, the exact
    /// path would have taken in the same way (it skips work, never a check).
    #[inline(always)]
    fn fast(&mut self, levels: &mut [usize]) -> bool {
        let g = self.g;
        let (in_map, val_due) = match g.state {
            State::List => (false, false),
            State::MapKey => (true, false),
            State::MapValue => (true, true),
            State::Top | State::Blob => return false,
        };
        // One bound for both limits: with d containers open, another may
        // open when d <= room, that is when d < max_depth and (with the
        // MAP key rules) `levels[d - 1]` exists.
        let room =
            (g.max_depth as usize - 1).min(if self.keys { levels.len() } else { usize::MAX });
        let levels_len = if self.keys { room } else { 0 };
        let (Some(levels), Some(rest)) = (levels.get_mut(..levels_len), self.buf.get(self.pos..))
        else {
            return false;
        };
        let mut r = Regs {
            rest,
            nodes: self.nodes,
            depth: g.depth as usize,
            prev_key: g.prev_key,
            // Only read while a value is due: then the key is in `buf`.
            key_at: if val_due {
                grammar::key_atom_at(self.buf, g.prev_key)
            } else {
                0
            },
            in_map,
            val_due,
        };
        let mut strs = StrBatch::new();
        let b = &mut strs;
        let mut done = match (self.trust_utf8, self.keys) {
            (true, true) => fast_loop::<true, true>(self.buf, levels, room, &mut r, b),
            (false, true) => fast_loop::<false, true>(self.buf, levels, room, &mut r, b),
            (_, false) => fast_loop::<false, false>(self.buf, levels, room, &mut r, b),
        };
        self.pos = self.buf.len() - r.rest.len();
        if !strs.finish() {
            // A STR the loop took is bad: the exact path reports the first
            // one.
            if let Some(at) = atom::first_refused(rest) {
                self.pos = self.buf.len() - rest.len() + at;
                done = false;
            }
        }
        self.nodes = r.nodes;
        self.g.depth = r.depth as u32;
        self.g.prev_key = r.prev_key;
        self.g.state = match (done, r.in_map, r.val_due) {
            (true, _, _) => State::Top,
            (false, false, _) => State::List,
            (false, true, false) => State::MapKey,
            (false, true, true) => State::MapValue,
        };
        done
    }
}

/// The fast loop: one inner loop per kind of open container, so that a
/// LIST item never asks whether a MAP key is due. `TRUST`: skip the STR
/// checks (`trust_utf8`). `KEYS`: check the MAP key rules (else a MAP is a
/// LIST). With `room`, the depth bound: another container may open when
/// at most `room` are; `levels` (with `KEYS`) holds `room` words.
#[inline(always)]
fn fast_loop<'a, const TRUST: bool, const KEYS: bool>(
    buf: &'a [u8],
    levels: &mut [usize],
    room: usize,
    r: &mut Regs<'a>,
    b: &mut StrBatch,
) -> bool {
    let mut s = *r;
    let done = 'outer: loop {
        if !s.in_map {
            loop {
                let Some(w) = s.rest.first_chunk::<16>() else {
                    break 'outer false;
                };
                match value::<TRUST>(w, s.rest, b) {
                    Val::Leaf(used) => {
                        s.rest = skip(s.rest, used);
                        s.nodes += 1;
                    }
                    Val::Open(is_map) => {
                        if !open::<KEYS>(levels, room, &mut s, PARENT_LIST, is_map) {
                            break 'outer false;
                        }
                        if KEYS && is_map {
                            continue 'outer;
                        }
                    }
                    Val::Close => match close::<KEYS>(buf, levels, &mut s) {
                        Closed::Root => break 'outer true,
                        Closed::List => {}
                        Closed::Map => continue 'outer,
                        Closed::Slow => break 'outer false,
                    },
                    Val::Slow => break 'outer false,
                }
            }
        }
        // In a MAP.
        loop {
            if s.val_due {
                let Some(w) = s.rest.first_chunk::<16>() else {
                    break 'outer false;
                };
                match value::<TRUST>(w, s.rest, b) {
                    Val::Leaf(used) => {
                        s.rest = s.rest.get(used..).unwrap_or_default();
                        s.nodes += 1;
                        s.val_due = false;
                    }
                    Val::Open(is_map) => {
                        let key_at = s.key_at;
                        if !open::<KEYS>(levels, room, &mut s, key_at, is_map) {
                            break 'outer false;
                        }
                        s.val_due = false;
                        if !is_map {
                            continue 'outer;
                        }
                        continue;
                    }
                    // EOC after a key is MapNoVal: the exact path says so.
                    Val::Close | Val::Slow => break 'outer false,
                }
            }
            let Some(w) = s.rest.first_chunk::<16>() else {
                break 'outer false;
            };
            if w[0] == tag::EOC {
                match close::<KEYS>(buf, levels, &mut s) {
                    Closed::Root => break 'outer true,
                    Closed::List => continue 'outer,
                    Closed::Map => continue,
                    Closed::Slow => break 'outer false,
                }
            }
            // A key: a STR of 1 to 60 bytes in the fast loop.
            let n = usize::from(w[0].wrapping_sub(tag::STR));
            if !(1..=60).contains(&n) {
                break 'outer false;
            }
            let Some((key, tail)) = s.rest.get(1..).and_then(|b| b.split_at_checked(n)) else {
                break 'outer false;
            };
            if (!TRUST && !b.window_key(w, key))
                || (!s.prev_key.is_empty() && !key_above(key, s.prev_key))
            {
                break 'outer false;
            }
            s.prev_key = key;
            s.key_at = buf.len() - s.rest.len();
            s.rest = tail;
            s.nodes += 1;
            s.val_due = true;
        }
    };
    *r = s;
    done
}

/// `rest` after the `used` bytes of an atom the loop took from it (so
/// `used <= rest.len()`): the `min` lets the compiler cut without a
/// check of its own, where `get` would test and select twice.
#[inline(always)]
fn skip(rest: &[u8], used: usize) -> &[u8] {
    rest.split_at(used.min(rest.len())).1
}

/// The value atom at the window `w`, the start of `rest`.
#[inline(always)]
fn value<const TRUST: bool>(w: &[u8; 16], rest: &[u8], b: &mut StrBatch) -> Val {
    match atom::class(w[0]) {
        Class::Pint | Class::Nint => match atom::window_int_len(w) {
            Some(used) => Val::Leaf(used),
            None => Val::Slow,
        },
        Class::List => Val::Open(false),
        Class::Map => Val::Open(true),
        Class::Eoc => Val::Close,
        Class::Nil | Class::False | Class::True => Val::Leaf(1),
        Class::Bin => match atom::window_string_header(w) {
            Some((head, n)) if rest.get(head..head + n).is_some() => Val::Leaf(head + n),
            _ => Val::Slow,
        },
        Class::Str => {
            let Some((head, n)) = atom::window_string_header(w) else {
                return Val::Slow;
            };
            let Some(body) = rest.get(head..head + n) else {
                return Val::Slow;
            };
            if !TRUST && !b.window_str(w, body) {
                return Val::Slow;
            }
            Val::Leaf(head + n)
        }
        Class::Other => Val::Slow,
    }
}

/// Opens a LIST or MAP as the next child (with `KEYS`, `parent` goes to
/// `levels`, and a MAP is one). `false`, with nothing changed, when the
/// depth bound `room` (`levels`' length with `KEYS`) leaves no room.
#[inline(always)]
fn open<const KEYS: bool>(
    levels: &mut [usize],
    room: usize,
    s: &mut Regs<'_>,
    parent: usize,
    is_map: bool,
) -> bool {
    if KEYS {
        let Some(slot) = levels.get_mut(s.depth.wrapping_sub(1)) else {
            return false;
        };
        *slot = parent;
    } else if s.depth > room {
        return false;
    }
    s.depth += 1;
    s.nodes += 1;
    s.rest = s.rest.get(1..).unwrap_or_default();
    s.prev_key = &[];
    s.in_map = KEYS && is_map;
    true
}

/// Closes the innermost container at the EOC that starts `s.rest`.
#[inline(always)]
fn close<'a, const KEYS: bool>(buf: &'a [u8], levels: &[usize], s: &mut Regs<'a>) -> Closed {
    if !KEYS {
        if s.depth == 1 {
            return close_root(s);
        }
        s.depth -= 1;
        s.rest = skip(s.rest, 1);
        return Closed::List;
    }
    // At depth 1 (the root) the index wraps to no level: one test for
    // both.
    let Some(&parent) = levels.get(s.depth.wrapping_sub(2)) else {
        return if s.depth == 1 {
            close_root(s)
        } else {
            Closed::Slow
        };
    };
    if parent == PARENT_LIST {
        s.depth -= 1;
        s.rest = skip(s.rest, 1);
        s.in_map = false;
        return Closed::List;
    }
    // Back in a MAP: the next key is compared with the one before the
    // container.
    let Some((key, _)) = buf.get(parent..).and_then(|k| atom::string_raw(k).ok()) else {
        return Closed::Slow;
    };
    s.prev_key = key;
    s.key_at = parent;
    s.depth -= 1;
    s.rest = skip(s.rest, 1);
    s.in_map = true;
    s.val_due = false;
    Closed::Map
}

/// Closes the root container at the EOC that starts `s.rest`.
#[inline(always)]
fn close_root(s: &mut Regs<'_>) -> Closed {
    s.depth = 0;
    s.rest = skip(s.rest, 1);
    Closed::Root
}
