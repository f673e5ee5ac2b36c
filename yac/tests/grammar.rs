//! The structural grammar (`yac::grammar`) fed the atoms `atom::decode`
//! gives, against the validator and the parser: on every input, the same
//! verdict, the same error at the same offset, and the node count. Inputs:
//! the FORMAT.md vectors, the benchmark documents, generated documents and
//! their prefixes, and mutations of them (byte changes, truncations,
//! inserted EOCs, MAP keys swapped or repeated); with UTF-8 checks on and
//! off, depth limits, and level storage of several sizes and kinds.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac::atom::{self, tag};
use yac::grammar::{Fed, Grammar, Levels, Step, WordLevels};
use yac::items::{count_nodes, Item, Items, Options};
use yac::validate::validate;
use yac::writer::{Level, Writer};
use yac::Error;
use yac_testkit::vectors::{bytes, INVALID_ATOM, INVALID_STREAM, VALID};
use yac_testkit::*;

/// One atom at the start of `rest` as the parser and the validator decode
/// it (a STR's UTF-8 unchecked when trusted), as a grammar step.
fn decode(rest: &[u8], trust_utf8: bool) -> Result<(Step<'_>, usize), Error> {
    if trust_utf8 && rest.first().is_some_and(|&t| t >= tag::STR) {
        let (body, used) = atom::string_raw(rest)?;
        return Ok((Step::Str(body), used));
    }
    let (a, used) = atom::decode(rest)?;
    Ok((Step::of(&a), used))
}

/// The grammar over `doc` from `start`: the node count a parse would take
/// (or the error) and the offset it stops at (past the item, or at the
/// atom at fault).
fn by_grammar<'a, L: Levels<'a> + ?Sized>(
    doc: &'a [u8],
    start: usize,
    opts: Options,
    levels: &mut L,
) -> (Result<usize, Error>, usize) {
    let mut g = Grammar::new(opts.max_depth);
    let mut off = start;
    let mut nodes = 0;
    loop {
        let rest = &doc[off..];
        let (step, used) = match decode(rest, opts.trust_utf8) {
            Ok(d) => d,
            Err(e) => return (Err(e), off),
        };
        match g.feed(step, levels) {
            Err(e) => return (Err(e), off),
            Ok(fed) => {
                nodes += match (step, fed) {
                    (Step::Eoc, _) => 0,
                    (Step::Blob(_), _) => 2,
                    _ => 1,
                };
                off += used;
                if fed == Fed::Done {
                    return (Ok(nodes), off);
                }
            }
        }
    }
}

/// What the parser gives for `doc` from `start`.
fn parse(doc: &[u8], start: usize, opts: Options) -> (Result<usize, Error>, usize) {
    let mut pool = vec![Item::default(); doc.len() + 2];
    let mut items = Items::new(&mut pool);
    items.opts = opts;
    let mut off = start;
    let r = items.parse(doc, &mut off).map(|_| items.len());
    (r, off)
}

