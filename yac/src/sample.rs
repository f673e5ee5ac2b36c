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

/// The values `0..n`: all of them normally; under Miri every `miri`-th
/// (best a prime) and the last, so that both ends are taken.
#[cfg(test)]
pub(crate) fn spread(n: usize, miri: usize) -> impl Iterator<Item = usize> {
    let step = stride(miri);
    (0..n).filter(move |&i| i % step == 0 || i + 1 == n)
}
