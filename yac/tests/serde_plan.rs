//! The serializer's field plans: a struct type's later instances (written
//! by the plan learnt from the first) give the same bytes as each instance
//! written alone (the general path), whatever their fields do: skipped,
//! reordered, repeated, or another type of the same name.
#![cfg(feature = "serde")]

extern crate keks as yac;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

/// Writes `items` as one LIST and checks it against each item written
/// alone, into a LIST by hand. Alone is on a thread of its own: a thread
/// keeps the plans it learnt for its next documents.
fn same_as_alone<T: Serialize + Sync>(items: &[T]) {
    let mut want = vec![0x08];
    for it in items {
        want.extend(alone(it));
    }
    want.push(0x00);
    assert_eq!(yac::to_vec(items).unwrap(), want);
    // The core's parser refuses MAP keys out of order.
    let mut pool = vec![yac::items::Item::default(); want.len() + 1];
    let mut off = 0;
    yac::items::Items::new(&mut pool)
        .parse(&want, &mut off)
        .expect("canonical");
    assert_eq!(off, want.len());
}

/// `it` written on a new thread, with no plans learnt before.
fn alone<T: Serialize + Sync + ?Sized>(it: &T) -> Vec<u8> {
    std::thread::scope(|s| s.spawn(|| yac::to_vec(it).unwrap()).join().unwrap())
}

mod one {
    #[derive(serde::Serialize)]
    pub struct Text {
        pub zz: u8,
        pub a: u8,
    }
}

mod two {
    #[derive(serde::Serialize)]
    pub struct Text {
        pub url: &'static str,
        pub b: u8,
        pub title: &'static str,
        pub long_field_name_beyond_sixteen: u8,
    }
}

#[derive(Serialize)]
struct Both {
    one: Vec<one::Text>,
    two: Vec<two::Text>,
}

#[test]
fn two_types_of_one_name_each_keep_their_fields() {
    let one = |i| one::Text { zz: i, a: i + 1 };
    let two = |i| two::Text {
        url: "u",
        b: i,
        title: "t",
        long_field_name_beyond_sixteen: i,
    };
    same_as_alone(&[
        Both {
            one: (0..3).map(one).collect(),
            two: (0..3).map(two).collect(),
        },
        Both {
            one: vec![one(7)],
            two: (0..2).map(two).collect(),
        },
    ]);
}

#[derive(Serialize)]
struct Sometimes {
    zz: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    mid: Option<u8>,
    a: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    last: Option<u8>,
}

#[test]
fn skipped_fields_are_left_out_of_the_plan_s_order() {
    let s = |i: u8| Sometimes {
        zz: i,
        mid: (i % 2 == 0).then_some(i),
        a: i,
        last: (i % 3 == 0).then_some(i),
    };
    // Learnt with and without each field first.
    same_as_alone(&(0..12).map(s).collect::<Vec<_>>());
    same_as_alone(&(1..12).map(s).collect::<Vec<_>>());
}

/// Declared in key order (a plan that moves nothing), with fields that
/// may be skipped before, between and after the others.
#[derive(Serialize)]
struct InOrderSometimes {
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<u8>,
    bb: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    cc: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dd: Option<u8>,
    eee: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    ffff: Option<u8>,
}

/// Holds one in a struct whose fields are moved (by where they start,
/// which the inner one's skipped fields must not disturb).
#[derive(Serialize)]
struct AroundInOrder {
    zz: u8,
    inner: InOrderSometimes,
    a: u8,
}

#[test]
fn skipped_fields_of_a_struct_in_key_order_keep_the_plan() {
    let s = |i: u8| InOrderSometimes {
        a: (i & 1 != 0).then_some(i),
        bb: i,
        cc: (i & 2 != 0).then_some("c"),
        dd: (i & 4 != 0).then_some(i),
        eee: i,
        ffff: (i & 8 != 0).then_some(i),
    };
    // Every combination, learnt from each of the first few (from the
    // first only under Miri, where each instance alone is a thread).
    for first in 0..if cfg!(miri) { 1 } else { 4 } {
        same_as_alone(&(first..16).chain(0..first).map(s).collect::<Vec<_>>());
        let around = |i| AroundInOrder {
            zz: i,
            inner: s(i),
            a: i,
        };
        same_as_alone(&(first..16).chain(0..first).map(around).collect::<Vec<_>>());
    }
}

/// Fields skipped in every combination, the type nested in itself: its
/// plan is replaced (a field it lacked comes) while an instance written by
/// the plan before is open.
#[derive(Serialize)]
struct Nest {
    zzz: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    inner: Option<Box<Nest>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<u8>,
    a: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    yy: Option<&'static str>,
}

fn nest(i: u8, depth: u8) -> Nest {
    Nest {
        zzz: i,
        inner: (i & 1 != 0 && depth > 0).then(|| Box::new(nest(i.rotate_right(1), depth - 1))),
        b: (i & 2 != 0).then_some(i),
        a: i,
        yy: (i & 4 != 0).then_some("a value longer than thirty-two bytes"),
    }
}

