//! The streaming writer fed the content of the reference documents of
//! ../shared/data (a tree parsed from each `.yac`) writes them back byte
//! for byte: into one buffer, through a flush callback and a small buffer,
//! counted only, and (licenses) with every MAP's keys given in reverse
//! order to MAPs sorted on close.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac_testkit as common;

use yac::items::{Item, Items, ItemsMut};
use yac::writer::Level;
use yac::writer::Writer;
use yac::{Error, ItemType};

/// Feeds node `root` to `w`. `reverse`: every MAP is opened sorted on
/// close and gets its pairs last to first. Recursion is fine here: the
/// documents nest 9 deep at most.
fn feed(items: &ItemsMut<'_, '_>, n: u32, w: &mut Writer<'_>, reverse: bool) -> Result<(), Error> {
    match items.item_type(n) {
        ItemType::Nil => w.nil(),
        ItemType::False => w.bool(false),
        ItemType::True => w.bool(true),
        ItemType::Pint => w.uint(items.get_uint(n)?),
        ItemType::Nint => w.sint(items.get_int(n)?),
        ItemType::Str => w.str(items.get_str(n)?),
        ItemType::Bin => w.bin(items.get_bin(n)?),
        ItemType::List => {
            w.list()?;
            for c in items.children(n) {
                feed(items, c, w, reverse)?;
            }
            w.eoc()
        }
        ItemType::Map if reverse => {
            w.map_sorted()?;
            let kids: Vec<u32> = items.children(n).collect();
            for pair in kids.chunks(2).rev() {
                feed(items, pair[0], w, reverse)?;
                feed(items, pair[1], w, reverse)?;
            }
            w.eoc()
        }
        ItemType::Map => {
            w.map()?;
            for c in items.children(n) {
                feed(items, c, w, reverse)?;
            }
            w.eoc()
        }
        t => panic!("no {t:?} in the reference documents"),
    }
}

#[test]
fn reference_documents_written_byte_for_byte() {
    let Some(dir) = common::shared_data_dir("licenses.yac") else {
        return;
    };
    for name in ["licenses", "canada-list", "canada-map"] {
        let doc = std::fs::read(dir.join(format!("{name}.yac"))).unwrap();
        let (need, _) = yac::items::count_nodes(&doc, 0).unwrap();
        let mut pool = vec![Item::default(); need];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();

        // Into one buffer, keys in order.
        let mut buf = vec![0u8; doc.len()];
        let mut w = Writer::new(&mut buf);
        feed(&items, root, &mut w, false).unwrap();
        assert_eq!(w.finish(), Ok(doc.len()), "{name}");
        assert!(w.written() == doc, "{name}: byte for byte");

        // One byte short: NoMem and the exact size.
        let mut w = Writer::new(&mut buf[..doc.len() - 1]);
        feed(&items, root, &mut w, false).unwrap();
        assert_eq!(w.finish(), Err(Error::NoMem), "{name}");
        assert_eq!(w.position(), doc.len(), "{name}");

        // Counted only, with a key area.
        let mut keys = [0u8; 256];
        let mut w = Writer::count_only().keys(&mut keys);
        feed(&items, root, &mut w, false).unwrap();
        assert_eq!(w.finish(), Ok(doc.len()), "{name}: counted");

        // Streamed through a 100-byte buffer with a key area.
        let mut out = Vec::with_capacity(doc.len());
        let mut sink = |b: &[u8]| -> Result<(), Error> {
            out.extend_from_slice(b);
            Ok(())
        };
        let mut small = [0u8; 100];
        let mut levels = [Level::default(); 12];
        {
            let mut w = Writer::new(&mut small)
                .levels(&mut levels)
                .keys(&mut keys)
                .flush(&mut sink);
            feed(&items, root, &mut w, false).unwrap();
            assert_eq!(w.finish(), Ok(doc.len()), "{name}: streamed");
        }
        assert!(out == doc, "{name}: streamed byte for byte");

        // Keys last to first, sorted on close.
        if name == "licenses" {
            let mut w = Writer::new(&mut buf);
            feed(&items, root, &mut w, true).unwrap();
            assert_eq!(w.finish(), Ok(doc.len()), "{name}: sorted on close");
            assert!(w.written() == doc, "{name}: sorted on close, byte for byte");
        }
    }
}