/// The writer replaying the atoms of `doc` from `start` (the grammar's
/// outcome `want`, stopping at `stop`): it refuses the atom the grammar
/// refuses, with the same error, at the same output offset, and accepts
/// the atoms before it; a whole item it writes back byte for byte. The
/// depth limit is its level array.
fn by_writer(doc: &[u8], start: usize, opts: Options, want: Result<usize, Error>, stop: usize) {
    let mut out = vec![0u8; doc.len() + 16];
    let room = if opts.max_depth == 0 {
        doc.len() + 1
    } else {
        opts.max_depth as usize
    };
    let mut levels = vec![Level::default(); room];
    let mut w = Writer::new(&mut out).levels(&mut levels);
    let mut off = start;
    let mut calls = 0u64;
    while off < stop {
        let (a, used) = atom::decode(&doc[off..]).unwrap();
        w.atom(&a)
            .unwrap_or_else(|e| panic!("writer refused {e:?} at {off}"));
        calls += 1;
        off += used;
    }
    let structural = |e: &Error| {
        matches!(
            e,
            Error::MapBadKey
                | Error::MapUnordered
                | Error::MapNoVal
                | Error::UnexpectedEoc
                | Error::BlobBadChunk
                | Error::BlobBadTerm
                | Error::DeepRecursion
        )
    };
    match want {
        Ok(_) => {
            assert_eq!(w.finish(), Ok(stop - start));
            assert_eq!(w.written(), &doc[start..stop]);
        }
        Err(e) if structural(&e) => {
            let (a, _) = atom::decode(&doc[stop..]).unwrap();
            assert_eq!(w.atom(&a), Err(e), "writer at {stop}");
            let f = w.failure().unwrap();
            assert_eq!((f.call, f.offset), (calls, (stop - start) as u64));
            assert_eq!(w.finish(), Err(e));
        }
        // A decode error, or the end of the input inside the item: the
        // writer never sees that atom, and the item (if begun) is
        // unclosed.
        Err(_) if stop == start => assert_eq!(w.finish(), Ok(0)),
        Err(_) => assert_eq!(w.finish(), Err(Error::Unclosed)),
    }
}

/// The serde deserializer reading `doc[start..]` whole into a `Value`
/// (the grammar's outcome `want`, stopping at `stop`): it refuses the atom
/// the grammar refuses (or cannot decode) with the same error at the same
/// offset, the end of the input inside the item as a truncation, and
/// bytes after a whole item as trailing.
#[cfg(feature = "serde")]
fn by_serde(doc: &[u8], start: usize, want: Result<usize, Error>, stop: usize) {
    use yac::serde::ErrorKind;
    let input = &doc[start..];
    let at = stop - start;
    let got = yac::from_slice::<yac::Value>(input);
    let what = || format!("deserializer on {}", walk::hex_head(input));
    match (want, got) {
        (Ok(_), Ok(_)) if stop == doc.len() => {}
        (Ok(_), Err(e)) if stop < doc.len() => {
            assert_eq!(
                (e.kind(), e.offset()),
                (&ErrorKind::TrailingBytes, at),
                "{}",
                what()
            );
        }
        // A length past `usize` is past the end of any input as well.
        (Err(w @ (Error::NotEnough(_) | Error::LenTooBig)), Err(e)) => {
            let cut = match e.kind() {
                ErrorKind::Truncated | ErrorKind::LengthPastEnd { .. } => true,
                ErrorKind::Format(f) => *f == w,
                _ => false,
            };
            assert!(cut && e.offset() == at, "{e:?} {}", what());
        }
        (Err(w), Err(e)) => {
            assert_eq!(
                (e.kind(), e.offset()),
                (&ErrorKind::Format(w), at),
                "{}",
                what()
            );
        }
        (want, got) => panic!("grammar {want:?} at {stop}, {got:?}, {}", what()),
    }
}

/// Checks the grammar against the validator (with `room` level words)
/// and, when the levels are ample, against the parser; with every kind of
/// level storage. Returns the outcome.
fn same(doc: &[u8], start: usize, opts: Options, room: usize) -> Result<usize, Error> {
    let what = || {
        format!(
            "from {start} with {opts:?}, {room} levels, on {}",
            walk::hex_head(doc)
        )
    };
    let mut words = vec![0usize; room];
    let mut off = start;
    let validated = validate(doc, &mut off, &mut words, opts);
    let mut levels = WordLevels {
        buf: doc,
        words: &mut vec![0usize; room],
    };
    let got = by_grammar(doc, start, opts, &mut levels);
    assert_eq!(got, (validated, off), "grammar vs validator {}", what());
    let mut keys: Vec<Option<&[u8]>> = vec![None; room];
    assert_eq!(
        by_grammar(doc, start, opts, &mut keys[..]),
        got,
        "key slice {}",
        what()
    );
    let ample = room > doc.len();
    if ample {
        assert_eq!(got, parse(doc, start, opts), "grammar vs parser {}", what());
        if !opts.trust_utf8 {
            by_writer(doc, start, opts, got.0, got.1);
        }
        // The deserializer's depth limit is its own.
        #[cfg(feature = "serde")]
        if opts == Options::default() {
            by_serde(doc, start, got.0, got.1);
        }
        assert_eq!(
            by_grammar(doc, start, opts, &mut Vec::<Option<&[u8]>>::new()),
            got,
            "Vec {}",
            what()
        );
    }
    got.0
}

