//! The system under test seen the same way as the reference: a small,
//! iterative structure walker over `yac::atom::decode` that applies the
//! container, MAP key and BLOB chunk rules of FORMAT.md on top of the atoms
//! libyac returns, and records them as [`RefAtom`]s for comparison with
//! [`super::reference::decode_traced`].
//!
//! Shared by the tests and the fuzz targets through the test kit.

use super::reference::{key_less, Kind, RefAtom, RefError, MAX_DEPTH};
use yac::atom::{decode, Atom};
use yac::Error;

/// The `yac::Error` class as a reference [`Kind`]. `NoMem`, `Invalid` and
/// the writer's refusals are not decoding outcomes: getting one from the
/// atom decoder is a bug.
pub fn kind_of(e: Error) -> Kind {
    match e {
        Error::NotEnough(n) => Kind::NotEnough(n),
        Error::UnknownType => Kind::UnknownType,
        Error::LenTooBig => Kind::LenTooBig,
        Error::BadUtf8 => Kind::BadUtf8,
        Error::IntNonMinimal => Kind::IntNonMinimal,
        Error::IntNonBin => Kind::IntNonBin,
        Error::FloatNonMinimal => Kind::FloatNonMinimal,
        Error::BlobBadChunk => Kind::BlobBadChunk,
        Error::BlobBadTerm => Kind::BlobBadTerm,
        Error::Tai64TooBig => Kind::Tai64TooBig,
        Error::Tai64BadNsec => Kind::Tai64BadNsec,
        Error::Tai64BadAsec => Kind::Tai64BadAsec,
        Error::Tai64NonMinimal => Kind::Tai64NonMinimal,
        Error::BadMagic => Kind::BadMagic,
        Error::MapBadKey => Kind::MapBadKey,
        Error::MapNoVal => Kind::MapNoVal,
        Error::MapUnordered => Kind::MapUnordered,
        Error::UnexpectedEoc => Kind::UnexpectedEoc,
        Error::DeepRecursion => Kind::DeepRecursion,
        Error::NoMem | Error::Invalid | Error::Unclosed | Error::WrongClose | Error::SecondRoot => {
            panic!("atom decoder returned {e:?}")
        }
    }
}

/// Minimal big-endian bytes of `v` (empty for 0).
pub fn minimal_be(v: u64) -> Vec<u8> {
    let b = v.to_be_bytes();
    let first = b.iter().position(|&x| x != 0).unwrap_or(8);
    b[first..].to_vec()
}

/// Converts a libyac atom, asserting the invariants its documentation
/// promises (integer classification, payload widths).
pub fn to_ref(atom: &Atom<'_>) -> RefAtom {
    match *atom {
        Atom::Eoc => RefAtom::Eoc,
        Atom::Nil => RefAtom::Nil,
        Atom::Bool(b) => RefAtom::Bool(b),
        Atom::Hexlet(h) => RefAtom::Hexlet(*h),
        Atom::Uint(v) => RefAtom::Int {
            negative: false,
            magnitude: minimal_be(v),
        },
        Atom::Nint(v) => {
            assert!(v < 0, "Nint({v}) is not negative");
            RefAtom::Int {
                negative: true,
                magnitude: minimal_be((-1 - v) as u64),
            }
        }
        Atom::BigInt {
            negative,
            magnitude,
        } => {
            let fits_small =
                magnitude.len() < 8 || (magnitude.len() == 8 && (!negative || magnitude[0] < 0x80));
            assert!(
                !fits_small,
                "BigInt {{ negative: {negative}, magnitude: {magnitude:02X?} }} fits u64/i64"
            );
            RefAtom::Int {
                negative,
                magnitude: magnitude.to_vec(),
            }
        }
        Atom::List => RefAtom::List,
        Atom::Map => RefAtom::Map,
        Atom::Blob {
            chunk_len_minus_one,
        } => RefAtom::Blob {
            chunk_len_m1: chunk_len_minus_one,
        },
        Atom::Float(p) => {
            assert!(
                matches!(p.len(), 2 | 4 | 8 | 16 | 32),
                "float of {}",
                p.len()
            );
            RefAtom::Float(p.to_vec())
        }
        Atom::Tai64(p) => {
            assert!(matches!(p.len(), 8 | 12 | 16), "TAI of {}", p.len());
            RefAtom::Tai(p.to_vec())
        }
        Atom::Magic(m) => RefAtom::Magic(*m),
        Atom::Bin(b) => RefAtom::Bin(b.to_vec()),
        Atom::Str(s) => RefAtom::Str(s.to_string()),
    }
}

