//! What a serializer keeps beside its output: the open MAPs' entries and
//! states, the reordering space and the field plans. With `std` a thread
//! hands them from one document to the next, so that a program writing
//! many documents learns its struct types' plans once and allocates this
//! space once, not per document; without `std` each document starts
//! afresh.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::map::{Entry, MapState};
use crate::serde::plan::Plans;

/// A buffer of more capacity than this many bytes is freed, not kept for
/// the thread's next document (one very large document does not leave its
/// space held for good).
#[cfg(feature = "std")]
const KEEP_BYTES: usize = 64 * 1024;

/// The space and plans of one serializer (see the module documentation).
#[derive(Default)]
pub(super) struct Workspace {
    pub entries: Vec<Entry>,
    pub starts: Vec<usize>,
    pub order: Vec<(Entry, usize)>,
    pub scratch: Vec<u8>,
    pub stashed: Vec<(Entry, usize)>,
    pub stash: Vec<u8>,
    pub plans: Plans,
    pub recorded: Vec<&'static str>,
    pub maps: Vec<MapState>,
}

/// Where a serializer puts its workspace back when it is done: the box
/// the thread kept it in (reused, so that handing it back allocates
/// nothing), if it took one.
pub(super) type Spare = Option<Box<Workspace>>;

#[cfg(feature = "std")]
std::thread_local! {
    /// The workspace of the thread's last document, while no serializer
    /// has it (one nested in another's `Serialize` starts afresh).
    static KEPT: core::cell::Cell<Spare> = const { core::cell::Cell::new(None) };
}

/// The thread's kept workspace, or a new one.
pub(super) fn take() -> (Workspace, Spare) {
    #[cfg(feature = "std")]
    if let Ok(Some(mut kept)) = KEPT.try_with(core::cell::Cell::take) {
        let ws = core::mem::take(&mut *kept);
        return (ws, Some(kept));
    }
    (Workspace::default(), None)
}

/// Keeps `ws` for the thread's next document (in `spare`, or a new box),
/// emptied, its large buffers freed.
pub(super) fn keep(ws: Workspace, spare: Spare) {
    #[cfg(feature = "std")]
    {
        let mut ws = ws;
        ws.clear();
        let mut kept = spare.unwrap_or_default();
        *kept = ws;
        // A thread being torn down keeps nothing.
        let _ = KEPT.try_with(|k| k.set(Some(kept)));
    }
    #[cfg(not(feature = "std"))]
    let _ = (ws, spare);
}

impl Workspace {
    /// Empties the buffers (an error may leave entries behind), freeing
    /// those grown beyond [`KEEP_BYTES`]; the plans stay.
    #[cfg(feature = "std")]
    fn clear(&mut self) {
        fn clear<T>(v: &mut Vec<T>) {
            if v.capacity() * core::mem::size_of::<T>() > KEEP_BYTES {
                *v = Vec::new();
            }
            v.clear();
        }
        clear(&mut self.entries);
        clear(&mut self.starts);
        clear(&mut self.order);
        clear(&mut self.scratch);
        clear(&mut self.stashed);
        clear(&mut self.stash);
        clear(&mut self.recorded);
        clear(&mut self.maps);
    }
}
