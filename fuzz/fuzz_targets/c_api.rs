//! The extern "C" functions called through Rust as a C program would: a
//! program of calls driven by the input, with legal random pointer/length
//! combinations (valid buffers of any size, NULL with and without a
//! length), bad node indices, offsets past the end, atoms with any type
//! value, a growth callback, and cursors kept across calls (so mostly
//! stale), the builder (typed adders, an arena, MAP puts), `YACItemsFree`
//! and the batch decoder. Every call must return an error code (no panic,
//! no out-of-bounds access under ASan), and the tree must stay sane: `len
//! <= cap`, parsed roots encode back to their bytes, and `YACItemsCheck`
//! passes after every call. Every call that refuses must change nothing:
//! `struct YACItems` (its pool pointer and size aside, which growth may
//! change), the nodes in use, the arena and its memory, and the cursors
//! are compared before and after it (`atomic!`).
#![no_main]

use std::ffi::{c_void, CStr, CString};
use std::ptr::{null, null_mut};

use libfuzzer_sys::fuzz_target;
use yac::items::{BuildLog, FreeList, Item, ParseState, NONE};

/// The sticky error's word in `BuildLog::to_words`.
const BUILD_LOG_ERROR_WORD: usize = 1;
const _: () = assert!(BUILD_LOG_ERROR_WORD < BuildLog::WORDS);
use yac_capi::ffi::atom::{YACAtom, YACAtomDecode, YACAtomsDecode};
use yac_capi::ffi::builder::*;
use yac_capi::ffi::cursor::*;
use yac_capi::ffi::enc::*;
use yac_capi::ffi::items::*;
use yac_capi::ffi::tai64::*;
use yac_capi::ffi::validate::YACValidate;
use yac_capi::ffi::{YACErr, YACErr2Str, YACVersion};
use yac_testkit::input::Input;

/// Old pools stay alive until the end of the run (the tree may still point
/// at them between a failed growth and the next call); freed with `Growth`.
#[derive(Default)]
struct Growth {
    pools: Vec<Vec<Item>>,
    refuse: bool,
}

unsafe extern "C" fn grow(
    ctx: *mut c_void,
    old: *mut Item,
    old_cap: usize,
    new_cap: *mut usize,
) -> *mut Item {
    // SAFETY: ctx is the `Growth` of this run; new_cap is libyac's.
    let g = unsafe { &mut *ctx.cast::<Growth>() };
    if g.refuse {
        return null_mut();
    }
    let want = unsafe { *new_cap };
    assert!(want > old_cap, "growth proposes {want} <= {old_cap}");
    let mut pool = vec![Item::default(); want];
    if old_cap > 0 {
        assert!(!old.is_null());
        // SAFETY: the old pool holds `old_cap` nodes.
        pool[..old_cap].copy_from_slice(unsafe { std::slice::from_raw_parts(old, old_cap) });
    }
    let p = pool.as_mut_ptr();
    g.pools.push(pool);
    p
}

fn ptr_or_null<T>(inp: &mut Input<'_>, p: *mut T) -> *mut T {
    if inp.byte() % 8 == 0 {
        null_mut()
    } else {
        p
    }
}

fn idx(inp: &mut Input<'_>, len: u32) -> u32 {
    let v = inp.below(len as usize + 4) as u32;
    match v.checked_sub(len) {
        None => v,
        Some(0) => NONE,
        Some(1) => u32::MAX - 1,
        Some(2) => len,
        Some(_) => inp.u32(),
    }
}

/// A (pointer, length) pair: a slice of the input, or NULL with length 0,
/// or NULL with a length (must be refused).
fn bytes_arg<'d>(inp: &mut Input<'d>, max: usize) -> (*const u8, usize) {
    match inp.byte() % 16 {
        0 => (null(), 0),
        1 => (null(), 1 + inp.below(8)),
        _ => {
            let s = inp.slice(max);
            (s.as_ptr(), s.len())
        }
    }
}

