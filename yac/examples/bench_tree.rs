//! Rust-side benchmark of the core, for profiling (the C benchmark against
//! msgpack-c lives in benches/c/).
//! Usage:
//!   cargo run -p keks --release --example bench_tree [-- DATA_DIR]
//! Prints per document: median parse / atom walk / encode time and MB/s.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use std::time::Instant;

use yac::items::{count_nodes, Item, Items, Options};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data").to_string());
    println!(
        "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "document", "parse ms", "MB/s", "noutf8 ms", "atoms ms", "encode ms"
    );
    // YAC_BENCH_ONLY=name and YAC_BENCH_REPS=n narrow a run (for callgrind).
    let only = std::env::var("YAC_BENCH_ONLY").ok();
    let reps_override: Option<usize> = std::env::var("YAC_BENCH_REPS")
        .ok()
        .and_then(|r| r.parse().ok());
    for name in ["licenses", "canada-list", "canada-map"] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let doc = std::fs::read(format!("{dir}/{name}.yac")).expect("benchmark data");
        let (need, _) = count_nodes(&doc, 0).unwrap();
        let mut pool = vec![Item::default(); need];
        let reps = reps_override.unwrap_or(if doc.len() < 100_000 { 2001 } else { 61 });
        let mut parse_with = |opts: Options| {
            time(reps, || {
                let mut items = Items::new(&mut pool);
                items.opts = opts;
                let mut off = 0;
                std::hint::black_box(items.parse(std::hint::black_box(&doc), &mut off).unwrap());
            })
        };
        let parse = parse_with(Options::default());
        let trusted = parse_with(Options {
            trust_utf8: true,
            ..Options::default()
        });
        let atoms = time(reps, || {
            let mut off = 0;
            while off < doc.len() {
                let (_, n) = yac::atom::decode(std::hint::black_box(&doc[off..])).unwrap();
                off += n;
            }
        });
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        let mut out = vec![0u8; doc.len()];
        let encode = time(reps, || {
            std::hint::black_box(items.encode(root, &mut out).unwrap());
        });
        println!(
            "{:<12} {:>10.3} {:>10.1} {:>10.3} {:>10.3} {:>10.3}",
            name,
            parse * 1e3,
            doc.len() as f64 / parse / 1e6,
            trusted * 1e3,
            atoms * 1e3,
            encode * 1e3
        );
    }
}
