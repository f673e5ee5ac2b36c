//! C API of the tree, output: `YACItemsEncode`, `YACItemsEncodedLen` and
//! the walk (`YACItemsWalkInit`, `YACItemsWalkNext`).

use super::*;

/// Writes the subtree at `idx` at `buf[*off]` (room: `cap - *off`) and
/// advances `*off`. The output is canonical: parse then encode gives the
/// input back byte for byte, and edited trees are checked (MAP key order
/// and pairing, BLOB chunks). On `YACErrNoMem` `*off` is unchanged and the
/// bytes after it are unspecified; `YACItemsEncodedLen` gives the size.
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `off` writable; `buf` writable for
/// `cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsEncode(
    items: *const YACItems,
    idx: u32,
    off: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (off, buf) = unsafe { (out(off)?, output(buf, cap)?) };
        let room = buf.get_mut(*off..).ok_or(YACErr::YACErrInvalid)?;
        let n = unsafe { with_ref(items, |t| t.encode(idx, room))? };
        *off += n;
        Ok(())
    })
}

/// Sets `*len` to the number of bytes `YACItemsEncode` writes for `idx`.
///
/// # Safety
/// `len` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsEncodedLen(
    len: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter(len, items, |t| t.encoded_len(idx)) })
}

/// Starts a walk of the subtree at `root` (document order, MAP keys before
/// values, constant memory: no recursion at any depth).
///
/// # Safety
/// `walk` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsWalkInit(
    walk: *mut YACWalk,
    items: *const YACItems,
    root: u32,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (w, it) = unsafe { (out(walk)?, inp(items)?) };
        w.set_state(WalkState::new(root, it.len as usize));
        Ok(())
    })
}

/// Next step of a walk: `*event` (`YACWalkEnd` when over), `*idx` the node
/// and `*depth` its nesting depth (the root is at 0). A broken tree gives
/// `YACErrInvalid` and ends the walk.
///
/// # Safety
/// Out-pointers writable; `walk` from `YACItemsWalkInit` on this `items`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsWalkNext(
    event: *mut YACWalkEvent,
    idx: *mut u32,
    depth: *mut u32,
    walk: *mut YACWalk,
    items: *const YACItems,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (event, idx, depth, w) = unsafe { (out(event)?, out(idx)?, out(depth)?, out(walk)?) };
        let mut state = w.state();
        let step = unsafe { with_ref(items, |t| t.walk_step(&mut state)) };
        w.set_state(state);
        let step = step?;
        let (e, n, d) = match step {
            None => (YACWalkEvent::YACWalkEnd, NONE, 0),
            Some((Event::Leaf(n), d)) => (YACWalkEvent::YACWalkLeaf, n, d),
            Some((Event::Enter(n), d)) => (YACWalkEvent::YACWalkEnter, n, d),
            Some((Event::Exit(n), d)) => (YACWalkEvent::YACWalkExit, n, d),
        };
        (*event, *idx, *depth) = (e, n, d);
        Ok(())
    })
}