/// A `struct YACAtom` with any type value; bytes types point at input.
fn raw_atom(inp: &mut Input<'_>) -> std::mem::MaybeUninit<YACAtom> {
    let mut a = std::mem::MaybeUninit::<YACAtom>::zeroed();
    // Any word, the known type values most often.
    let typ = (u32::from(inp.byte() % 24)).wrapping_sub(2);
    let p = a.as_mut_ptr();
    // SAFETY: writes into the zeroed storage; `typ` is a plain word (the C
    // side may put any value there).
    unsafe {
        if inp.bool() {
            let (b, n) = bytes_arg(inp, 40);
            std::ptr::addr_of_mut!((*p).v.bytes.ptr).write(b);
            std::ptr::addr_of_mut!((*p).v.bytes.len).write(n);
        } else {
            std::ptr::addr_of_mut!((*p).v.uint).write(inp.u64());
        }
        std::ptr::addr_of_mut!((*p).typ).write(typ);
        std::ptr::addr_of_mut!((*p).tag).write(inp.byte());
    }
    a
}

fn ok(e: YACErr) -> bool {
    e == YACErr::YACErrNo
}

/// The bytes of `v`.
fn bytes_of<T>(v: &T) -> Vec<u8> {
    // SAFETY: any `T` may be read as bytes (these structs have no padding
    // that libyac leaves unset: they are all words).
    unsafe { std::slice::from_raw_parts((v as *const T).cast::<u8>(), std::mem::size_of::<T>()) }
        .to_vec()
}

/// What a refused call must leave as it was.
#[derive(PartialEq, Eq, Debug)]
struct Snapshot {
    items: Vec<u8>,
    nodes: Vec<u8>,
    arena: Vec<u8>,
    mem: Vec<u8>,
    cursors: Vec<u8>,
}