/// `same` with ample levels and the default options, trusted UTF-8, a few
/// depth limits, and a few small level stores.
fn same_all_ways(doc: &[u8]) -> Result<usize, Error> {
    let ample = doc.len() + 1;
    let r = same(doc, 0, Options::default(), ample);
    let trusted = Options {
        trust_utf8: true,
        ..Options::default()
    };
    let _ = same(doc, 0, trusted, ample);
    for max_depth in [1, 2, 3] {
        let opts = Options {
            max_depth,
            ..Options::default()
        };
        let _ = same(doc, 0, opts, ample);
    }
    for room in [0, 1, 2] {
        let _ = same(doc, 0, Options::default(), room);
    }
    r
}

/// The error class of an outcome ("ok", "NotEnough", "MapBadKey", ...).
fn class(r: &Result<usize, Error>) -> String {
    match r {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{e:?}").split('(').next().unwrap().to_string(),
    }
}

#[test]
fn spec_vectors_agree() {
    for v in VALID {
        assert!(same_all_ways(&bytes(v.hex)).is_ok(), "{}", v.name);
    }
    for v in INVALID_ATOM {
        assert_eq!(same_all_ways(&bytes(v.hex)), Err(v.err), "{}", v.name);
    }
    for v in INVALID_STREAM {
        let _ = same_all_ways(&bytes(v.hex));
    }
}

#[test]
fn every_invalid_atom_agrees_in_every_position() {
    for v in INVALID_ATOM {
        let bad = bytes(v.hex);
        let wraps: [(&str, &str); 6] = [
            ("", ""),
            ("08", "00"),
            ("09", "01 00"),
            ("09 C161", "00"),
            ("0B 0000000000000004", ""),
            ("09 C161 08 01 00", "01 00"),
        ];
        for (pre, post) in wraps {
            let mut doc = bytes(pre);
            doc.extend_from_slice(&bad);
            doc.extend(bytes(post));
            let _ = same_all_ways(&doc);
        }
    }
}

#[test]
fn benchmark_documents_agree() {
    let Some(dir) = shared_data_dir("counts.json") else {
        return;
    };
    for name in ["licenses", "canada-list", "canada-map"] {
        let doc = std::fs::read(dir.join(format!("{name}.yac"))).unwrap();
        let nodes = same(&doc, 0, Options::default(), 8).unwrap();
        assert_eq!(count_nodes(&doc, 0).map(|c| c.0), Ok(nodes), "{name}");
        // Fewer levels than the nesting needs: NoMem at the same place.
        for room in 0..8 {
            let _ = same(&doc, 0, Options::default(), room);
        }
        assert_eq!(same(&doc, 0, Options::default(), 0), Err(Error::NoMem));
    }
}

#[test]
fn generated_documents_and_their_prefixes_agree() {
    let mut rng = Rng::new(31);
    for i in 0..1500 {
        let v = gen_value(&mut rng, 5, if i % 100 == 99 { 70_000 } else { 300 });
        let doc = encode(&v);
        let nodes = same_all_ways(&doc).unwrap();
        assert_eq!(count_nodes(&doc, 0), Ok((nodes, doc.len())));
        if doc.len() < 300 {
            for cut in 0..doc.len() {
                let r = same(&doc[..cut], 0, Options::default(), cut + 1);
                assert!(matches!(r, Err(Error::NotEnough(_))), "{r:?}");
            }
        }
        // A document may start anywhere and end before the input does.
        let mut two = vec![0x01, 0x02, 0x03];
        two.extend_from_slice(&doc);
        two.extend_from_slice(&[0x00, 0x05]);
        assert_eq!(same(&two, 3, Options::default(), two.len() + 1), Ok(nodes));
    }
}

