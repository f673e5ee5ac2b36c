//! The format's structural grammar: a pushdown machine, fed one atom at a
//! time, that decides every structural error: what may stand where (one
//! root; LIST items; MAP keys and values; BLOB chunks), MAP key type and
//! order, a MAP closed after a key, an EOC with nothing open, BLOB chunk
//! lengths and the terminator, the depth limit, and running out of level
//! storage.
//!
//! It needs no heap and never recurses. What it must remember of the
//! containers outside the innermost one (is it a LIST, or a MAP and which
//! key is the child the value of) is kept wherever the caller chooses,
//! through the small [`Levels`] trait: a slice of keys, the validator's
//! words over its input ([`WordLevels`]), a `Vec` (feature `alloc`), or a
//! structure of the caller's own (the tree's nodes, the writer's levels).
//! A flat document (no container inside a container) needs no levels.
//!
//! The caller decodes each atom (any decode error comes first), turns it
//! into a [`Step`] and feeds it; the grammar answers with what happened
//! ([`Fed`]) or the [`Error`], which is the error of that atom: callers
//! report it at the atom's offset. On an error nothing changed, so a step
//! refused for want of room ([`Error::NoMem`]) can be fed again later.
//!
//! ```
//! use keks::grammar::{Fed, Grammar, Step};
//! use keks::Error;
//! let mut g = Grammar::new(0);
//! let mut levels: [Option<&[u8]>; 4] = [None; 4];
//! assert_eq!(g.feed(Step::Map, &mut levels[..]), Ok(Fed::Open));
//! assert_eq!(g.feed(Step::Str(b"b"), &mut levels[..]), Ok(Fed::Key));
//! assert_eq!(g.feed(Step::Leaf, &mut levels[..]), Ok(Fed::Item));
//! assert_eq!(g.feed(Step::Str(b"a"), &mut levels[..]), Err(Error::MapUnordered));
//! assert_eq!(g.feed(Step::Eoc, &mut levels[..]), Ok(Fed::Done));
//! ```

use crate::atom::{self, Atom};
use crate::enc;
use crate::error::Error;
use crate::rules::{chunk_fits, key_above};

/// What the key rule says of an item where a MAP key is due that is not
/// a non-empty STR.
pub const NOT_A_KEY: Error = Error::MapBadKey;

/// What the key rule says of a key that does not sort above the one
/// before it; for a MAP sorted after the fact (the writer's sorted MAPs),
/// that is a duplicate found while sorting.
pub const UNORDERED_KEY: Error = Error::MapUnordered;

/// What a BLOB says of an item that is not a BIN chunk: a BLOB holds BIN
/// chunks up to its terminating short one, nothing else.
pub const NOT_A_CHUNK: Error = Error::BlobBadTerm;

/// What a BLOB held whole (the tree's, whose chunks are its children)
/// says of a chunk after its short last one: fed as a stream, that chunk
/// would stand outside the closed BLOB, so the BLOB has one too many.
pub const CHUNK_AFTER_LAST: Error = Error::BlobBadChunk;

/// The MAP key rule, for every user that holds a MAP's previous key
/// itself (serde, the writer, the edits) as for the machine: `key` (empty
/// for an item that is not a STR) may follow `prev` (empty before the
/// first key) when it is a non-empty STR that sorts above `prev`.
#[inline(always)]
pub fn check_key(key: &[u8], prev: &[u8]) -> Result<(), Error> {
    if key.is_empty() {
        return Err(NOT_A_KEY);
    }
    if !prev.is_empty() && !key_above(key, prev) {
        return Err(UNORDERED_KEY);
    }
    Ok(())
}

/// What the grammar says of an item after a complete root: the root of
/// the next document when the caller takes a sequence of documents, else
/// a second root, refused.
#[inline]
pub fn another_root(sequence: bool) -> Result<(), Error> {
    if sequence {
        Ok(())
    } else {
        Err(Error::SecondRoot)
    }
}