/// # Safety
/// `it` a live `struct YACItems` whose `list` holds `len` nodes.
unsafe fn snapshot(
    it: *const YACItems,
    arena: &YACArena,
    mem: &[u8],
    cursors: &[YACCursor; 2],
) -> Snapshot {
    // SAFETY: per the contract.
    let items = unsafe { &*it };
    let mut head = bytes_of(items);
    // `list` and `cap` may change on a refusal (the pool grew first).
    let (list_at, cap_at) = (0, 12);
    head[list_at..list_at + 8].fill(0);
    head[cap_at..cap_at + 4].fill(0);
    // A refused build call records its error as the builder's sticky one
    // when none is recorded (yac.h, YACItemsBuildFailure): that word is
    // the one change it may make.
    let error_word = std::mem::offset_of!(YACItems, reserved)
        + 4 * (ParseState::WORDS + FreeList::WORDS + BUILD_LOG_ERROR_WORD);
    head[error_word..error_word + 4].fill(0);
    let nodes = if items.list.is_null() {
        Vec::new()
    } else {
        // SAFETY: the pool holds `len` nodes.
        let used = unsafe { std::slice::from_raw_parts(items.list, items.len as usize) };
        used.iter().flat_map(bytes_of).collect()
    };
    Snapshot {
        items: head,
        nodes,
        arena: bytes_of(arena),
        mem: mem.to_vec(),
        cursors: cursors.iter().flat_map(bytes_of).collect(),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let mut growth = Growth::default();
    // Keys put without an arena are pointed at by the tree (yac.h,
    // YACItemsMapPut), so they live as long as the run.
    let mut keys: Vec<CString> = Vec::new();
    let mut pool = vec![Item::default(); inp.below(40)];
    let mut items = std::mem::MaybeUninit::<YACItems>::zeroed();
    let it = items.as_mut_ptr();
    let mut mem = vec![0u8; inp.below(96)];
    let mut arena = YACArena {
        mem: null_mut(),
        cap: 0,
        len: 0,
    };
    // SAFETY (every call below): pointers are NULL or point at live Rust
    // objects of the right size; the tree's input is `data`, alive for the
    // whole run, and its pool is `pool` or one of `growth.pools`.
    unsafe {
        assert!(ok(YACItemsInit(it, pool.as_mut_ptr(), pool.len())));
        assert_eq!(
            YACItemsInit(null_mut(), pool.as_mut_ptr(), 1),
            YACErr::YACErrInvalid
        );
        assert_eq!(YACItemsInit(it, null_mut(), 1), YACErr::YACErrInvalid);
        let mut buf = vec![0u8; 0];
        let mut steps = 0;
        // A parse left unfinished (NotEnough): an error then rolls back
        // to where that document began, before the current call.
        let mut pending = false;
        let mut cursors = [YACCursor { reserved: [0; 4] }; 2];
        assert!(ok(YACArenaInit(&mut arena, mem.as_mut_ptr(), mem.len())));
        let ar: *mut YACArena = &mut arena;
        // A call that refuses changes nothing (see the module docs).
        macro_rules! atomic {
            ($e:expr) => {{
                let before = snapshot(it, &*ar, &mem, &cursors);
                let r = $e;
                if r != YACErr::YACErrNo {
                    let after = snapshot(it, &*ar, &mem, &cursors);
                    assert!(
                        before == after,
                        "refused with {r:?}, but changed: {before:?} / {after:?}"
                    );
                }
                r
            }};
        }
        while !inp.is_empty() && steps < 200 {
            steps += 1;
            let len = (*it).len;
            let (mut sz, mut sz2, mut u) = (0usize, 0usize, 0u32);
            let op = inp.byte() % 31;
            match op {
                0 => {
                    (*it).maxDepth = u32::from(inp.byte() % 6);
                    (*it).flags = u32::from(inp.byte() % 4);
                    if inp.bool() {
                        (*it).grow = Some(grow);
                        (*it).growCtx = (&mut growth as *mut Growth).cast();
                        growth.refuse = inp.byte() % 4 == 0;
                    } else {
                        (*it).grow = None;
                    }
                }
                1 | 2 => {
                    let (b, n) = bytes_arg(&mut inp, 512);
                    let mut off = inp.below(4);
                    let root = ptr_or_null(&mut inp, &mut u);
                    let before = (*it).len;
                    let e = YACItemsParse(it, root, &mut off, b, n);
                    if ok(e) && !pending {
                        // The root encodes back to the bytes consumed
                        // (when it began in this buffer).
                        let mut m = 0usize;
                        assert!(ok(YACItemsEncodedLen(&mut m, it, u)));
                        let mut out = vec![0u8; m];
                        let mut o = 0;
                        assert!(ok(YACItemsEncode(it, u, &mut o, out.as_mut_ptr(), m)));
                        assert_eq!(o, m);
                        let src = std::slice::from_raw_parts(b, n);
                        assert_eq!(&src[off - m..off], &out[..]);
                    } else if !matches!(e, YACErr::YACErrNotEnough) && !pending {
                        assert_eq!((*it).len, before, "{e:?} left nodes");
                    }
                    if !matches!(e, YACErr::YACErrInvalid) {
                        pending = matches!(e, YACErr::YACErrNotEnough);
                    }
                }
                3 => {
                    if ok(YACItemsAbort(ptr_or_null(&mut inp, it))) {
                        pending = false;
                    }
                }
                4 => {
                    let (b, n) = bytes_arg(&mut inp, 512);
                    let d = u32::from(inp.byte() % 4);
                    let a = ptr_or_null(&mut inp, &mut sz);
                    let _ = YACItemsNodesNeeded(a, &mut sz2, b, n, d);
                }
                5 => {
                    let i = idx(&mut inp, len);
                    let _ = YACItemsType(it, i);
                    let _ = YACItemsFirst(it, i);
                    let _ = YACItemsNext(it, i);
                    let _ = YACItemsNth(it, i, inp.below(6));
                    let _ = YACItemsChildCount(ptr_or_null(&mut inp, &mut sz), it, i);
                    let _ = YACItemsType(null(), i);
                    let _ = YACItemsFirst(null(), i);
                }
                6 => {
                    let i = idx(&mut inp, len);
                    let (b, n) = bytes_arg(&mut inp, 8);
                    let _ = YACItemsMapGetN(it, i, b.cast(), n);
                    if !b.is_null() {
                        let s = std::slice::from_raw_parts(b, n);
                        let c: Vec<u8> = s.iter().copied().filter(|&x| x != 0).collect();
                        let c = CString::new(c).unwrap();
                        let _ = YACItemsMapGet(it, i, c.as_ptr());
                    }
                    let _ = YACItemsMapGet(it, i, null());
                }
                7 => {
                    let i = idx(&mut inp, len);
                    let mut v64 = 0u64;
                    let mut i64v = 0i64;
                    let mut bv = false;
                    let mut d = 0f64;
                    let mut p: *const u8 = null();
                    let mut s: *const std::ffi::c_char = null();
                    let _ = YACItemsGetUint(ptr_or_null(&mut inp, &mut v64), it, i);
                    let _ = YACItemsGetSint(ptr_or_null(&mut inp, &mut i64v), it, i);
                    let _ = YACItemsGetBool(ptr_or_null(&mut inp, &mut bv), it, i);
                    let _ = YACItemsGetFloat(ptr_or_null(&mut inp, &mut d), it, i);
                    if ok(YACItemsGetStr(&mut s, &mut sz, it, i)) {
                        assert!(!s.is_null() || sz == 0);
                    }
                    let _ = YACItemsGetStr(ptr_or_null(&mut inp, &mut s), null_mut(), it, i);
                    if ok(YACItemsGetBin(&mut p, &mut sz, it, i)) {
                        // Read it all: ASan checks the pointer and length.
                        let _ = std::slice::from_raw_parts(p, sz)
                            .iter()
                            .fold(0u8, |a, &x| a ^ x);
                    }
                    if ok(YACItemsGetBytes(&mut p, &mut sz, it, i)) {
                        let _ = std::slice::from_raw_parts(p, sz)
                            .iter()
                            .fold(0u8, |a, &x| a ^ x);
                    }
                    let mut t = 0u64;
                    let _ = YACItemsGetBlob(ptr_or_null(&mut inp, &mut v64), &mut t, it, i);
                }
                8 | 9 => {
                    let a = raw_atom(&mut inp);
                    let ap = if inp.byte() % 16 == 0 {
                        null()
                    } else {
                        a.as_ptr()
                    };
                    if op == 8 {
                        let _ = atomic!(YACItemsAdd(ptr_or_null(&mut inp, &mut u), it, ap));
                    } else {
                        let i = idx(&mut inp, len);
                        let _ = atomic!(YACItemsSetValue(it, i, ap));
                    }
                }
                10 => {
                    // An atom decoded from the input, then added.
                    let (b, n) = bytes_arg(&mut inp, 64);
                    let mut a = std::mem::MaybeUninit::<YACAtom>::zeroed();
                    if ok(YACAtomDecode(&mut sz, a.as_mut_ptr(), b, n)) {
                        assert!(sz >= 1 && sz <= n);
                        let _ = atomic!(YACItemsAdd(&mut u, it, a.as_ptr()));
                    }
                }
                11 => {
                    let (p, q, c) = (idx(&mut inp, len), idx(&mut inp, len), idx(&mut inp, len));
                    let _ = atomic!(YACItemsInsertAfter(it, p, q, c));
                    let _ = atomic!(YACItemsPrepend(it, p, c));
                }
                12 => {
                    let (p, q, c) = (idx(&mut inp, len), idx(&mut inp, len), idx(&mut inp, len));
                    let r = ptr_or_null(&mut inp, &mut u);
                    let _ = atomic!(YACItemsRemove(r, it, p, q));
                    let r = ptr_or_null(&mut inp, &mut u);
                    let _ = atomic!(YACItemsReplace(r, it, p, q, c));
                }
                13 => {
                    let (m, k, v) = (idx(&mut inp, len), idx(&mut inp, len), idx(&mut inp, len));
                    let r = ptr_or_null(&mut inp, &mut u);
                    let _ = atomic!(YACItemsMapSet(r, it, m, k, v));
                    let (b, n) = bytes_arg(&mut inp, 8);
                    let r = ptr_or_null(&mut inp, &mut u);
                    let _ = atomic!(YACItemsMapDel(r, it, m, b.cast(), n));
                }
                14 | 15 => {
                    let i = idx(&mut inp, len);
                    let cap = inp.below(300);
                    buf.resize(cap, 0);
                    let mut off = inp.below(cap + 3);
                    let bp = if cap == 0 && inp.bool() {
                        null_mut()
                    } else {
                        buf.as_mut_ptr()
                    };
                    let before = off;
                    let e = YACItemsEncode(ptr_or_null(&mut inp, it), i, &mut off, bp, cap);
                    assert!(ok(e) || off == before, "{e:?} moved the offset");
                    assert!(off <= cap.max(before));
                    let _ = YACItemsEncodedLen(ptr_or_null(&mut inp, &mut sz), it, i);
                }
                16 => {
                    let root = idx(&mut inp, len);
                    let mut w = std::mem::MaybeUninit::<YACWalk>::zeroed();
                    if ok(YACItemsWalkInit(w.as_mut_ptr(), it, root)) {
                        let mut ev = YACWalkEvent::YACWalkEnd;
                        let (mut n, mut d) = (0u32, 0u32);
                        let mut count = 0usize;
                        loop {
                            let e = YACItemsWalkNext(&mut ev, &mut n, &mut d, w.as_mut_ptr(), it);
                            count += 1;
                            assert!(count <= 2 * len as usize + 4, "walk does not end");
                            if !ok(e) || ev == YACWalkEvent::YACWalkEnd {
                                break;
                            }
                        }
                    }
                    let _ = YACItemsWalkInit(null_mut(), it, root);
                    let _ = YACItemsWalkNext(
                        &mut YACWalkEvent::YACWalkEnd,
                        null_mut(),
                        &mut u,
                        w.as_mut_ptr(),
                        it,
                    );
                }
                17 => {
                    let (b, n) = bytes_arg(&mut inp, 80);
                    let mut a = std::mem::MaybeUninit::<YACAtom>::zeroed();
                    let g = ptr_or_null(&mut inp, &mut sz);
                    let e = YACAtomDecode(g, a.as_mut_ptr(), b, n);
                    if ok(e) {
                        assert!(sz >= 1 && sz <= n);
                    }
                    let _ = YACAtomDecode(&mut sz, null_mut(), b, n);
                }
                18 | 19 => {
                    // The atom encoders, with room of any size or none.
                    let cap = inp.below(80);
                    buf.resize(cap, 0);
                    let bp = if cap == 0 && inp.bool() {
                        null_mut()
                    } else if inp.byte() % 32 == 0 {
                        null_mut()
                    } else {
                        buf.as_mut_ptr()
                    };
                    let l = ptr_or_null(&mut inp, &mut sz);
                    let (b, n) = bytes_arg(&mut inp, 40);
                    let e = match inp.byte() % 17 {
                        0 => YACAtomEOCEncode(l, bp, cap),
                        1 => YACAtomNILEncode(l, bp, cap),
                        2 => YACAtomBoolEncode(l, bp, cap, inp.bool()),
                        3 => YACAtomHexletEncode(l, bp, cap, if n >= 16 { b } else { null() }),
                        4 => YACAtomUintEncode(l, bp, cap, inp.u64()),
                        5 => YACAtomSintEncode(l, bp, cap, inp.u64() as i64),
                        6 => YACAtomBigintEncode(l, bp, cap, inp.bool(), b, n),
                        7 => YACAtomListEncode(l, bp, cap),
                        8 => YACAtomMapEncode(l, bp, cap),
                        9 => YACAtomBlobEncode(l, bp, cap, inp.u64() >> inp.below(64)),
                        10 => YACAtomBinEncode(l, bp, cap, b, n),
                        11 => YACAtomChunkEncode(l, bp, cap, b, n),
                        12 => YACAtomStrEncode(l, bp, cap, b.cast(), n),
                        13 => YACAtomTAI64Encode(l, bp, cap, b, n),
                        14 => YACAtomMagicEncode(l, bp, cap, b, n),
                        15 => YACAtomFloatEncode(l, bp, cap, f64::from_bits(inp.u64())),
                        _ => YACAtomRawEncode(l, bp, cap, inp.byte(), b, n),
                    };
                    if ok(e) {
                        assert!(sz <= cap);
                        // What an encoder wrote decodes as one atom (raw aside).
                    }
                    let _ = YACAtomFloatRawEncode(&mut sz, bp, cap, b, n);
                }
                20 => {
                    let (b, n) = bytes_arg(&mut inp, 20);
                    let (mut s, mut ns, mut as_) = (0i64, 0u32, 0u32);
                    let mut leap = false;
                    let _ = YACTAI64ToTAI(ptr_or_null(&mut inp, &mut s), &mut ns, &mut as_, b, n);
                    let _ = YACTAI64ToUTC(&mut s, ptr_or_null(&mut inp, &mut ns), &mut leap, b, n);
                    let mut d = 0f64;
                    let _ = YACFloatToDouble(ptr_or_null(&mut inp, &mut d), b, n);
                }
                21 => {
                    let cap = inp.below(20);
                    buf.resize(cap, 0);
                    let bp = if cap == 0 {
                        null_mut()
                    } else {
                        buf.as_mut_ptr()
                    };
                    let (sec, ns, as_) = (
                        inp.u64() as i64 >> inp.below(64),
                        inp.u32() >> inp.below(32),
                        inp.u32() >> inp.below(32),
                    );
                    let _ = YACTAIToTAI64(ptr_or_null(&mut inp, &mut sz), bp, cap, sec, ns, as_);
                    let _ = YACUTCToTAI64(&mut sz, bp, cap, sec, ns);
                    let mut t = 0i64;
                    let mut leap = false;
                    let _ = YACUTCToTAI(ptr_or_null(&mut inp, &mut t), sec);
                    let _ = YACTAIToUTC(&mut t, ptr_or_null(&mut inp, &mut leap), sec);
                }
                23 | 24 => {
                    // Cursors: made from the tree, or kept from earlier
                    // calls (stale after an unlinking edit), then used.
                    let k = inp.below(2);
                    let c: *mut YACCursor = if inp.byte() % 8 == 0 {
                        null_mut()
                    } else {
                        cursors.as_mut_ptr().add(k)
                    };
                    let (p, q) = (idx(&mut inp, len), idx(&mut inp, len));
                    let out = ptr_or_null(&mut inp, &mut u);
                    let e = match inp.byte() % 10 {
                        0 => atomic!(YACItemsCursorFirst(c, it, p)),
                        1 => atomic!(YACItemsCursorEnd(c, it, p)),
                        2 => atomic!(YACItemsCursorAfter(c, it, p, q)),
                        3 => atomic!(YACItemsCursorPeek(out, c, it)),
                        4 => atomic!(YACItemsCursorNext(out, c, it)),
                        5 => atomic!(YACItemsCursorInsert(it, c, p)),
                        6 => atomic!(YACItemsCursorRemove(out, it, c)),
                        7 => atomic!(YACItemsCursorReplace(out, it, c, p)),
                        8 => atomic!(YACItemsMapAppend(it, c, p, q)),
                        _ => {
                            let _ = (YACItemsCursorParent(c), YACItemsCursorPrev(c));
                            YACErr::YACErrNo
                        }
                    };
                    assert_ne!(e, YACErr::YACErrNotEnough);
                    let parsing = YACItemsParsing(it);
                    assert!(!parsing || pending, "parsing without an unfinished parse");
                }
                25 | 26 => {
                    // The typed adders, with or without the arena.
                    let a = ptr_or_null(&mut inp, ar);
                    let (b, n) = bytes_arg(&mut inp, 24);
                    let v = inp.u64() >> inp.below(64);
                    let i = ptr_or_null(&mut inp, &mut u);
                    let hex = if n >= 16 { b } else { null() };
                    let _ = match inp.byte() % 13 {
                        0 => atomic!(YACItemsAddNIL(i, it)),
                        1 => atomic!(YACItemsAddBool(i, it, v & 1 == 1)),
                        2 => atomic!(YACItemsAddUint(i, it, v)),
                        3 => atomic!(YACItemsAddSint(i, it, v as i64)),
                        4 => atomic!(YACItemsAddList(i, it)),
                        5 => atomic!(YACItemsAddMap(i, it)),
                        6 => atomic!(YACItemsAddBlob(i, it, v % 9)),
                        7 => atomic!(YACItemsAddStr(i, it, a, b.cast(), n)),
                        8 => atomic!(YACItemsAddBin(i, it, a, b, n)),
                        9 => atomic!(YACItemsAddHexlet(i, it, a, hex)),
                        10 => atomic!(YACItemsAddFloat(i, it, a, f64::from_bits(v))),
                        11 => atomic!(YACItemsAddUTC(i, it, a, v as i64 >> 8, v as u32 >> 2)),
                        _ => atomic!(YACItemsAddMagic(i, it, a, b, n)),
                    };
                }
                27 => {
                    // MAP puts by key, with or without the arena.
                    let a = ptr_or_null(&mut inp, ar);
                    let (m, v) = (idx(&mut inp, len), idx(&mut inp, len));
                    let key: Vec<u8> = inp.slice(6).iter().copied().filter(|&x| x != 0).collect();
                    keys.push(CString::new(key).unwrap());
                    let k = if inp.byte() % 16 == 0 {
                        null()
                    } else {
                        keys[keys.len() - 1].as_ptr()
                    };
                    let x = inp.u64();
                    let _ = match inp.byte() % 7 {
                        0 => atomic!(YACItemsMapPut(
                            ptr_or_null(&mut inp, &mut u),
                            it,
                            a,
                            m,
                            k,
                            v
                        )),
                        1 => atomic!(YACItemsMapPutUint(it, a, m, k, x)),
                        2 => atomic!(YACItemsMapPutSint(it, a, m, k, x as i64)),
                        3 => atomic!(YACItemsMapPutBool(it, a, m, k, x & 1 == 1)),
                        4 => atomic!(YACItemsMapPutNIL(it, a, m, k)),
                        5 => atomic!(YACItemsMapPutStr(it, a, m, k, k)),
                        _ => atomic!(YACItemsMapPutFloat(it, a, m, k, f64::from_bits(x))),
                    };
                }
                28 => {
                    // Freeing a subtree (mostly refused: linked, or gone).
                    let i = idx(&mut inp, len);
                    let f = ptr_or_null(&mut inp, &mut sz);
                    let _ = atomic!(YACItemsFree(f, it, i));
                }
                29 => {
                    // The batch decoder and the validator on input bytes.
                    let (b, n) = bytes_arg(&mut inp, 64);
                    let mut atoms = vec![std::mem::MaybeUninit::<YACAtom>::zeroed(); inp.below(6)];
                    let cap = atoms.len();
                    let _ = YACAtomsDecode(&mut sz, &mut sz2, atoms.as_mut_ptr().cast(), cap, b, n);
                    let mut levels = [0usize; 4];
                    let mut off = inp.below(3);
                    let _ = YACValidate(
                        &mut off,
                        &mut sz,
                        levels.as_mut_ptr(),
                        inp.below(5),
                        b,
                        n,
                        u32::from(inp.byte() % 4),
                        u32::from(inp.byte() % 2),
                    );
                    assert!(!YACVersion().is_null());
                }
                22 => {
                    let s = YACErr2Str(inp.u32() as i32 >> inp.below(32));
                    assert!(!s.is_null());
                    assert!(!CStr::from_ptr(s).to_bytes().is_empty());
                }
                _ => {
                    // A fresh pool (the old one stays alive in `growth`).
                    let n = inp.below(64);
                    growth.pools.push(std::mem::take(&mut pool));
                    pool = vec![Item::default(); n];
                    assert!(ok(YACItemsInit(it, pool.as_mut_ptr(), n)));
                    pending = false;
                }
            }
            assert!((*it).len <= (*it).cap, "len beyond cap");
            // Every call leaves the tree consistent.
            let mut node = 0u32;
            let mut why = null();
            if YACItemsCheck(&mut node, &mut why, it) != YACErr::YACErrNo {
                panic!("op {op}: inconsistent at {node}: {:?}", CStr::from_ptr(why));
            }
        }
    }
    drop(pool);
    drop(growth);
    drop(keys);
});
