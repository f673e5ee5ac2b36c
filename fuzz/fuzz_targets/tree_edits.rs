//! Random edits of a parsed tree. From the input: a document (parsed into
//! a pool with spare room; an empty LIST when it does not parse), then a
//! program of edits: add, insert_after, prepend, remove, replace, map_set,
//! map_remove, set_value, with indices that are valid, out of range, NONE
//! or UNLINKED, and atoms built from the input. Along the way and at the
//! end, nodes are encoded: whatever encodes must re-parse to a tree that
//! encodes to the same bytes (and the reference decoder must accept it),
//! `encoded_len` must agree with `encode`, and walks must end. Nothing may
//! panic.
#![no_main]

use yac_testkit as common;
#[path = "../support/input.rs"]
mod input;

use common::reference::{self, Kind};
use input::Input;
use libfuzzer_sys::fuzz_target;
use yac::items::{Item, Items, ItemsMut, NONE, UNLINKED};
use yac::{Atom, Error};

const KEYS: [&str; 10] = ["", "a", "b", "z", "ab", "ba", "zz", "abc", "\u{e9}", "key"];

fn pick_idx(inp: &mut Input<'_>, len: usize) -> u32 {
    let v = inp.below(len + 4);
    match v.checked_sub(len) {
        None => v as u32,
        Some(0) => NONE,
        Some(1) => UNLINKED,
        Some(2) => len as u32,
        Some(_) => inp.u32(),
    }
}

fn pick_atom<'d>(inp: &mut Input<'d>) -> Atom<'d> {
    match inp.byte() % 16 {
        0 => Atom::Nil,
        1 => Atom::Bool(inp.bool()),
        2 => Atom::Uint(inp.u64()),
        3 => Atom::Nint(inp.u64() as i64),
        4 => Atom::BigInt {
            negative: inp.bool(),
            magnitude: inp.slice(20),
        },
        5 => Atom::List,
        6 => Atom::Map,
        7 => Atom::Blob {
            chunk_len_minus_one: match inp.byte() % 4 {
                0 => inp.u64(),
                _ => u64::from(inp.byte() % 8),
            },
        },
        8 => inp.slice(16).try_into().map_or(Atom::Nil, Atom::Hexlet),
        9 => Atom::Float(inp.slice(32)),
        10 => Atom::Tai64(inp.slice(16)),
        11 => inp.slice(12).try_into().map_or(Atom::Nil, Atom::Magic),
        12 => Atom::Eoc,
        13 => Atom::Bin(inp.slice(12)),
        14 => Atom::Str(KEYS[inp.below(KEYS.len())]),
        _ => std::str::from_utf8(inp.slice(8)).map_or(Atom::Nil, Atom::Str),
    }
}

/// Encodes `idx` and, when it encodes, checks the bytes: they re-parse to
/// a tree encoding to the same bytes, the reference accepts them.
fn check_encode(items: &ItemsMut<'_, '_>, idx: u32) {
    let len = items.encoded_len(idx);
    let room = len.unwrap_or(0).max(64) + 16;
    let mut out = vec![0u8; room];
    let enc = items.encode(idx, &mut out);
    // An invalid tree may run out of room before the error is reached.
    if !(len.is_err() && enc == Err(Error::NoMem)) {
        assert_eq!(enc, len, "encode and encoded_len disagree");
    }
    let Ok(n) = enc else { return };
    let out = &out[..n];
    let mut pool = vec![Item::default(); n + 1];
    let mut again = Items::new(&mut pool);
    let mut off = 0;
    let root = again
        .parse(out, &mut off)
        .unwrap_or_else(|e| panic!("encoded tree does not parse: {e:?}: {out:02X?}\n{:?}", items.nodes()));
    assert_eq!(off, n, "encoded tree parses shorter");
    let mut out2 = vec![0u8; n];
    assert_eq!(again.encode(root, &mut out2), Ok(n));
    assert_eq!(out, &out2[..], "re-encoding differs");
    match reference::decode(out) {
        Ok((_, m)) => assert_eq!(m, n),
        Err(e) => assert_eq!(e.kind, Kind::DeepRecursion, "reference rejects: {e}"),
    }
}

/// The pool's nodes as plain words.
fn snapshot(items: &ItemsMut<'_, '_>) -> Vec<(u64, u32, u32)> {
    items.nodes().iter().map(|n| (n.raw_u64(), n.next, n.meta)).collect()
}

fn check_walk(items: &ItemsMut<'_, '_>, idx: u32) {
    // Bounded by the pool size whatever the links say.
    let steps = items.walk(idx).count();
    assert!(steps <= 2 * items.len() + 3, "walk not bounded"); // + the final Err
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let doc_len = usize::from(inp.byte()) * 4;
    let doc = inp.slice(doc_len);
    let spare = inp.below(64);
    let mut pool = vec![Item::default(); doc.len() + spare + 1];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = match items.parse(doc, &mut off) {
        Ok(root) => root,
        Err(_) => {
            items.abort();
            match items.add(&Atom::List) {
                Ok(root) => root,
                Err(e) => {
                    assert_eq!(e, Error::NoMem);
                    return;
                }
            }
        }
    };
    let mut ops = 0;
    while !inp.is_empty() && ops < 256 {
        ops += 1;
        let len = items.len();
        let before = snapshot(&items);
        let op = inp.byte() % 12;
        if std::env::var_os("YAC_FUZZ_TRACE").is_some() {
            eprint!("op {op} ");
        }
        let r: Result<(), Error> = match op {
            0 | 1 => {
                let a = pick_atom(&mut inp);
                items.add(&a).map(|_| ())
            }
            2 => {
                let (p, prev, c) = (
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                );
                items.insert_after(p, prev, c)
            }
            3 => {
                let (p, c) = (pick_idx(&mut inp, len), pick_idx(&mut inp, len));
                items.prepend(p, c)
            }
            4 => {
                let (p, prev) = (pick_idx(&mut inp, len), pick_idx(&mut inp, len));
                items.remove(p, prev).map(|_| ())
            }
            5 => {
                let (p, prev, c) = (
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                );
                items.replace(p, prev, c).map(|_| ())
            }
            6 => {
                let (m, k, v) = (
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                    pick_idx(&mut inp, len),
                );
                items.map_set(m, k, v).map(|_| ())
            }
            7 => {
                let m = pick_idx(&mut inp, len);
                let key = if inp.bool() {
                    KEYS[inp.below(KEYS.len())].as_bytes()
                } else {
                    inp.slice(6)
                };
                items.map_remove(m, key).map(|_| ())
            }
            8 => {
                let i = pick_idx(&mut inp, len);
                let a = pick_atom(&mut inp);
                items.set_value(i, &a)
            }
            9 => {
                check_encode(&items, pick_idx(&mut inp, len));
                Ok(())
            }
            10 => {
                check_walk(&items, pick_idx(&mut inp, len));
                Ok(())
            }
            _ => {
                let i = pick_idx(&mut inp, len);
                let _ = (items.child_count(i), items.first_child(i), items.bytes(i));
                let _ = items.nth_child(i, inp.below(8));
                Ok(())
            }
        };
        if std::env::var_os("YAC_FUZZ_TRACE").is_some() {
            eprintln!("op -> {r:?}; len {}", items.len());
        }
        if r.is_err() {
            // A failed edit changes nothing.
            assert_eq!(snapshot(&items), before, "failed edit {r:?} changed the pool");
        }
    }
    check_encode(&items, root);
    check_walk(&items, root);
});