/// The depth limit: the depth after one more container opens at `depth`
/// open containers, with `max_depth` at most (`u32::MAX`: no limit). The
/// machine's own check, for a user whose levels are its call stack and
/// that asks only this of it when a container opens (serde).
#[inline(always)]
pub(crate) fn deeper(depth: u32, max_depth: u32) -> Result<u32, Error> {
    if depth >= max_depth {
        return Err(Error::DeepRecursion);
    }
    Ok(depth + 1)
}

/// One atom as the grammar sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A scalar other than BIN and STR.
    Leaf,
    /// A BIN of this many bytes: a value, or a BLOB chunk.
    Bin(usize),
    /// A STR (its payload): a value, or a MAP key.
    Str(&'a [u8]),
    /// LIST.
    List,
    /// MAP.
    Map,
    /// A BLOB header: its chunk length minus one.
    Blob(u64),
    /// EOC.
    Eoc,
}

impl<'a> Step<'a> {
    /// The step of a decoded atom.
    pub fn of(atom: &Atom<'a>) -> Step<'a> {
        match *atom {
            Atom::Eoc => Step::Eoc,
            Atom::List => Step::List,
            Atom::Map => Step::Map,
            Atom::Blob {
                chunk_len_minus_one,
            } => Step::Blob(chunk_len_minus_one),
            Atom::Bin(b) => Step::Bin(b.len()),
            Atom::Str(s) => Step::Str(s.as_bytes()),
            _ => Step::Leaf,
        }
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fed {
    /// A MAP key: its value is due.
    Key,
    /// A value, or a full BLOB chunk: the container stays open.
    Item,
    /// A LIST, MAP or BLOB opened.
    Open,
    /// The innermost container closed (an EOC, or a BLOB's last chunk),
    /// inside another one.
    Close,
    /// The root item is complete (a scalar, or the root container closed).
    /// The grammar is back at the top: what comes next is another root.
    Done,
}

/// What the innermost open container expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Nothing open: the next atom is a root.
    Top,
    /// In a LIST: an item or EOC.
    List,
    /// In a MAP: a key or EOC.
    MapKey,
    /// In a MAP: the value of the last key.
    MapValue,
    /// In a BLOB: BIN chunks.
    Blob,
}

/// Where the grammar keeps, for each container that has a child container
/// open, what it was: a LIST (`None`), or a MAP and the key whose value
/// the child is (`Some(key)`). Level `depth` belongs to the container open
/// at nesting depth `depth + 1` (the root is depth 1 and has no level: a
/// flat document needs none).
pub trait Levels<'a> {
    /// Keeps `parent` at level `depth`; `Err(NoMem)` (or the caller's own
    /// error: the writer says `DeepRecursion`), with nothing changed, when
    /// there is no room for it.
    fn push(&mut self, depth: usize, parent: Option<&'a [u8]>) -> Result<(), Error>;
    /// What [`Levels::push`] kept at level `depth`.
    fn pop(&mut self, depth: usize) -> Result<Option<&'a [u8]>, Error>;
}

/// Levels in a slice of keys (two words each).
impl<'a> Levels<'a> for [Option<&'a [u8]>] {
    #[inline]
    fn push(&mut self, depth: usize, parent: Option<&'a [u8]>) -> Result<(), Error> {
        *self.get_mut(depth).ok_or(Error::NoMem)? = parent;
        Ok(())
    }
    #[inline]
    fn pop(&mut self, depth: usize) -> Result<Option<&'a [u8]>, Error> {
        self.get(depth).copied().ok_or(Error::Invalid)
    }
}

/// No levels: for a user that rebuilds the grammar from its own state
/// before each step (the tree's parser: its nodes link to their parents)
/// or checks one container by itself (the tree encoder). Closing a
/// container then forgets what its parent was: the grammar says LIST,
/// which such a user never reads.
pub struct NoLevels;

impl<'a> Levels<'a> for NoLevels {
    #[inline]
    fn push(&mut self, _: usize, _: Option<&'a [u8]>) -> Result<(), Error> {
        Ok(())
    }
    #[inline]
    fn pop(&mut self, _: usize) -> Result<Option<&'a [u8]>, Error> {
        Ok(None)
    }
}

