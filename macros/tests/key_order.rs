//! `#[key_order]` on real serde derives: every struct type is written
//! with nothing moved (`keks::ser::field_orders`), and the bytes are those
//! of the same type declared as written, read back equal.

use std::collections::BTreeMap;

use keks::ser::FieldOrder;
use keks_macros::key_order;
use serde::{Deserialize, Serialize};

/// Checks that `value` writes only types in key order, and the bytes of
/// `plain` (the same data, declared as in the source, some of its types
/// out of key order), and reads back.
fn check<T>(value: &T, plain: &impl Serialize)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let bytes = written(value, plain);
    assert_eq!(&keks::from_slice::<T>(&bytes).unwrap(), value);
}

/// [`check`] but the read back: `value`'s bytes.
fn written(value: &impl Serialize, plain: &impl Serialize) -> Vec<u8> {
    let moved = keks::ser::field_orders(plain).unwrap();
    assert!(moved.iter().any(|o| !o.is_key_order()), "{moved:?}");
    let orders = keks::ser::field_orders(value).unwrap();
    assert_eq!(orders.len(), moved.len());
    for o in &orders {
        let FieldOrder {
            name,
            declared,
            key_order,
        } = o;
        assert!(
            o.is_key_order(),
            "{name} is declared {declared:?}, key order {key_order:?}"
        );
    }
    let bytes = keks::to_vec(value).unwrap();
    assert_eq!(bytes, keks::to_vec(plain).unwrap());
    bytes
}

/// The same item twice: `$ordered` under the attribute, `$plain` without.
macro_rules! twins {
    ($(#[$attr:meta])* $kind:ident $ordered:ident / $plain:ident { $($body:tt)* }) => {
        #[key_order]
        #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
        $(#[$attr])*
        $kind $ordered { $($body)* }

        #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
        $(#[$attr])*
        $kind $plain { $($body)* }
    };
}

/// The same value of two twins (`$path` after the type: a variant).
macro_rules! pair {
    ($ordered:ident / $plain:ident $(:: $variant:ident)? { $($body:tt)* }) => {
        ($ordered $(:: $variant)? { $($body)* }, $plain $(:: $variant)? { $($body)* })
    };
}

twins! {
    struct License / LicensePlain {
        id: String,
        identifiers: Vec<String>,
        links: Vec<String>,
        name: String,
        other_names: Vec<String>,
        superseded_by: Option<String>,
        keywords: Vec<String>,
        text: BTreeMap<String, u32>,
    }
}

twins! {
    #[serde(rename_all = "camelCase")]
    struct Camel / CamelPlain {
        sheet_x: u32,
        has_img_apple: bool,
        #[serde(rename = "zz")]
        added_in: String,
        r#type: u8,
        #[serde(rename(serialize = "a", deserialize = "a"))]
        long_field_name: i64,
        #[serde(skip)]
        cache: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        obsoletes: Option<String>,
        // "aBCD" before "abcde" (as declared without the rule: after).
        abcde: u8,
        a_b_c_d: u8,
    }
}

twins! {
    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
    struct Kebab / KebabPlain {
        ab_cd: u8,
        a: u8,
        abc: u8,
        b_c: u8,
    }
}

twins! {
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Screaming / ScreamingPlain {
        // "ABC" before "A_B" (as declared without the rule: after).
        a_b: u8,
        abc: u8,
        x: u8,
    }
}

/// A library's optional serde: the derive and the serde attributes
/// inside `cfg_attr`s (as `#[cfg_attr(feature = "serde", ...)]`).
#[key_order]
#[cfg_attr(all(), derive(Serialize, Deserialize, PartialEq, Debug))]
#[cfg_attr(all(), serde(rename_all = "SCREAMING_SNAKE_CASE"))]
struct Optional {
    q: u8,
    a_b: u8,
    abc: u8,
    #[cfg_attr(all(), serde(rename = "zzzzzz"))]
    x: u8,
}

#[derive(Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct OptionalPlain {
    q: u8,
    a_b: u8,
    abc: u8,
    #[serde(rename = "zzzzzz")]
    x: u8,
}

twins! {
    #[serde(rename_all_fields = "UPPERCASE")]
    enum Shape / ShapePlain {
        // "ABC" before "A_B" (as declared without the rule: after).
        Circle { radius: f64, a_b: f64, abc: f64 },
        #[serde(rename_all = "camelCase")]
        Box { top_left_x: i32, w: i32, h: i32 },
        Point(i32, i32),
        Nothing,
    }
}

#[key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Nested<'a> {
    shapes: Vec<Shape>,
    #[serde(borrow)]
    label: &'a str,
    camel: Camel,
    kebab: Kebab,
}

#[derive(Serialize)]
struct NestedPlain<'a> {
    shapes: Vec<ShapePlain>,
    label: &'a str,
    camel: CamelPlain,
    kebab: KebabPlain,
}

