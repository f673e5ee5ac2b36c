//! Stack use of parse, count, encode and walk does not grow with nesting
//! depth: each runs on a fresh thread whose stack is painted with a
//! pattern first, on documents nested 10, 10^3 and 10^5 deep, and the
//! high-water mark (how far below the caller the pattern was overwritten)
//! must be the same at every depth, and small. `cargo test -p keks --test stack
//! -- --nocapture` prints the figures. (tests/freestanding.rs shows the
//! structural reason: no function reachable from the C API recurses.)

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use std::hint::black_box;

use yac::items::{count_nodes, Item, Items};

/// Bytes painted below the caller's frame: far more than any operation
/// here needs, far less than the thread's stack.
const PAINT: usize = 256 * 1024;
const PATTERN: u8 = 0xA5;

/// Fills `PAINT` bytes of the stack below the caller with `PATTERN` and
/// returns the lowest painted address.
#[inline(never)]
fn paint() -> usize {
    let mut area = [0u8; PAINT];
    for b in area.iter_mut() {
        // SAFETY: a plain write to a local array; volatile so that it is
        // not optimised away.
        unsafe { std::ptr::write_volatile(b, PATTERN) };
    }
    black_box(&area);
    area.as_ptr() as usize
}

/// Bytes of stack used below `top` since `paint`: the distance from `top`
/// to the lowest byte that no longer holds the pattern.
#[inline(never)]
fn used_below(top: usize, low: usize) -> usize {
    let mut p = low;
    // SAFETY: [low, top) lies inside this thread's stack mapping (it was
    // painted by `paint`, called from below `top`) and is read as raw
    // bytes only; nothing there is a live Rust object of this frame, which
    // sits above `top`.
    while p < top && unsafe { std::ptr::read_volatile(p as *const u8) } == PATTERN {
        p += 1;
    }
    top - p
}

/// Paints the stack below this frame, runs `op`, and returns the bytes of
/// stack `op` used.
#[inline(never)]
fn measured(op: impl FnOnce()) -> usize {
    let marker = 0u8;
    let top = black_box(&marker) as *const u8 as usize;
    let low = paint();
    assert!(low < top && top - low >= PAINT);
    op();
    used_below(top, low)
}

/// Runs `f` on a fresh 1 MiB thread.
fn on_thread(f: impl FnOnce() -> usize + Send + 'static) -> usize {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// A LIST/MAP/LIST... nesting `depth` deep, with a LIST holding a STR and
/// a BLOB at the bottom.
fn nested(depth: usize) -> Vec<u8> {
    let mut doc = Vec::new();
    for i in 0..depth {
        if i % 2 == 0 {
            doc.push(0x08);
        } else {
            doc.extend([0x09, 0xC1, b'k']);
        }
    }
    doc.extend([0x08, 0xC3, b'a', b'b', b'c']);
    doc.extend([0x0B, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, b'x', b'y', 0x80, 0x00]);
    doc.extend(vec![0x00; depth]);
    doc
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Count,
    Parse,
    Encode,
    Walk,
}

/// Sets up (pool, parsed tree, output buffer) on a fresh thread, then
/// measures `op` alone.
fn run(op: Op, doc: Vec<u8>) -> usize {
    on_thread(move || {
        let (need, _) = count_nodes(&doc, 0).unwrap();
        let mut pool = vec![Item::default(); need];
        let mut out = vec![0u8; doc.len()];
        let mut items = Items::new(&mut pool);
        match op {
            Op::Count => measured(|| {
                black_box(count_nodes(black_box(&doc), 0).unwrap());
            }),
            Op::Parse => measured(|| {
                let mut off = 0;
                black_box(items.parse(black_box(&doc), &mut off).unwrap());
            }),
            Op::Encode | Op::Walk => {
                let mut off = 0;
                let root = items.parse(&doc, &mut off).unwrap();
                if let Op::Encode = op {
                    measured(|| {
                        assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
                    })
                } else {
                    measured(|| {
                        let mut n = 0usize;
                        for e in items.walk(root) {
                            black_box(e.unwrap());
                            n += 1;
                        }
                        black_box(n);
                    })
                }
            }
        }
    })
}

#[test]
fn stack_use_does_not_grow_with_depth() {
    let depths = [10usize, 1_000, 100_000];
    for op in [Op::Count, Op::Parse, Op::Encode, Op::Walk] {
        let used: Vec<usize> = depths.iter().map(|&d| run(op, nested(d))).collect();
        println!("{op:?}: stack bytes used at depths {depths:?}: {used:?}");
        // The same at every depth (a recursion would add at least a frame
        // per level: megabytes at 10^5), and well inside the painted area.
        let (min, max) = (used.iter().min().unwrap(), used.iter().max().unwrap());
        assert!(
            max - min <= 256,
            "{op:?}: stack use varies with depth: {used:?}"
        );
        assert!(*max < PAINT / 2, "{op:?}: {max} bytes");
    }
}

/// A recursion one frame per level, for the control below.
#[inline(never)]
fn recurse(n: usize) -> usize {
    let frame = [n as u8; 32];
    if n == 0 {
        return black_box(&frame)[0] as usize;
    }
    black_box(recurse(black_box(n - 1))) + black_box(&frame)[1] as usize
}

/// The measurement sees stack growth when there is some.
#[test]
fn painting_sees_a_recursion_grow() {
    let at = |n: usize| {
        on_thread(move || {
            measured(|| {
                black_box(recurse(n));
            })
        })
    };
    let (small, big) = (at(10), at(1000));
    println!("recursion: {small} bytes at depth 10, {big} at depth 1000");
    assert!(big >= small + 990 * 32, "{small} vs {big}");
}
