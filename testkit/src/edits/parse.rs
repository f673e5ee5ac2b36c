//! The incremental parses of an edit program: a document of the region
//! fed cut anywhere, then resumed, resumed wrongly, or aborted.

use super::*;

pub(super) fn parse_step<'d>(
    op: u8,
    inp: &mut Input<'d>,
    items: &mut ItemsMut<'_, 'd>,
    m: &mut Model,
    docs: &'d [u8],
) -> (Want, Result<(), Error>) {
    let (start, end, mut off) = match m.parsing {
        None => {
            // Mostly from the region's start (a document, when the region
            // is one), to its end or cut anywhere.
            let start = if inp.bool() {
                0
            } else {
                inp.below(docs.len() + 1)
            };
            let end = if inp.byte() > 63 {
                docs.len()
            } else {
                start + inp.below(docs.len() - start + 1)
            };
            (start, end, 0)
        }
        Some(p) if op == 17 => {
            // A call that does not continue the unfinished parse: another
            // buffer start or another offset. Refused, nothing changed.
            let start = inp.below(docs.len() + 1);
            let off = inp.below(docs.len() - start + 1);
            if start == p.start && off == p.off {
                return (Want::Any, Ok(()));
            }
            let buf = &docs[start..];
            let mut o = off;
            let r = items.parse(buf, &mut o);
            assert_eq!(o, off, "a refused parse moved the offset");
            return (Want::Refused, r.map(|_| ()));
        }
        Some(p) => {
            let end = if inp.bool() {
                docs.len()
            } else {
                p.end + inp.below(docs.len() - p.end + 1)
            };
            (p.start, end, p.off)
        }
    };
    let buf = &docs[start..end];
    let r = items.parse(buf, &mut off);
    match r {
        Ok(root) => {
            m.parsing = None;
            import(items, m, root, &buf[..off]);
        }
        Err(Error::NotEnough(_) | Error::NoMem) => {
            // The unfinished document is invisible: the model is unchanged.
            m.parsing = Some(Parse { start, end, off });
        }
        Err(_) => m.parsing = None,
    }
    (Want::Any, r.map(|_| ()))
}