#[test]
fn plans_take_in_fields_their_first_instances_skipped() {
    // Learnt from each of the first few instances (two under Miri, where
    // each instance alone is a thread: all eight took two minutes there).
    for first in 0..if cfg!(miri) { 2 } else { 8 } {
        same_as_alone(&(first..first + 16).map(|i| nest(i, 3)).collect::<Vec<_>>());
        same_as_alone(
            &(first..first + 16)
                .rev()
                .map(|i| nest(i, 2))
                .collect::<Vec<_>>(),
        );
    }
}

#[derive(Serialize)]
enum Variant {
    A { zz: u8, a: u8 },
    B { zz: u8, bbb: u8, a: u8 },
    C { a: u8, b: u8 },
}

#[test]
fn struct_variants_have_plans_of_their_own() {
    same_as_alone(
        &(0..3)
            .flat_map(|i| {
                [
                    Variant::A { zz: i, a: 2 },
                    Variant::B {
                        zz: i,
                        bbb: 2,
                        a: 3,
                    },
                    Variant::C { a: i, b: 2 },
                ]
            })
            .collect::<Vec<_>>(),
    );
}

const ZZ: &str = "zz";
const A: &str = "a";
const BBB: &str = "bbb";

/// One struct type (name "Odd") whose fields change from instance to
/// instance: their order, their number, or one name twice.
enum Odd {
    Usual,
    Reversed,
    Fewer,
    More,
    Twice,
}

impl Serialize for Odd {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields: &[&'static str] = match self {
            Odd::Usual => &[ZZ, A, BBB],
            Odd::Reversed => &[BBB, A, ZZ],
            Odd::Fewer => &[ZZ, BBB],
            Odd::More => &[ZZ, A, BBB, "c"],
            Odd::Twice => &[ZZ, A, ZZ],
        };
        let mut st = s.serialize_struct("Odd", fields.len())?;
        for (i, f) in fields.iter().enumerate() {
            st.serialize_field(f, &(i as u8))?;
        }
        st.end()
    }
}

#[test]
fn fields_off_the_plan_are_put_in_order_or_refused() {
    use Odd::*;
    same_as_alone(&[Usual, Reversed, Usual, Fewer, More, Usual, More, Reversed]);
    same_as_alone(&[Reversed, Usual, Usual]);
    for list in [vec![Usual, Twice], vec![Twice], vec![Usual, Usual, Twice]] {
        let e = yac::to_vec(&list).unwrap_err();
        assert_eq!(e.format_error(), Some(yac::Error::MapUnordered));
    }
}

/// Many fields in reverse key order, each holding the next level.
#[derive(Serialize)]
struct Deep {
    zzzz: u8,
    yyy: Vec<Deep>,
    xx: &'static str,
    w: Option<Box<Deep>>,
}

fn deep(d: u8) -> Deep {
    Deep {
        zzzz: d,
        yyy: (0..d).map(deep).collect(),
        xx: "text long enough to be moved about",
        w: d.checked_sub(1).map(|d| Box::new(deep(d))),
    }
}

#[test]
fn nested_planned_structs_are_permuted_each_once() {
    same_as_alone(&(0..5).map(deep).collect::<Vec<_>>());
    let mut out = Vec::new();
    yac::to_writer(&mut out, &(0..5).map(deep).collect::<Vec<_>>()).unwrap();
    assert_eq!(
        out,
        yac::to_vec(&(0..5).map(deep).collect::<Vec<_>>()).unwrap()
    );
}

/// Key order is the declaration's two runs swapped: rotated in place
/// (large bodies) or gathered.
#[derive(Serialize)]
struct Rotated {
    ccc: &'static str,
    dddd: Vec<u8>,
    a: u8,
    b: Option<Box<Rotated>>,
}

fn rotated(d: u8) -> Rotated {
    Rotated {
        ccc: "c",
        // Bodies below and above the size from which they are rotated.
        dddd: vec![d; d as usize * 60],
        a: d,
        b: d.checked_sub(1).map(|d| Box::new(rotated(d))),
    }
}

#[test]
fn swapped_runs_are_rotated() {
    same_as_alone(&(0..6).map(rotated).collect::<Vec<_>>());
    same_as_alone(&[one::Text { zz: 1, a: 2 }, one::Text { zz: 3, a: 4 }]);
}

/// Two fields swapped by the plan (key order `a zz`), each of every size
/// class of a rotation: both runs short (in registers), one short and the
/// other long, either way round (the short one held while the other is
/// moved), both long.
#[derive(Serialize)]
struct Pair {
    zz: String,
    a: String,
}

#[test]
fn swapped_runs_of_any_sizes_are_rotated() {
    let sizes: &[usize] = if cfg!(miri) {
        // The interpreter is slow; one size of each class.
        &[0, 28, 61, 100]
    } else {
        &[0, 10, 27, 28, 50, 59, 60, 61, 62, 100, 300]
    };
    let pairs: Vec<Pair> = sizes
        .iter()
        .flat_map(|&m| sizes.iter().map(move |&n| (m, n)))
        .map(|(m, n)| Pair {
            zz: "z".repeat(m),
            a: "a".repeat(n),
        })
        .collect();
    same_as_alone(&pairs);
    // Each alone after the first (the plan's), and at the end of the
    // output's allocation (where a rotation that would write past the end
    // is done by `rotate_left`) or with any room past it.
    for p in &pairs {
        let items = [&pairs[0], p];
        let doc = yac::to_vec(&items).unwrap();
        for spare in [0, 1, 63, 64, 65] {
            let mut out = Vec::with_capacity(doc.len() + spare);
            yac::append_to_vec(&mut out, &items).unwrap();
            assert_eq!(out, doc, "{} {} {spare}", p.zz.len(), p.a.len());
        }
    }
}