enum Frame {
    List,
    /// Waiting for a key (or EOC); the previous key, if any.
    MapKey(Option<Vec<u8>>),
    /// Waiting for the value of this key.
    MapVal(Vec<u8>),
    /// Inside a BLOB with this chunk length.
    Blob(u128),
}

/// What [`walk`] saw: the atoms accepted with their offsets, and the
/// outcome (bytes the document took, or the error at an atom's offset).
#[derive(Debug)]
pub struct Walked {
    pub atoms: Vec<(usize, RefAtom)>,
    pub result: Result<usize, RefError>,
}

/// Walks the one document at the start of `buf` with `yac::atom::decode`.
pub fn walk(buf: &[u8]) -> Walked {
    let mut atoms = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut containers = 0usize;
    let mut pos = 0usize;
    let result = loop {
        let at = pos;
        let fail = |kind| RefError { kind, offset: at };
        let (atom, used) = match decode(&buf[at..]) {
            Ok(x) => x,
            Err(e) => break Err(fail(kind_of(e))),
        };
        assert!(
            used >= 1 && used <= buf.len() - at,
            "atom at {at} took {used} of {} bytes",
            buf.len() - at
        );
        pos += used;
        atoms.push((at, to_ref(&atom)));
        let is_eoc = atom == Atom::Eoc;
        // Structural rules that depend on the enclosing frame.
        match stack.last_mut() {
            Some(Frame::Blob(chunk)) => {
                let Atom::Bin(b) = atom else {
                    break Err(fail(Kind::BlobBadTerm));
                };
                let n = b.len() as u128;
                if n > *chunk {
                    break Err(fail(Kind::BlobBadChunk));
                }
                if n == *chunk {
                    continue;
                }
                stack.pop();
            }
            Some(Frame::MapKey(prev)) => match atom {
                Atom::Eoc => {
                    stack.pop();
                    containers -= 1;
                }
                Atom::Str(s) if !s.is_empty() => {
                    if let Some(p) = prev {
                        if !key_less(p, s.as_bytes()) {
                            break Err(fail(Kind::MapUnordered));
                        }
                    }
                    *stack.last_mut().unwrap() = Frame::MapVal(s.as_bytes().to_vec());
                    continue;
                }
                _ => break Err(fail(Kind::MapBadKey)),
            },
            Some(Frame::MapVal(key)) => {
                if is_eoc {
                    break Err(fail(Kind::MapNoVal));
                }
                let key = std::mem::take(key);
                *stack.last_mut().unwrap() = Frame::MapKey(Some(key));
            }
            Some(Frame::List) if is_eoc => {
                stack.pop();
                containers -= 1;
            }
            Some(Frame::List) => {}
            None if is_eoc => break Err(fail(Kind::UnexpectedEoc)),
            None => {}
        }
        // An item starts here (unless it was an EOC closing a container).
        if !is_eoc {
            match atom {
                Atom::List | Atom::Map => {
                    if containers >= MAX_DEPTH {
                        break Err(fail(Kind::DeepRecursion));
                    }
                    containers += 1;
                    stack.push(if atom == Atom::List {
                        Frame::List
                    } else {
                        Frame::MapKey(None)
                    });
                }
                Atom::Blob {
                    chunk_len_minus_one,
                } => stack.push(Frame::Blob(u128::from(chunk_len_minus_one) + 1)),
                _ => {}
            }
        }
        if stack.is_empty() {
            break Ok(pos);
        }
    };
    Walked { atoms, result }
}

/// Hex of the first bytes of `buf`, for failure messages.
pub fn hex_head(buf: &[u8]) -> String {
    let shown: String = buf.iter().take(96).map(|b| format!("{b:02X}")).collect();
    if buf.len() > 96 {
        format!("{shown}... ({} bytes)", buf.len())
    } else {
        shown
    }
}

/// Decodes one atom at the start of `buf` with both decoders and panics
/// (with the input) unless they agree on the atom, its length, or the error.
pub fn check_atom_agree(buf: &[u8]) -> Result<(RefAtom, usize), Kind> {
    let want = super::reference::decode_atom(buf);
    let got = decode(buf).map(|(a, n)| (to_ref(&a), n)).map_err(kind_of);
    assert_eq!(got, want, "atom decoders disagree on {}", hex_head(buf));
    want
}

