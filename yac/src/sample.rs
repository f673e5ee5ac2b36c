//! How much of an exhaustive or randomized test to run: all of it
//! normally, a spread sample under Miri, which interprets every step (some
//! thousand times slower) and is there to find undefined behaviour on the
//! paths the sample takes, not to repeat the coverage of the plain run.

/// `full` normally, `miri` under Miri.
pub(crate) const fn count(full: usize, miri: usize) -> usize {
    if cfg!(miri) {
        miri
    } else {
        full
    }
}

/// The stride of a loop over every value: 1 normally, `miri` (best a
/// prime, so that the sample spreads over bit patterns) under Miri.
pub(crate) const fn stride(miri: usize) -> usize {
    count(1, miri)
}
