//! `#[key_order]`: a struct's fields declared in KEKS key order at
//! compile time, for the [`keks`](https://docs.rs/keks) serializer.
//!
//! KEKS (YAC) writes a MAP's keys in one canonical order: shorter keys
//! first, then bytewise. serde hands a struct's fields to a serializer in
//! the order they are declared, so `keks` writes a struct declared in
//! another order field by field and then moves the fields into key order
//! when the struct ends. The document is the same either way; the moving
//! is what makes `keks::to_vec` slower than rmp-serde on structs declared
//! out of key order (1.15-1.27x rmp-serde's instructions on the
//! benchmark's documents, against 0.73-0.90x declared in key order).
//!
//! Put above the `#[derive]`, this attribute declares the item's fields in
//! key order, by the names serde writes (`rename`, `rename_all`,
//! `rename_all_fields` included), so that nothing is moved. The source
//! keeps the order that reads best.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[keks_macros::key_order]
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! #[serde(rename_all = "camelCase")]
//! struct Reading {
//!     sensor_name: String, // "sensorName", 10 bytes: written last
//!     value: f64,          // "value"
//!     unit: String,        // "unit": written first
//! }
//!
//! let r = Reading { sensor_name: "t1".into(), value: 1.5, unit: "K".into() };
//! let orders = keks::ser::field_orders(&r)?;
//! assert!(orders.iter().all(|o| o.is_key_order()));
//! assert_eq!(orders[0].key_order, ["unit", "value", "sensorName"]);
//! let bytes = keks::to_vec(&r)?;
//! assert_eq!(keks::from_slice::<Reading>(&bytes)?, r);
//! # Ok::<(), keks::serde::Error>(())
//! ```
//!
//! Enums: the fields of each struct variant are declared in key order
//! (under the variant's `rename_all`, else the enum's `rename_all_fields`).
//! A library whose serde support is optional can keep its derive and its
//! serde attributes inside `cfg_attr(feature = "serde", ...)`: they are
//! read there too, whatever the predicate.
//!
//! What the new declaration order changes, besides `keks`' speed:
//! - formats that write a struct as a sequence (bincode, postcard) write
//!   its fields in the new order, and cannot read documents written
//!   before it;
//! - `Debug` prints the fields in the new order.
//!
//! When it moves a field, it refuses with a compile error what the new
//! order would change silently: a derived `PartialOrd` or `Ord` (they
//! compare fields in declaration order; derive them below the attribute
//! to be told), and a `repr` that fixes the layout (`C`, `packed`, an
//! integer `repr` of an enum). A type already in key order is left as it
//! is. The attribute must come above the derive: below it, the derive has
//! read the fields in their declared order already, and the attribute
//! refuses to reorder them for nothing.
//!
//! ```compile_fail
//! #[derive(serde::Serialize)]
//! #[keks_macros::key_order] // error: must come above #[derive(Serialize)]
//! struct Reading {
//!     value: f64,
//!     unit: String,
//! }
//! ```
//!
//! serde writes the tag of an internally tagged enum (`#[serde(tag =
//! "...")]`) before the variant's fields, whatever its key: `keks` still
//! moves it when it sorts after one of them (a tag that sorts before
//! every field name, such as `"t"` before longer names, is never moved).
//!
//! Fields that write no key of their own keep their declaration order,
//! after the others: `flatten` (serde writes such a struct as a MAP of
//! unknown length, which `keks` sorts when it ends) and `skip` or
//! `skip_serializing`. A name read wrongly here never changes a document:
//! the serializer still puts every MAP in key order; it only costs the
//! move that the attribute is there to save. `keks::ser::field_orders`
//! tells, in a test, whether a type is written with nothing moved.

mod names;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Attribute, Data, DeriveInput, Fields, FieldsNamed};

use names::{field_key, item_names, rename_rule, RenameRule};