/// Key order `image sheet_x sheet_y unified added_in has_img_apple
/// non_qualified has_img_google`: declared fields that stay together
/// (`image..sheet_y`, `added_in has_img_apple`) are gathered as one run;
/// with runs of every size class (up to 32 bytes, up to 64, longer) and a
/// field skipped at the end.
#[derive(Serialize)]
struct Runs {
    unified: String,
    non_qualified: Option<String>,
    image: String,
    sheet_x: u32,
    sheet_y: u32,
    added_in: String,
    has_img_apple: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    has_img_google: Option<bool>,
}

fn runs(i: usize) -> Runs {
    let text = |n: usize| "x".repeat(n);
    Runs {
        unified: text(i * 7 % 90),
        non_qualified: (i % 3 != 0).then(|| text(i * 13 % 70)),
        image: text(i * 11 % 80),
        sheet_x: i as u32 * 1000,
        sheet_y: i as u32,
        added_in: text(i * 5 % 40),
        has_img_apple: i % 2 == 0,
        has_img_google: (i % 4 != 0).then_some(i % 5 == 0),
    }
}

#[test]
fn fields_declared_together_are_gathered_as_one_run() {
    same_as_alone(&(0..40).map(runs).collect::<Vec<_>>());
}

/// Keys at the edges of the planned key's stores (15, 16 and 17 bytes)
/// and one byte long.
#[derive(Serialize)]
struct KeyLengths {
    z: u8,
    fifteen_bytes_k: u8,
    sixteen_bytes_ky: u8,
    seventeen_bytes_k: u8,
}

#[test]
fn planned_keys_of_every_store_size_are_written_whole() {
    let items: Vec<KeyLengths> = (0..4)
        .map(|i| KeyLengths {
            z: i,
            fifteen_bytes_k: i + 1,
            sixteen_bytes_ky: i + 2,
            seventeen_bytes_k: i + 3,
        })
        .collect();
    same_as_alone(&items);
}

/// A planned struct gathered where the output has no room past its end
/// for the fixed-size copies (the exact copies then), and nowhere else:
/// the same bytes, and the `Vec` of the document's size is not grown.
#[test]
fn structs_gathered_at_the_end_of_the_capacity_are_whole() {
    for n in 1..6 {
        let items: Vec<Deep> = (0..n).map(deep).collect();
        let doc = yac::to_vec(&items).unwrap();
        let mut out = Vec::with_capacity(doc.len());
        let cap = out.capacity();
        yac::append_to_vec(&mut out, &items).unwrap();
        assert_eq!(out, doc);
        assert_eq!(out.capacity(), cap, "{n}");
        // And with any room past the end.
        for spare in [1, 31, 32, 63, 64, 65] {
            let mut out = Vec::with_capacity(doc.len() + spare);
            yac::append_to_vec(&mut out, &items).unwrap();
            assert_eq!(out, doc);
        }
    }
    same_as_alone(&(0..4).map(deep).collect::<Vec<_>>());
}

/// A struct written inside another's `Serialize` (a document within a
/// document, on the same thread) and the documents after it: the same
/// bytes as each written on a thread of its own.
#[test]
fn plans_kept_between_documents_give_the_same_bytes() {
    struct Nested(Vec<Deep>);
    impl Serialize for Nested {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            // The inner document is written while the outer one is open.
            let inner = yac::to_vec(&self.0).map_err(serde::ser::Error::custom)?;
            let mut st = s.serialize_struct("Nested", 2)?;
            st.serialize_field("zz", &self.0)?;
            st.serialize_field("bytes", serde_bytes::Bytes::new(&inner))?;
            st.end()
        }
    }
    let docs: Vec<Nested> = (0..4).map(|n| Nested((0..n).map(deep).collect())).collect();
    for _ in 0..2 {
        for d in &docs {
            assert_eq!(yac::to_vec(d).unwrap(), alone(d));
        }
    }
}

/// A field after which a large one comes in key order.
#[derive(Serialize)]
struct LargeSecond {
    name: &'static str,
    #[serde(with = "serde_bytes")]
    data: Vec<u8>,
}

/// Instances whose fields move a large run (written the general way from
/// the first large one on) and small ones, in both orders of learning.
#[test]
fn large_structs_whose_fields_move_are_whole() {
    let item = |n: usize| LargeSecond {
        name: "n",
        data: vec![7; n],
    };
    same_as_alone(&[item(1), item(10_000), item(2), item(5000), item(3)]);
    same_as_alone(&[item(10_000), item(1), item(2)]);
}
