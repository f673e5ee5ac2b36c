//! What a tree remembers between build calls: the first error met (which
//! then sticks, so that a program building a tree call by call may check
//! once at the end), the index of the call that met it, and where the
//! last in-order MAP put ended, so that the next put of a larger key
//! appends in O(1).
//!
//! The C layer keeps it in the reserved words of `struct YACItems`
//! ([`BuildLog::to_words`]).

use super::{Items, NONE};
use crate::error::Error;

/// The builder's memory between calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildLog {
    /// Build calls that succeeded so far: the index of the next call
    /// (saturating).
    calls: u32,
    /// The sticky error's code ([`Error::code`]), 0 while none.
    error: u32,
    /// The MAP whose last pair the last put appended, `NONE` when no such
    /// hint is kept.
    pub(super) tail_map: u32,
    /// That pair's key node (its value is the node after it).
    pub(super) tail_key: u32,
}

/// Where a build call failed: the error that sticks and the call's index,
/// the number of build calls that succeeded before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildFailure {
    /// The refusal.
    pub error: Error,
    /// The index of the refused call among the build calls.
    pub call: u32,
}

impl BuildLog {
    /// No call made, no error, no hint.
    pub const EMPTY: BuildLog = BuildLog {
        calls: 0,
        error: 0,
        tail_map: NONE,
        tail_key: NONE,
    };

    /// How many `u32` words [`to_words`](Self::to_words) gives.
    pub const WORDS: usize = 4;

    /// The log as plain words, for storage outside Rust.
    pub const fn to_words(self) -> [u32; Self::WORDS] {
        [self.calls, self.error, self.tail_map, self.tail_key]
    }

    /// The log stored by [`to_words`](Self::to_words).
    pub const fn from_words(w: [u32; Self::WORDS]) -> Self {
        let [calls, error, tail_map, tail_key] = w;
        BuildLog {
            calls,
            error,
            tail_map,
            tail_key,
        }
    }

    /// The sticky failure, if any.
    pub fn failure(&self) -> Option<BuildFailure> {
        Error::from_code(self.error).map(|error| BuildFailure {
            error,
            call: self.calls,
        })
    }

    /// Forgets the append hint (the tree changed under it).
    pub(super) fn drop_hint(&mut self) {
        self.tail_map = NONE;
        self.tail_key = NONE;
    }
}

impl<'a, S> Items<'a, S> {
    /// The first error a build call ([`Items::build_call`]) met, which
    /// sticks, and that call's index; `None` while every call succeeded.
    pub fn build_failure(&self) -> Option<BuildFailure> {
        self.log.failure()
    }

    /// Forgets the sticky build error, so that build calls are taken
    /// again. The tree is as the calls left it: every refused call changed
    /// nothing. The count goes on (a refused call did not count: the next
    /// call takes its index).
    pub fn build_reset(&mut self) {
        self.log.error = 0;
    }

    /// The builder's memory (the C layer keeps it in `struct YACItems`).
    #[doc(hidden)] // For the C library (capi/src/ffi/items.rs); not Rust API.
    pub fn build_log(&self) -> BuildLog {
        self.log
    }
}

impl<'a, 'p> Items<'a, &'p mut [crate::items::Item]> {
    /// Runs `f` as one build call: refused with the sticky error (nothing
    /// run) once one stuck; otherwise an error `f` returns sticks with this
    /// call's index, and a success counts. `f` must change nothing when it
    /// fails (every edit and adder here does), so that a refused call
    /// changes nothing but the log.
    pub fn build_call<R>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<R, Error>,
    ) -> Result<R, Error> {
        if let Some(stuck) = self.log.failure() {
            return Err(stuck.error);
        }
        match f(self) {
            Ok(r) => {
                self.log.calls = self.log.calls.saturating_add(1);
                Ok(r)
            }
            Err(e) => {
                self.log.error = e.code();
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::Item;

    #[test]
    fn first_error_sticks_with_its_call_index() {
        let mut pool = [Item::default(); 4];
        let mut items = Items::new(&mut pool);
        let map = items.build_call(|t| t.add_map()).unwrap();
        let v = items.build_call(|t| t.add_uint(1)).unwrap();
        assert_eq!(items.build_failure(), None);
        let e = items.build_call(|t| t.map_put(map, "", v));
        assert_eq!(e, Err(Error::MapBadKey));
        let len = items.len();
        // Refused with the first error, running nothing.
        assert_eq!(
            items.build_call(|t| t.add_nil()),
            Err(Error::MapBadKey),
            "sticks"
        );
        assert_eq!(items.len(), len, "a refused call makes no node");
        assert_eq!(
            items.build_failure(),
            Some(BuildFailure {
                error: Error::MapBadKey,
                call: 2
            })
        );
        items.build_reset();
        assert_eq!(items.build_failure(), None);
        assert_eq!(items.build_call(|t| t.map_put(map, "a", v)), Ok(None));
    }

    #[test]
    fn words_round_trip() {
        let log = BuildLog {
            calls: 7,
            error: 3,
            tail_map: 1,
            tail_key: 2,
        };
        assert_eq!(BuildLog::from_words(log.to_words()), log);
        assert_eq!(BuildLog::EMPTY.failure(), None);
    }
}