/// Declares a struct's fields (or each struct variant's) in KEKS key order,
/// by the names serde writes; see the [crate] documentation.
#[proc_macro_attribute]
pub fn key_order(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(args: TokenStream2, item: TokenStream2) -> syn::Result<TokenStream2> {
    if !args.is_empty() {
        return Err(syn::Error::new_spanned(
            args,
            "#[key_order] takes no arguments",
        ));
    }
    let mut input: DeriveInput = syn::parse2(item)?;
    // A derive above the attribute has read the fields as declared
    // already, and is gone from what the attribute is given.
    if derived(&input.attrs, &["Serialize"]).is_none() {
        return Err(syn::Error::new(
            Span::call_site(),
            "#[key_order] must come above #[derive(Serialize)]: a derive above it has read \
             the fields in their declared order already",
        ));
    }
    let is_enum = matches!(input.data, Data::Enum(_));
    if !reorder(&mut input)? {
        return Ok(input.into_token_stream());
    }
    // What the new order would change without a word.
    if let Some(ident) = derived(&input.attrs, &["PartialOrd", "Ord"]) {
        return Err(syn::Error::new(
            ident.span(),
            "#[key_order] would change what a derived PartialOrd/Ord compares first \
             (fields in declaration order): implement it by hand, or leave the fields \
             as declared",
        ));
    }
    refuse_fixed_layout(&input.attrs, is_enum)?;
    Ok(input.into_token_stream())
}

/// Declares the fields of `input` (a struct, or an enum's struct
/// variants) in key order; whether any moved.
fn reorder(input: &mut DeriveInput) -> syn::Result<bool> {
    let rule = |attrs: &[Attribute], name| rename_rule(attrs, name);
    match &mut input.data {
        Data::Struct(s) => match &mut s.fields {
            Fields::Named(fields) => Ok(sort_fields(
                fields,
                rule(&input.attrs, "rename_all").unwrap_or(RenameRule::None),
            )),
            _ => Err(syn::Error::new(
                Span::call_site(),
                "#[key_order] orders named fields: a tuple or unit struct has none",
            )),
        },
        Data::Enum(e) => {
            let for_fields = rule(&input.attrs, "rename_all_fields");
            let mut moved = false;
            for v in &mut e.variants {
                let rule = rule(&v.attrs, "rename_all").or(for_fields);
                if let Fields::Named(fields) = &mut v.fields {
                    moved |= sort_fields(fields, rule.unwrap_or(RenameRule::None));
                }
            }
            Ok(moved)
        }
        Data::Union(_) => Err(syn::Error::new(
            Span::call_site(),
            "#[key_order] orders the fields of a struct or of an enum's struct variants, not of a union",
        )),
    }
}

/// Declares `fields` in key order (by length, then bytewise), those that
/// write no key of their own last, each group in its declared order;
/// whether any moved.
fn sort_fields(fields: &mut FieldsNamed, rule: RenameRule) -> bool {
    let mut keyed: Vec<_> = core::mem::take(&mut fields.named)
        .into_iter()
        .enumerate()
        .map(|(i, f)| (field_key(&f, rule), i, f))
        .collect();
    keyed.sort_by(|(a, ..), (b, ..)| match (a, b) {
        // The order of `keks::rules::key_cmp`, spelt again: this crate does
        // not depend on `keks` (its publish dry run would then need `keks`
        // on crates.io first, and every build using the attribute would
        // compile `keks` a second time, for the host). tests/key_order.rs
        // checks the two agree, through `keks::ser::field_orders`.
        (Some(a), Some(b)) => (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())),
        (Some(_), None) => core::cmp::Ordering::Less,
        (None, Some(_)) => core::cmp::Ordering::Greater,
        (None, None) => core::cmp::Ordering::Equal,
    });
    let moved = keyed.iter().enumerate().any(|(at, (_, i, _))| at != *i);
    fields.named = keyed
        .into_iter()
        .map(|(.., f)| f)
        .collect::<Punctuated<_, _>>();
    moved
}

/// The first of `names` that a `derive` among `attrs` names, or a
/// `cfg_attr` that holds one.
fn derived(attrs: &[Attribute], names: &[&str]) -> Option<proc_macro2::Ident> {
    fn find(tokens: TokenStream2, names: &[&str]) -> Option<proc_macro2::Ident> {
        tokens.into_iter().find_map(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) if names.iter().any(|n| i == n) => Some(i),
            proc_macro2::TokenTree::Group(g) => find(g.stream(), names),
            _ => None,
        })
    }
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive") || a.path().is_ident("cfg_attr"))
        .find_map(|a| find(a.meta.to_token_stream(), names))
}