#[test]
fn mutated_documents_agree() {
    let mut rng = Rng::new(32);
    let mut outcomes = std::collections::HashMap::new();
    for i in 0..4000 {
        let v = gen_value(&mut rng, 4, if i % 200 == 0 { 70_000 } else { 150 });
        let mut doc = encode(&v);
        match i % 3 {
            0 => mutate(&mut rng, &mut doc),
            1 => {
                // Inserted EOCs.
                for _ in 0..rng.range(1, 3) {
                    let at = rng.usize(0, doc.len());
                    doc.insert(at, tag::EOC);
                }
            }
            _ => {
                let at = rng.usize(0, doc.len());
                doc.truncate(at);
            }
        }
        *outcomes.entry(class(&same_all_ways(&doc))).or_insert(0) += 1;
    }
    for c in [
        "ok",
        "NotEnough",
        "UnknownType",
        "BadUtf8",
        "IntNonBin",
        "BlobBadChunk",
        "BlobBadTerm",
        "MapBadKey",
        "MapNoVal",
        "MapUnordered",
        "UnexpectedEoc",
    ] {
        assert!(outcomes.contains_key(c), "no {c} in {outcomes:?}");
    }
}

/// A MAP of `keys` (in the order given), each with a value that is a
/// leaf, a LIST, or a MAP of one pair, so that the next key follows a
/// nested container.
fn map_doc(rng: &mut Rng, keys: &[Vec<u8>]) -> Vec<u8> {
    let mut doc = vec![tag::MAP];
    for k in keys {
        reference::put_string(&mut doc, true, k);
        match rng.below(4) {
            0 => doc.extend_from_slice(&[tag::LIST, tag::NIL, tag::EOC]),
            1 => doc.extend_from_slice(&[tag::MAP, tag::STR | 1, b'z', tag::NIL, tag::EOC]),
            2 => doc.extend_from_slice(&bytes("0B 0000000000000001 82 6162 80")),
            _ => doc.push(tag::TRUE),
        }
    }
    doc.push(tag::EOC);
    doc
}

#[test]
fn swapped_and_repeated_keys_agree() {
    let mut rng = Rng::new(33);
    let mut outcomes = std::collections::HashMap::new();
    for _ in 0..2000 {
        let n = rng.usize(1, 8);
        let mut keys: Vec<Vec<u8>> = (0..n)
            .map(|_| {
                let len = rng.usize(1, 3);
                (0..len).map(|_| b'a' + rng.below(3) as u8).collect()
            })
            .collect();
        keys.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
        keys.dedup();
        match rng.below(4) {
            0 if keys.len() > 1 => {
                let i = rng.usize(0, keys.len() - 2);
                keys.swap(i, i + 1);
            }
            1 => {
                let i = rng.usize(0, keys.len() - 1);
                keys.insert(i, keys[i].clone());
            }
            2 => keys.push(Vec::new()),
            _ => {}
        }
        let doc = map_doc(&mut rng, &keys);
        *outcomes.entry(class(&same_all_ways(&doc))).or_insert(0) += 1;
        // The same MAP as the value of a key of an outer MAP, and as a
        // LIST item.
        let mut outer = bytes("09 C161");
        outer.extend_from_slice(&doc);
        outer.extend_from_slice(&bytes("C162 01 00"));
        let _ = same_all_ways(&outer);
        let mut list = vec![tag::LIST];
        list.extend_from_slice(&doc);
        list.extend_from_slice(&[tag::NIL, tag::EOC]);
        let _ = same_all_ways(&list);
    }
    for c in ["ok", "MapUnordered", "MapBadKey"] {
        assert!(outcomes.contains_key(c), "no {c} in {outcomes:?}");
    }
}
