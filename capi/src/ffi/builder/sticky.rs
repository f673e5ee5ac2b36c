//! The builder's sticky error: `YACItemsBuildFailure` and
//! `YACItemsBuildReset`.

use super::*;

/// The builder's sticky error: `YACErrNo`, or the first error a build
/// call met, and sets `*call` (if `call` is not NULL) to that call's
/// index: the number of build calls that succeeded before it since
/// `YACItemsInit` (0 without an error). Not a build call itself.
/// `YACErrInvalid` for a NULL `items`.
///
/// Build calls: the adders (`YACItemsAdd` and every `YACItemsAdd...`),
/// the puts (`YACItemsMapPut...`) and the links (`YACItemsInsertAfter`,
/// `YACItemsPrepend`, `YACItemsCursorInsert`, `YACItemsMapAppend`,
/// `YACItemsMapSet`). The first error one of them meets sticks: that call
/// and every later build call return it and change nothing in the tree,
/// the pool (not grown), the arena or their out-parameters: a refused
/// call only records its error, if it is the first. So a tree can be
/// built without checking each call, then checked once here (the
/// returned codes stay exact for code that checks each call).
/// `YACErrNoMem` sticks too: grow the pool or the arena, then
/// `YACItemsBuildReset`. A NULL `items` records nothing. The other calls
/// (parse, reads, removals, encoding) neither look at nor set the sticky
/// error.
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `call` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsBuildFailure(items: *const YACItems, call: *mut u64) -> YACErr {
    // SAFETY: per the contract.
    let Ok(it) = (unsafe { inp(items) }) else {
        return YACErr::YACErrInvalid;
    };
    let failure = it.build_log().failure();
    // SAFETY: `call` NULL or writable (contract).
    if let Some(c) = unsafe { call.as_mut() } {
        *c = failure.map_or(0, |f| u64::from(f.call));
    }
    failure.map_or(YACErr::YACErrNo, |f| f.error.into())
}

/// Forgets the builder's sticky error, so that build calls are taken
/// again. The tree is as the calls left it (every refused call changed
/// nothing). The count of build calls goes on.
///
/// # Safety
/// `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsBuildReset(items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe {
        with_mut(items, |t| {
            t.build_reset();
            Ok(())
        })
    })
}