/// A `repr` that fixes the layout (`C`, `packed`, and an enum's integer
/// `repr`, which lays its variants out as `repr(C)` structs): the new
/// order would change it.
fn refuse_fixed_layout(attrs: &[Attribute], is_enum: bool) -> syn::Result<()> {
    const INTS: [&str; 12] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let fixes = |name: &String| {
            name == "C" || name == "packed" || (is_enum && INTS.contains(&name.as_str()))
        };
        if item_names(attr).iter().any(fixes) {
            return Err(syn::Error::new_spanned(
                attr,
                "#[key_order] would change the layout this repr fixes (fields in declaration \
                 order): leave the fields as declared",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// The fields of `item` (with a derived `Serialize`) as the attribute
    /// declares them.
    fn field_names(item: TokenStream2) -> Vec<String> {
        let item = quote!(#[derive(Serialize)] #item);
        let out: DeriveInput = syn::parse2(expand(TokenStream2::new(), item).unwrap()).unwrap();
        let fields = match out.data {
            Data::Struct(s) => s.fields,
            Data::Enum(e) => e.variants.into_iter().next().unwrap().fields,
            Data::Union(_) => unreachable!(),
        };
        fields
            .iter()
            .map(|f| f.ident.as_ref().unwrap().to_string())
            .collect()
    }

    #[test]
    fn fields_are_declared_shorter_names_first_then_bytewise() {
        let names = field_names(quote! {
            struct License { id: u8, identifiers: u8, links: u8, name: u8,
                other_names: u8, superseded_by: u8, keywords: u8, text: u8 }
        });
        let want = [
            "id",
            "name",
            "text",
            "links",
            "keywords",
            "identifiers",
            "other_names",
            "superseded_by",
        ];
        assert_eq!(names, want);
        // Bytewise: upper case before lower case.
        assert_eq!(
            field_names(quote!(
                struct S {
                    b: u8,
                    a: u8,
                    B: u8,
                }
            )),
            ["B", "a", "b"]
        );
    }

    #[test]
    fn the_order_is_that_of_the_names_serde_writes() {
        let names = field_names(quote! {
            #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
            struct S { #[serde(rename = "zzzzzzzz")] a: u8, sheet_x: u8, ab: u8 }
        });
        // "AB", "SHEET-X", "zzzzzzzz".
        assert_eq!(names, ["ab", "sheet_x", "a"]);
    }

    #[test]
    fn fields_without_keys_of_their_own_come_last_as_declared() {
        let names = field_names(quote! {
            struct S { #[serde(flatten)] rest: u8, long_name: u8, #[serde(skip)] cache: u8, a: u8 }
        });
        assert_eq!(names, ["a", "long_name", "rest", "cache"]);
    }

    #[test]
    fn struct_variants_take_their_rule_or_the_enums_rule_for_fields() {
        let names = field_names(quote! {
            #[serde(rename_all_fields = "UPPERCASE", rename_all = "camelCase")]
            enum E { V { bb: u8, a_b: u8, c: u8 }, W(u8), X }
        });
        assert_eq!(names, ["c", "bb", "a_b"]);
        let names = field_names(quote! {
            #[serde(rename_all_fields = "UPPERCASE")]
            enum E { #[serde(rename_all = "camelCase")] V { ab: u8, c_d: u8, e: u8 } }
        });
        // "e", "ab", "cD": the variant's rule.
        assert_eq!(names, ["e", "ab", "c_d"]);
    }

    #[test]
    fn the_rest_of_the_item_is_kept() {
        let out = expand(
            TokenStream2::new(),
            quote! {
                #[derive(Serialize)]
                #[serde(deny_unknown_fields)]
                /// Doc.
                pub(crate) struct S<'a, T: Clone> where T: Copy {
                    /// Field doc.
                    #[serde(borrow)] pub bb: &'a str,
                    a: T,
                }
            },
        );
        let want = quote! {
            #[derive(Serialize)]
            #[serde(deny_unknown_fields)]
            /// Doc.
            pub(crate) struct S<'a, T: Clone> where T: Copy {
                a: T,
                /// Field doc.
                #[serde(borrow)] pub bb: &'a str
            }
        };
        assert_eq!(out.unwrap().to_string(), want.to_string());
    }

    #[test]
    fn what_the_order_would_change_silently_is_refused() {
        let s = quote!(
            struct S {
                b: u8,
                a: u8,
            }
        );
        let ser = quote!(#[derive(Serialize)]);
        let above = "above #[derive(Serialize)]";
        let refused = [
            (
                quote!(#[derive(Serialize, PartialOrd)] #s),
                "PartialOrd/Ord",
            ),
            (
                quote!(#[derive(Serialize, core::cmp::Ord)] #s),
                "PartialOrd/Ord",
            ),
            (quote!(#ser #[repr(C)] #s), "layout"),
            (quote!(#ser #[repr(packed(2))] #s), "layout"),
            (
                quote!(#ser #[repr(u8)] enum E { V { b: u8, a: u8 } }),
                "layout",
            ),
            (quote!(#ser struct S(u8, u8);), "named fields"),
            (quote!(#ser union U { b: u8, a: u8 }), "union"),
            // No derive seen: it came above the attribute, or is none.
            (s.clone(), above),
            (quote!(#[derive(Debug)] #s), above),
        ];
        for (item, why) in refused {
            match expand(TokenStream2::new(), item.clone()) {
                Ok(_) => panic!("{item} was not refused"),
                Err(e) => assert!(e.to_string().contains(why), "{item}: {e}"),
            }
        }
        let allowed = [
            quote!(#[derive(PartialEq, Eq, Hash, Debug, serde::Serialize)] #s),
            quote!(#ser #[repr(align(8))] #s),
            quote!(#ser #[repr(transparent)] struct S { b: u8 }),
            quote!(#ser enum E { V { b: u8, a: u8 } }),
            quote!(#[cfg_attr(feature = "serde", derive(serde::Serialize))] #s),
            // Already in key order: nothing moves, nothing changes.
            quote!(
                #[derive(Serialize, PartialOrd)]
                struct S {
                    a: u8,
                    b: u8,
                }
            ),
            quote!(#ser #[repr(C)] struct S { a: u8, bb: u8 }),
            quote!(#ser #[repr(u8)] enum E { V { a: u8 }, W = 4 }),
        ];
        for item in allowed {
            let out = expand(TokenStream2::new(), item.clone());
            assert!(out.is_ok(), "{item}: {out:?}");
        }
        let args = expand(
            quote!(x),
            quote!(
                #[derive(Serialize)]
                struct S {
                    a: u8,
                }
            ),
        )
        .unwrap_err();
        assert!(args.to_string().contains("no arguments"));
    }
}
