//! `keks::ser::field_orders`: the struct types a value writes, each with
//! its fields in declaration and in key order.
#![cfg(feature = "serde")]

use keks::ser::{field_orders, FieldOrder};
use serde::Serialize;

#[derive(Serialize)]
struct Outer {
    zeta: Vec<Inner>,
    #[serde(rename = "id")]
    identifier: u8,
    kind: Kind,
}

#[derive(Serialize)]
struct Inner {
    a: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    long_name: Option<u8>,
    bb: u8,
}

#[derive(Serialize)]
enum Kind {
    Point { y: i8, x: i8 },
}

fn order(name: &'static str, declared: &[&'static str], key_order: &[&'static str]) -> FieldOrder {
    FieldOrder {
        name,
        declared: declared.to_vec(),
        key_order: key_order.to_vec(),
    }
}

#[test]
fn every_struct_type_is_reported_once_in_the_order_first_met() {
    let v = Outer {
        zeta: vec![
            // The first instance skips a field; the second gives it.
            Inner {
                a: 1,
                long_name: None,
                bb: 2,
            },
            Inner {
                a: 3,
                long_name: Some(4),
                bb: 5,
            },
            Inner {
                a: 6,
                long_name: None,
                bb: 7,
            },
        ],
        identifier: 9,
        kind: Kind::Point { y: 1, x: 2 },
    };
    assert_eq!(
        field_orders(&v).unwrap(),
        [
            order(
                "Inner",
                &["a", "long_name", "bb"],
                &["a", "bb", "long_name"]
            ),
            // A struct variant by the variant's name.
            order("Point", &["y", "x"], &["x", "y"]),
            // Names as written (renamed).
            order("Outer", &["zeta", "id", "kind"], &["id", "kind", "zeta"]),
        ]
    );
    assert!(field_orders(&v).unwrap().iter().all(|o| !o.is_key_order()));
}

#[test]
fn a_field_no_instance_gave_is_not_listed() {
    let v = [Inner {
        a: 1,
        long_name: None,
        bb: 2,
    }];
    let orders = field_orders(&v).unwrap();
    assert_eq!(orders, [order("Inner", &["a", "bb"], &["a", "bb"])]);
    assert!(orders[0].is_key_order());
}

#[test]
fn types_the_thread_wrote_before_are_not_reported() {
    #[derive(Serialize)]
    struct Earlier {
        b: u8,
        a: u8,
    }
    let before = keks::to_vec(&Earlier { b: 1, a: 2 }).unwrap();
    assert_eq!(field_orders(&5u8).unwrap(), []);
    assert_eq!(
        field_orders(&Earlier { b: 1, a: 2 }).unwrap(),
        [order("Earlier", &["b", "a"], &["a", "b"])]
    );
    // The thread's own plan (learnt from the first document) still gives
    // the same bytes.
    assert_eq!(keks::to_vec(&Earlier { b: 1, a: 2 }).unwrap(), before);
}

#[test]
fn errors_are_the_serializer_s() {
    #[derive(Serialize)]
    struct F {
        f: f64,
    }
    let e = field_orders(&F { f: -0.0 }).unwrap_err();
    assert_eq!(e.kind(), &keks::serde::ErrorKind::NegativeZero);
    assert_eq!(
        e.to_string(),
        keks::to_vec(&F { f: -0.0 }).unwrap_err().to_string()
    );
}
