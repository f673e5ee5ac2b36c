//! The Rust writer against the tree parser: every refusal, every capacity,
//! streams through small buffers, sorted MAPs.

extern crate std;
use super::*;
use crate::atom;
use crate::items::{Item, Items};
use std::vec;
use std::vec::Vec;

type Doc = fn(&mut Writer<'_>) -> Result<(), Error>;

/// A nested document of every kind of item, keys in order.
fn nested(w: &mut Writer<'_>) -> Result<(), Error> {
    w.magic(b"cm/test\0\0\0\0\0")?;
    w.map()?;
    w.str("a")?;
    w.list()?;
    w.uint(1)?;
    w.sint(-300)?;
    w.str("x")?;
    w.eoc()?;
    w.str("b")?;
    w.bin(&[0xAB; 70])?;
    w.str("c")?;
    w.map()?;
    w.str("k")?;
    w.nil()?;
    w.str("kk")?;
    w.bool(true)?;
    w.eoc()?;
    w.str("t")?;
    w.tai64_utc(1_700_000_000, 5)?;
    w.str("bl")?;
    w.blob(2)?;
    w.bin(b"abc")?;
    w.bin(b"d")?;
    w.str("big")?;
    w.bigint(false, &[0, 1, 0, 0, 0, 0, 0, 0, 0, 0])?;
    w.str("flt")?;
    w.float(1.5)?;
    w.str("hex")?;
    w.hexlet(&[9; 16])?;
    w.str("long key of the document")?;
    w.str(&"é".repeat(200))?;
    w.eoc()?;
    w.bool(false)
}

/// The same MAP contents as `nested`, keys in another order, in MAPs
/// sorted on close.
fn nested_any_order(w: &mut Writer<'_>) -> Result<(), Error> {
    w.magic(b"cm/test\0\0\0\0\0")?;
    w.map_sorted()?;
    w.str("long key of the document")?;
    w.str(&"é".repeat(200))?;
    w.str("flt")?;
    w.float(1.5)?;
    w.str("c")?;
    w.map_sorted()?;
    w.str("kk")?;
    w.bool(true)?;
    w.str("k")?;
    w.nil()?;
    w.eoc()?;
    w.str("bl")?;
    w.blob(2)?;
    w.bin(b"abc")?;
    w.bin(b"d")?;
    w.str("b")?;
    w.bin(&[0xAB; 70])?;
    w.str("hex")?;
    w.hexlet(&[9; 16])?;
    w.str("a")?;
    w.list()?;
    w.uint(1)?;
    w.sint(-300)?;
    w.str("x")?;
    w.eoc()?;
    w.str("big")?;
    w.bigint(false, &[0, 1, 0, 0, 0, 0, 0, 0, 0, 0])?;
    w.str("t")?;
    w.tai64_utc(1_700_000_000, 5)?;
    w.eoc()?;
    w.bool(false)
}

fn write(doc: Doc, cap: usize) -> (Result<usize, Error>, Vec<u8>, usize) {
    let mut buf = vec![0u8; cap];
    let mut w = Writer::new(&mut buf).sequence();
    let _ = doc(&mut w);
    let r = w.finish();
    (r, w.written().to_vec(), w.position())
}

/// The document's bytes, checked by the tree parser.
fn reference(doc: Doc) -> Vec<u8> {
    let (r, bytes, _) = write(doc, 4096);
    assert_eq!(r, Ok(bytes.len()));
    let mut pool = vec![Item::default(); 100];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    while off < bytes.len() {
        items.parse(&bytes, &mut off).unwrap();
    }
    bytes
}

#[test]
fn sorted_on_close_equals_written_in_order() {
    let want = reference(nested);
    assert_eq!(reference(nested_any_order), want);
    assert_eq!(&want[..16], b"KEKScm/test\0\0\0\0\0");
}

#[test]
fn bytes_needed_at_every_capacity() {
    for doc in [nested as Doc, nested_any_order] {
        let want = reference(doc);
        // Under Miri (~1000x slower) a spread of the capacities, the
        // last included: the writer has no unsafe code of its own.
        for cap in crate::sample::spread(want.len(), 13) {
            let (r, bytes, needed) = write(doc, cap);
            assert_eq!(r, Err(Error::NoMem), "cap {cap}");
            assert_eq!(needed, want.len(), "cap {cap}");
            assert_eq!(bytes, want[..bytes.len()], "a prefix, cap {cap}");
            // Made of whole atoms.
            let mut off = 0;
            while off < bytes.len() {
                off += atom::decode(&bytes[off..]).unwrap().1;
            }
        }
        assert_eq!(
            write(doc, want.len()),
            (Ok(want.len()), want.clone(), want.len())
        );
        // Count-only, with and without a key area.
        let mut keys = [0u8; 64];
        for k in [&mut keys[..], &mut []] {
            let mut w = Writer::count_only().keys(k).sequence();
            doc(&mut w).unwrap();
            assert_eq!(w.finish(), Ok(want.len()));
            assert!(w.written().is_empty());
        }
    }
}

/// Writes `doc` through a flush callback with a buffer of `cap` bytes.
fn streamed(doc: Doc, cap: usize, keys: &mut [u8]) -> (Result<usize, Error>, Vec<u8>) {
    let mut out = Vec::new();
    let mut sink = |b: &[u8]| -> Result<(), Error> {
        assert!(!b.is_empty());
        out.extend_from_slice(b);
        Ok(())
    };
    let mut buf = vec![0u8; cap];
    let r = {
        let mut w = Writer::new(&mut buf).sequence().keys(keys).flush(&mut sink);
        doc(&mut w).and_then(|()| w.finish())
    };
    (r, out)
}

#[test]
fn flushed_through_small_buffers() {
    let want = reference(nested);
    let mut keys = [0u8; 64];
    for cap in 0..40 {
        let (r, out) = streamed(nested, cap, &mut keys);
        assert_eq!(r, Ok(want.len()), "cap {cap}");
        assert_eq!(out, want, "cap {cap}");
    }
    // Without a key area each open MAP's last key stays in the buffer:
    // the long STR value under the root MAP needs room for both.
    let (r, _) = streamed(nested, 40, &mut []);
    assert_eq!(r, Err(Error::NoMem));
    assert_eq!(
        streamed(nested, 640, &mut []),
        (Ok(want.len()), want.clone())
    );
    // A MAP sorted on close stays in the buffer until closed.
    let (r, _) = streamed(nested_any_order, 100, &mut keys);
    assert_eq!(r, Err(Error::NoMem));
    assert_eq!(
        streamed(nested_any_order, 640, &mut keys),
        (Ok(want.len()), want)
    );
    // A key area too small for the keys.
    assert_eq!(
        streamed(nested, 40, &mut keys[..3]).0,
        Err(Error::LenTooBig)
    );
}

#[test]
fn flushes_never_lose_track_of_a_kept_key() {
    // At every buffer size, with and without a key area, in order or sorted
    // on close: the document streams whole, or the buffer is too small;
    // never a key-order error from a previous key read at a stale offset.
    let mut keys = [0u8; 64];
    for doc in [nested as Doc, nested_any_order] {
        let want = reference(nested);
        for cap in crate::sample::spread(200, 7) {
            for area in [&mut keys[..], &mut []] {
                let (r, out) = streamed(doc, cap, area);
                match r {
                    Ok(n) => {
                        assert_eq!(n, want.len(), "cap {cap}");
                        assert_eq!(out, want, "cap {cap}");
                    }
                    Err(e) => assert_eq!(e, Error::NoMem, "cap {cap}"),
                }
            }
        }
    }
}

#[test]
fn flushing_without_key_area_keeps_every_key_checkable() {
    // A key longer than the buffer cannot stay there to be compared with
    // the next one: refused with NoMem at the key, never left unchecked.
    fn long_key_then_short(w: &mut Writer<'_>) -> Result<(), Error> {
        w.map()?;
        w.str("a-long-first-key")?;
        w.nil()?;
        w.str("b")?;
        w.nil()?;
        w.eoc()
    }
    let (r, _) = streamed(long_key_then_short, 8, &mut []);
    assert_eq!(r, Err(Error::NoMem));
    // With room for the key the order is checked: "b" is shorter.
    let (r, _) = streamed(long_key_then_short, 64, &mut []);
    assert_eq!(r, Err(Error::MapUnordered));
    // A key area keeps it instead.
    let mut keys = [0u8; 64];
    let (r, _) = streamed(long_key_then_short, 8, &mut keys);
    assert_eq!(r, Err(Error::MapUnordered));
}

#[test]
fn flush_errors_stick() {
    let mut calls = 0;
    let mut sink = |_: &[u8]| -> Result<(), Error> {
        calls += 1;
        Err(Error::Invalid)
    };
    let mut buf = [0u8; 4];
    {
        let mut w = Writer::new(&mut buf).sequence().flush(&mut sink);
        w.uint(1).unwrap();
        assert_eq!(w.uint(1000), Err(Error::Invalid));
        assert_eq!(w.nil(), Err(Error::Invalid));
        assert_eq!(w.finish(), Err(Error::Invalid));
    }
    assert_eq!(calls, 1);
}

/// Each case: calls that must all succeed, then one that must be
/// refused with the error; nothing of the refused call is written,
/// and the error sticks.
#[test]
fn every_refusal() {
    type Steps = fn(&mut Writer<'_>) -> Result<(), Error>;
    let cases: [(Steps, Steps, Error); 29] = [
        (|w| w.map(), |w| w.uint(1), Error::MapBadKey),
        (|w| w.map(), |w| w.str(""), Error::MapBadKey),
        (|w| w.map(), |w| w.list(), Error::MapBadKey),
        (|w| w.map(), |w| w.bin(b"k"), Error::MapBadKey),
        (|w| w.map_sorted(), |w| w.nil(), Error::MapBadKey),
        (|w| w.map_sorted(), |w| w.str(""), Error::MapBadKey),
        (
            |w| {
                w.map()?;
                w.str("b")?;
                w.nil()
            },
            |w| w.str("a"),
            Error::MapUnordered,
        ),
        (
            |w| {
                w.map()?;
                w.str("ab")?;
                w.nil()
            },
            |w| w.str("b"),
            Error::MapUnordered,
        ),
        (
            |w| {
                w.map()?;
                w.str("a")?;
                w.nil()
            },
            |w| w.str("a"),
            Error::MapUnordered,
        ),
        (
            |w| {
                w.map_sorted()?;
                w.str("b")?;
                w.nil()?;
                w.str("a")?;
                w.nil()?;
                w.str("b")?;
                w.uint(2)
            },
            |w| w.eoc(),
            Error::MapUnordered,
        ),
        (
            |w| {
                w.map()?;
                w.str("a")
            },
            |w| w.eoc(),
            Error::MapNoVal,
        ),
        (
            |w| {
                w.map_sorted()?;
                w.str("a")
            },
            |w| w.eoc(),
            Error::MapNoVal,
        ),
        (|_| Ok(()), |w| w.eoc(), Error::UnexpectedEoc),
        (
            |w| {
                w.list()?;
                w.eoc()
            },
            |w| w.eoc(),
            Error::UnexpectedEoc,
        ),
        (|w| w.list(), |w| w.str("a\0"), Error::BadUtf8),
        (|w| w.blob(1), |w| w.str("ab"), Error::BlobBadTerm),
        (|w| w.blob(1), |w| w.eoc(), Error::BlobBadTerm),
        (|w| w.blob(1), |w| w.list(), Error::BlobBadTerm),
        (|w| w.blob(1), |w| w.bin(b"abc"), Error::BlobBadChunk),
        (|_| Ok(()), |w| w.float(-0.0), Error::FloatNonMinimal),
        (|_| Ok(()), |w| w.atom(&Atom::Nint(0)), Error::Invalid),
        (|w| w.list(), |w| w.blob_bytes(0, b""), Error::Invalid),
        (
            |w| {
                for _ in 0..INLINE_LEVELS {
                    w.list()?;
                }
                Ok(())
            },
            |w| w.list(),
            Error::DeepRecursion,
        ),
        (|w| w.list(), |w| w.finish().map(|_| ()), Error::Unclosed),
        (|w| w.list(), |w| w.map_close(), Error::WrongClose),
        (|w| w.map_sorted(), |w| w.list_close(), Error::WrongClose),
        (|w| w.uint(1), |w| w.uint(2), Error::SecondRoot),
        (|w| w.nil(), |w| w.magic(&[b'x'; 12]), Error::SecondRoot),
        (|_| Ok(()), |w| w.magic(b"short"), Error::Invalid),
    ];
    for (i, (before, bad, err)) in cases.into_iter().enumerate() {
        let mut buf = [0u8; 64];
        let mut w = Writer::new(&mut buf);
        before(&mut w).unwrap();
        let n = w.position();
        let calls = w.st.hot.calls;
        let depth = w.depth() as u32;
        let good = w.written().to_vec();
        assert_eq!(bad(&mut w), Err(err), "case {i}");
        let f = w.failure().unwrap();
        assert_eq!((f.call, f.depth), (calls, depth), "case {i}: where");
        if err != Error::MapUnordered || i != 9 {
            assert_eq!(f.offset, n as u64, "case {i}: offset");
            assert_eq!(w.position(), n, "case {i}: nothing written");
            assert_eq!(w.written(), good);
        } else {
            // The refused MAP sorted on close goes back out.
            assert_eq!(w.written(), &[] as &[u8], "case {i}");
        }
        assert_eq!(w.error(), Some(err), "case {i}");
        assert_eq!(w.nil(), Err(err), "case {i}: sticks");
        assert_eq!(w.finish(), Err(err), "case {i}: sticks");
    }
}

#[test]
fn refusal_replaces_nomem() {
    let mut buf = [0u8; 2];
    let mut w = Writer::new(&mut buf);
    w.map().unwrap();
    w.str("b").unwrap();
    assert_eq!(w.error(), Some(Error::NoMem));
    assert_eq!(w.failure(), None);
    w.uint(1).unwrap();
    w.str("c").unwrap();
    w.nil().unwrap();
    w.map_close().unwrap();
    assert_eq!(w.finish(), Err(Error::NoMem));
    assert_eq!(w.position(), 10);
    assert_eq!(w.eoc(), Err(Error::UnexpectedEoc));
    assert_eq!(w.finish(), Err(Error::UnexpectedEoc));
}

/// Out of room, key order is checked with or without a key area, at every
/// buffer size, in nested MAPs, and with the buffer as the key area as
/// long as the keys fit in it.
#[test]
fn key_order_checked_past_the_buffer() {
    let doc = |w: &mut Writer<'_>| -> Result<(), Error> {
        w.map()?;
        w.str("aa")?;
        w.map()?;
        w.str("x")?;
        w.nil()?;
        w.str("yy")?;
        w.list()?;
        w.map()?;
        w.str("k")?;
        w.uint(1)?;
        w.map_close()?;
        w.list_close()?;
        w.map_close()?;
        w.str("bb")?;
        w.nil()?;
        w.str("ab")
    };
    for cap in 0..40 {
        let mut keys = [0u8; 8];
        for k in [&mut keys[..], &mut []] {
            let mut buf = vec![0u8; cap];
            let mut w = Writer::new(&mut buf).keys(k);
            let r = doc(&mut w);
            if cap >= 4 {
                assert_eq!(r, Err(Error::MapUnordered), "cap {cap}");
                assert_eq!(
                    w.failure().map(|f| (f.call, f.depth)),
                    Some((15, 1)),
                    "cap {cap} area {}",
                    w.st.hot.area
                );
            }
        }
    }
    // A key longer than the buffer cannot be kept: not compared.
    let mut buf = [0u8; 2];
    let mut w = Writer::new(&mut buf);
    w.map().unwrap();
    w.str("bbb").unwrap();
    w.nil().unwrap();
    w.str("aaa").unwrap();
    assert_eq!(w.error(), Some(Error::NoMem));
}

#[test]
fn blobs_and_streams_of_items() {
    let mut buf = [0u8; 64];
    let mut w = Writer::new(&mut buf).sequence();
    w.blob_bytes(2, b"12345").unwrap();
    w.blob_bytes(5, b"12345").unwrap();
    w.blob(4).unwrap();
    w.bin(b"").unwrap();
    w.uint(7).unwrap();
    assert_eq!(w.finish(), Ok(w.position()));
    let want: &[u8] = &[
        0x0B, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, b'1', b'2', 0x82, b'3', b'4', 0x81, b'5', //
        0x0B, 0, 0, 0, 0, 0, 0, 0, 4, 0x85, b'1', b'2', b'3', b'4', b'5', 0x80, //
        0x0B, 0, 0, 0, 0, 0, 0, 0, 4, 0x80, //
        0x0C, 0x81, 7,
    ];
    assert_eq!(w.written(), want);
}

#[test]
fn atoms_replay_a_parsed_document() {
    let want = reference(nested);
    let mut buf = vec![0u8; want.len()];
    let mut w = Writer::new(&mut buf).sequence();
    let mut off = 0;
    while off < want.len() {
        let (a, n) = atom::decode(&want[off..]).unwrap();
        w.atom(&a).unwrap();
        off += n;
    }
    assert_eq!(w.finish(), Ok(want.len()));
    assert_eq!(w.written(), want);
}

#[test]
fn sort_of_many_keys() {
    // 300 keys in reverse and scrambled order give the in-order bytes.
    // Under Miri 40: the sort is quadratic (in place, by rotations), and
    // the writer has no unsafe code of its own.
    let n = crate::sample::count(300, 40) as u32;
    let keys: Vec<std::string::String> = (0..n).map(|i| std::format!("k{i}")).collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
    let run = |order: &[std::string::String], sorted_map: bool| {
        let mut buf = vec![0u8; 8192];
        let mut w = Writer::new(&mut buf).sequence();
        if sorted_map {
            w.map_sorted().unwrap();
        } else {
            w.map().unwrap();
        }
        for k in order {
            w.str(k).unwrap();
            w.list().unwrap();
            w.str(k).unwrap();
            w.eoc().unwrap();
        }
        w.eoc().unwrap();
        let n = w.finish().unwrap();
        buf.truncate(n);
        buf
    };
    let want = run(&sorted, false);
    let mut scrambled = keys.clone();
    scrambled.reverse();
    assert_eq!(run(&scrambled, true), want);
    scrambled.sort_by_key(|k| k.bytes().rev().collect::<Vec<u8>>());
    assert_eq!(run(&scrambled, true), want);
    assert_eq!(run(&sorted, true), want);
}