/// Decodes the document at the start of `buf` with the reference and with
/// [`walk`], and panics (with the input) unless they accept the same atoms
/// at the same offsets and end the same way. Returns the outcome.
pub fn check_doc_agree(buf: &[u8]) -> Result<usize, RefError> {
    let want = super::reference::decode_traced(buf);
    let got = walk(buf);
    if want.atoms != got.atoms {
        let i = want
            .atoms
            .iter()
            .zip(&got.atoms)
            .position(|(a, b)| a != b)
            .unwrap_or(want.atoms.len().min(got.atoms.len()));
        panic!(
            "atom streams diverge at atom #{i}: reference {:?} vs libyac {:?} \
             (reference outcome {:?}, libyac {:?}) on {}",
            want.atoms.get(i),
            got.atoms.get(i),
            want.result.as_ref().map(|r| r.1),
            got.result,
            hex_head(buf)
        );
    }
    let want = want.result.map(|(_, n)| n);
    assert_eq!(got.result, want, "outcomes differ on {}", hex_head(buf));
    want
}

/// Prefix lengths worth checking for an item ending at `end`.
fn cuts(end: usize) -> Vec<usize> {
    let mut c: Vec<usize> = (0..=end.min(40)).collect();
    c.extend([end / 2, end.saturating_sub(2), end.saturating_sub(1), end]);
    c.sort_unstable();
    c.dedup();
    c
}

/// Checks the self-consistency of `yac::atom::decode` at the start of
/// `rest` (see fuzz/fuzz_targets/atom_decode.rs for the list) and returns
/// its outcome for the whole of `rest`.
pub fn check_atom_prefixes(rest: &[u8]) -> Result<usize, Error> {
    let full = decode(rest);
    assert!(
        !matches!(full, Err(Error::NoMem | Error::Invalid)),
        "{full:?}"
    );
    let end = match full {
        Ok((_, used)) => {
            assert!(
                used >= 1 && used <= rest.len(),
                "used {used} of {}",
                rest.len()
            );
            used
        }
        Err(Error::NotEnough(n)) => {
            assert!(n >= 1);
            rest.len()
        }
        Err(_) => rest.len(),
    };
    let mut prev: Option<(usize, usize)> = None; // (cut, n) of the last NotEnough
    for k in cuts(end) {
        let got = decode(&rest[..k]);
        if let Some((pk, pn)) = prev {
            if k - pk < pn {
                match got {
                    Err(Error::NotEnough(m)) => {
                        assert!(m >= pn - (k - pk), "{pk}+{pn} then {k}+{m}")
                    }
                    other => panic!("NotEnough({pn}) at {pk} but {other:?} at {k}"),
                }
            }
        }
        match (full, got) {
            (Ok((atom, used)), got) if k >= used => assert_eq!(got, Ok((atom, used))),
            (Ok((_, used)), Err(Error::NotEnough(n))) => assert!(k + n <= used, "{k}+{n} > {used}"),
            (Ok(_), other) => panic!("prefix {k} gives {other:?}, the whole atom decodes"),
            (Err(Error::NotEnough(m)), Err(Error::NotEnough(n))) => {
                assert!(k + n <= rest.len() + m, "{k}+{n} > {}+{m}", rest.len())
            }
            (Err(Error::NotEnough(_)), other) => {
                panic!("prefix {k} gives {other:?}, whole is short")
            }
            (Err(_), Err(Error::NotEnough(n))) => {
                assert!(k + n <= rest.len(), "{k}+{n} > {}", rest.len())
            }
            (Err(e), Err(f)) => assert_eq!(e, f, "final errors differ at prefix {k}"),
            (Err(e), Ok(a)) => panic!("prefix {k} gives {a:?}, whole gives {e:?}"),
        }
        prev = match got {
            Err(Error::NotEnough(n)) => Some((k, n)),
            _ => None,
        };
    }
    // Growing a short input by fewer than n bytes leaves it short.
    if let Err(Error::NotEnough(n)) = full {
        if n > 1 && n < 1 << 20 {
            for fill in [0x00u8, 0xFF, 0x80] {
                let mut longer = rest.to_vec();
                longer.resize(rest.len() + n - 1, fill);
                match decode(&longer) {
                    Err(Error::NotEnough(m)) => assert!(m >= 1),
                    other => panic!("NotEnough({n}) then {other:?} with {} more", n - 1),
                }
            }
        }
    }
    full.map(|(_, used)| used)
}