/// Levels in a growing `Vec` (no `NoMem` but the allocator's).
#[cfg(feature = "alloc")]
impl<'a> Levels<'a> for alloc::vec::Vec<Option<&'a [u8]>> {
    fn push(&mut self, depth: usize, parent: Option<&'a [u8]>) -> Result<(), Error> {
        self.truncate(depth);
        if self.len() != depth {
            return Err(Error::Invalid);
        }
        self.push(parent);
        Ok(())
    }
    fn pop(&mut self, depth: usize) -> Result<Option<&'a [u8]>, Error> {
        let parent = self.get(depth).copied().ok_or(Error::Invalid)?;
        self.truncate(depth);
        Ok(parent)
    }
}

/// Marks a level whose container is a LIST in [`WordLevels`] (offsets
/// are below `isize::MAX`).
pub(crate) const PARENT_LIST: usize = usize::MAX;

/// The offset in `buf` of the STR atom whose payload `key` is (a slice of
/// `buf`): the atom starts its header's length before the payload, and a
/// length has exactly one header.
#[inline]
pub(crate) fn key_atom_at(buf: &[u8], key: &[u8]) -> usize {
    let head = enc::string_header_len(key.len());
    (key.as_ptr() as usize)
        .wrapping_sub(buf.as_ptr() as usize)
        .wrapping_sub(head)
}

/// Levels in one word each, for documents in one buffer `buf` whose keys
/// are payloads inside it (as the decoder gives them): a level keeps the
/// offset of its key's atom, which is decoded again when the level is
/// popped. The validator's memory.
pub struct WordLevels<'l, 'a> {
    /// The document's input.
    pub buf: &'a [u8],
    /// One word per level.
    pub words: &'l mut [usize],
}

impl<'a> Levels<'a> for WordLevels<'_, 'a> {
    #[inline]
    fn push(&mut self, depth: usize, parent: Option<&'a [u8]>) -> Result<(), Error> {
        let word = match parent {
            None => PARENT_LIST,
            Some(key) => key_atom_at(self.buf, key),
        };
        *self.words.get_mut(depth).ok_or(Error::NoMem)? = word;
        Ok(())
    }
    #[inline]
    fn pop(&mut self, depth: usize) -> Result<Option<&'a [u8]>, Error> {
        let at = *self.words.get(depth).ok_or(Error::Invalid)?;
        if at == PARENT_LIST {
            return Ok(None);
        }
        let key_atom = self.buf.get(at..).ok_or(Error::Invalid)?;
        Ok(Some(atom::string_raw(key_atom)?.0))
    }
}

/// The machine: the state of the innermost container, the depth, and
/// that container's previous key or chunk length. `'a` is the lifetime of
/// the keys fed to it.
///
/// The fields are open to the crate: a fast loop keeps them in registers
/// and writes them back when it hands over, and a user that keeps its
/// state in plain words between calls (the incremental parser, the
/// writer) rebuilds the machine from them, the previous key included.
#[derive(Clone, Copy, Debug)]
pub struct Grammar<'a> {
    pub(crate) state: State,
    /// Open containers.
    pub(crate) depth: u32,
    /// The depth limit, `u32::MAX` for none.
    pub(crate) max_depth: u32,
    /// In a MAP: its previous key, empty before the first.
    pub(crate) prev_key: &'a [u8],
    /// In a BLOB: its chunk length minus one.
    pub(crate) chunk_minus_one: u64,
}

impl<'a> Grammar<'a> {
    /// A grammar at the top, with `max_depth` open containers at most
    /// (0: no limit).
    pub const fn new(max_depth: u32) -> Self {
        Grammar {
            state: State::Top,
            depth: 0,
            max_depth: if max_depth == 0 { u32::MAX } else { max_depth },
            prev_key: &[],
            chunk_minus_one: 0,
        }
    }

    /// The grammar inside a container that expects `state`, at `depth`
    /// open containers: for a user that keeps its levels itself (on its
    /// call stack, in its nodes) and asks the machine about one step
    /// there. `prev_key` is the MAP's previous key (empty before the
    /// first, or when no key is due).
    #[inline]
    pub(crate) fn at(state: State, depth: u32, max_depth: u32, prev_key: &'a [u8]) -> Self {
        Grammar {
            state,
            depth,
            prev_key,
            ..Grammar::new(max_depth)
        }
    }

