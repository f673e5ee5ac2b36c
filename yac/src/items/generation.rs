//! Edit generations: the word a [`super::Cursor`] carries to prove it was
//! made for the tree as it is now.
//!
//! Every new tree ([`super::Items::new`], the C layer's `YACItemsInit`),
//! every edit that unlinks a node and every [`super::Items::clear`] takes
//! a generation no earlier one in the process took: they all draw from one
//! process-wide counter. So a cursor from before any of these events, of
//! this tree or of a tree that was set up over the same pool earlier, never
//! matches (until 2^32 draws have wrapped the counter). A per-tree counter
//! cannot promise that: re-initialising a tree restarts it.
//!
//! Targets with atomic read-modify-write (every hosted one, Cortex-M3 and
//! up) draw with one `fetch_add`. Targets without it (Cortex-M0/M0+,
//! ARMv6-M, has no LDREX/STREX) draw with an atomic load and store: two
//! draws that preempt each other (an interrupt handler setting up or
//! editing a tree while the interrupted code does too) may then take the
//! same generation, and the counter may step back. There the promise holds
//! for programs that do not draw from interrupt handlers while the code
//! they interrupt is drawing; a cursor that then matches by accident can
//! still only name nodes of the pool it is used with. A critical section
//! would close the gap, but masking interrupts is the application's
//! decision, not the library's.

use core::sync::atomic::{AtomicU32, Ordering};

/// The next generation to hand out.
static NEXT: AtomicU32 = AtomicU32::new(1);

/// A generation that no earlier draw in this process returned (until the
/// counter wraps after 2^32 draws). Relaxed: the value only has to be
/// unique; it orders no other memory.
#[cfg(target_has_atomic = "32")]
#[inline]
pub(super) fn fresh() -> u32 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// As above, for targets without atomic read-modify-write (see the module
/// docs for what that costs).
#[cfg(not(target_has_atomic = "32"))]
#[inline]
pub(super) fn fresh() -> u32 {
    let g = NEXT.load(Ordering::Relaxed);
    NEXT.store(g.wrapping_add(1), Ordering::Relaxed);
    g
}

#[cfg(test)]
mod tests {
    use super::fresh;

    #[test]
    fn draws_differ() {
        let a = fresh();
        let b = fresh();
        assert_ne!(a, b);
    }
}