fn camel(obsoletes: Option<String>) -> (Camel, CamelPlain) {
    pair!(
        Camel
            / CamelPlain {
                sheet_x: 3,
                has_img_apple: true,
                added_in: "1.0".into(),
                r#type: 7,
                long_field_name: -1,
                cache: 0,
                obsoletes: obsoletes.clone(),
                abcde: 1,
                a_b_c_d: 2,
            }
    )
}

fn kebab() -> (Kebab, KebabPlain) {
    pair!(
        Kebab
            / KebabPlain {
                ab_cd: 1,
                a: 2,
                abc: 3,
                b_c: 4
            }
    )
}

#[test]
fn structs_are_written_in_key_order_with_nothing_moved() {
    let text: BTreeMap<String, u32> = [("b".to_string(), 2), ("a".to_string(), 1)].into();
    let (license, plain) = pair!(
        License
            / LicensePlain {
                id: "MIT".into(),
                identifiers: vec!["x".into()],
                links: vec![],
                name: "MIT License".into(),
                other_names: vec!["Expat".into()],
                superseded_by: None,
                keywords: vec!["osi".into()],
                text: text.clone(),
            }
    );
    check(&license, &plain);
}

#[test]
fn renames_rules_and_skipped_fields_are_followed() {
    for obsoletes in [None, Some("old".to_string())] {
        let (camel, plain) = camel(obsoletes);
        check(&camel, &plain);
    }
    let (kebab, plain) = kebab();
    check(&kebab, &plain);
    let (screaming, plain) = pair!(
        Screaming
            / ScreamingPlain {
                a_b: 1,
                abc: 2,
                x: 3
            }
    );
    check(&screaming, &plain);
    let optional = Optional {
        q: 1,
        a_b: 2,
        abc: 3,
        x: 4,
    };
    let plain = OptionalPlain {
        q: 1,
        a_b: 2,
        abc: 3,
        x: 4,
    };
    check(&optional, &plain);
}

#[test]
fn struct_variants_and_nested_types_are_in_key_order() {
    let circle = pair!(
        Shape
            / ShapePlain::Circle {
                radius: 1.5,
                a_b: 0.0,
                abc: -2.0
            }
    );
    let rect = pair!(
        Shape
            / ShapePlain::Box {
                top_left_x: 1,
                w: 2,
                h: 3
            }
    );
    let shapes = vec![circle.0, rect.0, Shape::Point(4, 5), Shape::Nothing];
    let plain_shapes = vec![
        circle.1,
        rect.1,
        ShapePlain::Point(4, 5),
        ShapePlain::Nothing,
    ];
    check(&shapes, &plain_shapes);
    let (camel, camel_plain) = camel(None);
    let (kebab, kebab_plain) = kebab();
    let (nested, plain) = (
        Nested {
            shapes,
            label: "label",
            camel,
            kebab,
        },
        NestedPlain {
            shapes: plain_shapes,
            label: "label",
            camel: camel_plain,
            kebab: kebab_plain,
        },
    );
    // Borrowing from the document: read back here.
    let bytes = written(&nested, &plain);
    assert_eq!(keks::from_slice::<Nested<'_>>(&bytes).unwrap(), nested);
}