    /// The grammar of a BLOB read by itself, with `chunk_minus_one` as its
    /// chunk length minus one: its full chunks are [`Fed::Item`], its last
    /// one [`Fed::Done`].
    #[inline]
    pub fn blob(chunk_minus_one: u64) -> Self {
        Grammar {
            chunk_minus_one,
            ..Grammar::at(State::Blob, 1, 0, &[])
        }
    }

    /// The same grammar with the MAP's previous key forgotten, so that
    /// it borrows nothing: the next key is then checked as a first one
    /// (for `from_reader`, whose input grows under the keys).
    #[cfg(all(feature = "serde", feature = "std"))]
    #[inline]
    pub(crate) fn without_key(self) -> Grammar<'static> {
        Grammar {
            state: self.state,
            depth: self.depth,
            max_depth: self.max_depth,
            prev_key: &[],
            chunk_minus_one: self.chunk_minus_one,
        }
    }

    /// What the innermost container expects.
    #[inline]
    pub fn state(&self) -> State {
        self.state
    }

    /// Open containers.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The end of the input (the writer's finish): refused with
    /// `Unclosed` while a container or BLOB is open.
    #[inline]
    pub fn finish(&self) -> Result<(), Error> {
        if self.state == State::Top {
            Ok(())
        } else {
            Err(Error::Unclosed)
        }
    }

    /// Checks an EOC that names the kind of container it closes (a MAP
    /// when `map`, else a LIST), before it is fed: `WrongClose` when the
    /// innermost container is the other kind. (With nothing open, or in a
    /// BLOB, feeding the EOC says what is wrong.)
    #[inline]
    pub fn check_close(&self, map: bool) -> Result<(), Error> {
        let other = match self.state {
            State::List => map,
            State::MapKey | State::MapValue => !map,
            State::Top | State::Blob => false,
        };
        if other {
            Err(Error::WrongClose)
        } else {
            Ok(())
        }
    }

    /// [`Grammar::feed`] with [`NoLevels`]: one machine for every user
    /// that needs no levels.
    pub fn feed_alone(&mut self, step: Step<'a>) -> Result<Fed, Error> {
        self.feed(step, &mut NoLevels)
    }

    /// Feeds one step. On an error nothing changed.
    #[inline]
    pub fn feed<L: Levels<'a> + ?Sized>(
        &mut self,
        step: Step<'a>,
        levels: &mut L,
    ) -> Result<Fed, Error> {
        if self.state == State::Blob {
            let Step::Bin(len) = step else {
                return Err(NOT_A_CHUNK);
            };
            return if chunk_fits(len, self.chunk_minus_one)? {
                Ok(Fed::Item)
            } else {
                self.close(levels)
            };
        }
        let key_due = self.state == State::MapKey;
        match step {
            Step::Eoc => match self.state {
                State::Top => Err(Error::UnexpectedEoc),
                State::MapValue => Err(Error::MapNoVal),
                _ => self.close(levels),
            },
            Step::Str(key) if key_due => {
                check_key(key, self.prev_key)?;
                self.prev_key = key;
                self.state = State::MapValue;
                Ok(Fed::Key)
            }
            _ if key_due => Err(NOT_A_KEY),
            Step::Leaf | Step::Bin(_) | Step::Str(_) => Ok(self.value_done()),
            Step::List => self.open(State::List, levels),
            Step::Map => self.open(State::MapKey, levels),
            Step::Blob(chunk_minus_one) => {
                self.open(State::Blob, levels)?;
                self.chunk_minus_one = chunk_minus_one;
                Ok(Fed::Open)
            }
        }
    }

    /// After a complete value in the innermost container.
    #[inline]
    fn value_done(&mut self) -> Fed {
        match self.state {
            State::Top => Fed::Done,
            State::MapValue => {
                self.state = State::MapKey;
                Fed::Item
            }
            _ => Fed::Item,
        }
    }

    /// Opens a container expecting `state`: checks the depth and keeps the
    /// enclosing container's level.
    #[inline]
    fn open<L: Levels<'a> + ?Sized>(&mut self, state: State, levels: &mut L) -> Result<Fed, Error> {
        let depth = deeper(self.depth, self.max_depth)?;
        if self.state != State::Top {
            let parent = (self.state == State::MapValue).then_some(self.prev_key);
            // Not at the top: at least one container is open.
            levels.push((self.depth as usize).wrapping_sub(1), parent)?;
        }
        self.depth = depth;
        self.state = state;
        self.prev_key = &[];
        Ok(Fed::Open)
    }

    /// Closes the innermost container and returns to the enclosing one.
    #[inline]
    fn close<L: Levels<'a> + ?Sized>(&mut self, levels: &mut L) -> Result<Fed, Error> {
        let depth = self.depth.checked_sub(1).ok_or(Error::Invalid)?;
        if depth == 0 {
            *self = Grammar {
                depth,
                state: State::Top,
                prev_key: &[],
                ..*self
            };
            return Ok(Fed::Done);
        }
        let (state, prev_key) = match levels.pop(depth as usize - 1)? {
            None => (State::List, &[][..]),
            // The container was a MAP value: the next key is compared
            // with the key before it.
            Some(key) => (State::MapKey, key),
        };
        self.depth = depth;
        self.state = state;
        self.prev_key = prev_key;
        Ok(Fed::Close)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{format, vec, vec::Vec};

    use super::*;

    /// Feeds `steps` to a fresh grammar with `room` levels; the results.
    fn run(max_depth: u32, room: usize, steps: &[Step<'_>]) -> Vec<Result<Fed, Error>> {
        let mut g = Grammar::new(max_depth);
        let mut levels = vec![None; room];
        steps.iter().map(|s| g.feed(*s, &mut levels[..])).collect()
    }

    #[test]
    fn every_structural_error() {
        use Step::*;
        let cases: [(&[Step<'_>], Error); 9] = [
            (&[Eoc], Error::UnexpectedEoc),
            (&[Map, Leaf], Error::MapBadKey),
            (&[Map, Str(b"")], Error::MapBadKey),
            (&[Map, List], Error::MapBadKey),
            (&[Map, Str(b"b"), Leaf, Str(b"a")], Error::MapUnordered),
            (&[Map, Str(b"a"), Leaf, Str(b"a")], Error::MapUnordered),
            (&[Map, Str(b"a"), Eoc], Error::MapNoVal),
            (&[Blob(1), Bin(3)], Error::BlobBadChunk),
            (&[Blob(1), Eoc], Error::BlobBadTerm),
        ];
        for (steps, want) in cases {
            let got = run(0, 4, steps);
            assert_eq!(got.last(), Some(&Err(want)), "{steps:?}");
            assert!(got[..got.len() - 1].iter().all(Result::is_ok), "{steps:?}");
        }
        assert_eq!(run(2, 4, &[List, List, List])[2], Err(Error::DeepRecursion));
        assert_eq!(run(0, 1, &[List, List, List])[2], Err(Error::NoMem));
        assert_eq!(run(0, 1, &[List, List, List])[1], Ok(Fed::Open));
    }

    #[test]
    fn typed_closes_the_end_and_a_second_root() {
        use Step::*;
        let mut g = Grammar::new(0);
        assert_eq!(g.check_close(true), Ok(()));
        assert_eq!(g.finish(), Ok(()));
        assert_eq!(g.feed_alone(List), Ok(Fed::Open));
        assert_eq!(g.check_close(true), Err(Error::WrongClose));
        assert_eq!(g.check_close(false), Ok(()));
        assert_eq!(g.finish(), Err(Error::Unclosed));
        assert_eq!(g.feed_alone(Map), Ok(Fed::Open));
        assert_eq!(g.check_close(false), Err(Error::WrongClose));
        assert_eq!(g.feed_alone(Str(b"k")), Ok(Fed::Key));
        assert_eq!(g.check_close(false), Err(Error::WrongClose));
        assert_eq!(g.check_close(true), Ok(()));
        assert_eq!(g.feed_alone(Blob(0)), Ok(Fed::Open));
        assert_eq!(g.check_close(true), Ok(()));
        assert_eq!(g.check_close(false), Ok(()));
        assert_eq!(another_root(true), Ok(()));
        assert_eq!(another_root(false), Err(Error::SecondRoot));
    }

    #[test]
    fn keys_come_back_after_a_child_container() {
        use Step::*;
        let got = run(
            0,
            2,
            &[Map, Str(b"b"), Map, Str(b"z"), Leaf, Eoc, Str(b"a")],
        );
        assert_eq!(got[5], Ok(Fed::Close));
        assert_eq!(got[6], Err(Error::MapUnordered));
        let got = run(0, 2, &[Map, Str(b"b"), List, Eoc, Str(b"c"), Leaf, Eoc]);
        assert!(got[..6].iter().all(Result::is_ok));
        assert_eq!(got[6], Ok(Fed::Done));
    }

    #[test]
    fn blob_chunks_end_with_a_short_one() {
        use Step::*;
        let got = run(0, 0, &[Blob(2), Bin(3), Bin(3), Bin(0)]);
        assert_eq!(
            got,
            [Ok(Fed::Open), Ok(Fed::Item), Ok(Fed::Item), Ok(Fed::Done)]
        );
        let got = run(0, 1, &[List, Blob(2), Bin(1), Eoc]);
        assert_eq!(got[2], Ok(Fed::Close));
        assert_eq!(got[3], Ok(Fed::Done));
    }

    #[test]
    fn errors_change_nothing() {
        use Step::*;
        let mut g = Grammar::new(0);
        let mut none: [Option<&[u8]>; 0] = [];
        assert_eq!(g.feed(List, &mut none[..]), Ok(Fed::Open));
        let before = format!("{g:?}");
        assert_eq!(g.feed(List, &mut none[..]), Err(Error::NoMem));
        assert_eq!(format!("{g:?}"), before);
        let mut one = [None];
        assert_eq!(g.feed(List, &mut one[..]), Ok(Fed::Open));
    }

    #[test]
    fn without_levels_a_closed_container_returns_to_a_list() {
        use Step::*;
        let mut g = Grammar::new(0);
        for s in [Map, Str(b"k"), List, Eoc] {
            assert!(g.feed_alone(s).is_ok(), "{s:?}");
        }
        assert_eq!(g.state(), State::List);
        assert_eq!(g.feed_alone(Eoc), Ok(Fed::Done));
    }

    #[test]
    fn word_levels_find_the_key_again() {
        // MAP {"k": [ ]} then a key "a" out of order, with the key
        // payload inside the buffer.
        let buf = [0x09, 0xC1, b'k', 0x08, 0x00, 0xC1, b'a', 0x01, 0x00];
        let mut words = [0usize; 1];
        let mut levels = WordLevels {
            buf: &buf,
            words: &mut words,
        };
        let mut g = Grammar::new(0);
        assert_eq!(g.feed(Step::Map, &mut levels), Ok(Fed::Open));
        assert_eq!(g.feed(Step::Str(&buf[2..3]), &mut levels), Ok(Fed::Key));
        assert_eq!(g.feed(Step::List, &mut levels), Ok(Fed::Open));
        assert_eq!(levels.words[0], 1);
        assert_eq!(g.feed(Step::Eoc, &mut levels), Ok(Fed::Close));
        assert_eq!(
            g.feed(Step::Str(&buf[6..7]), &mut levels),
            Err(Error::MapUnordered)
        );
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn vec_levels_grow() {
        use Step::*;
        let mut g = Grammar::new(0);
        let mut levels = Vec::new();
        for _ in 0..100 {
            assert_eq!(g.feed(Map, &mut levels), Ok(Fed::Open));
            assert_eq!(g.feed(Str(b"k"), &mut levels), Ok(Fed::Key));
        }
        assert_eq!(g.feed(Leaf, &mut levels), Ok(Fed::Item));
        for _ in 0..99 {
            assert_eq!(g.feed(Eoc, &mut levels), Ok(Fed::Close));
        }
        assert_eq!(g.feed(Eoc, &mut levels), Ok(Fed::Done));
    }
}
