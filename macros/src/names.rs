//! The names serde's derive gives fields when it serializes them: what
//! `#[serde(rename ...)]`, `rename_all` and `rename_all_fields` say, read
//! the way serde_derive reads them. Only the serializing side matters (the
//! order is that of the keys written).

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::{Attribute, Field, LitStr};

/// One item of a `#[serde(...)]` list: `name`, `name = "text"` or
/// `name(...)`.
enum Meta {
    Flag(String),
    Text(String, String),
    List(String, Vec<Meta>),
}

impl Meta {
    fn name(&self) -> &str {
        match self {
            Meta::Flag(n) | Meta::Text(n, _) | Meta::List(n, _) => n,
        }
    }
}

/// The items of every `#[serde(...)]` among `attrs`, those inside a
/// `cfg_attr` included (rustc hands an attribute macro a field's
/// `cfg_attr` as written; a library with an optional serde feature puts
/// its serde attributes there), whatever its predicate: where it is false,
/// serde's derive is most often off too. What is not of the three shapes
/// above (a value that is not a string literal) is left out: serde_derive
/// reports it, and a name read wrongly here only costs the serializer a
/// move, never a wrong document.
fn serde_metas(attrs: &[Attribute]) -> Vec<Meta> {
    let mut found = Vec::new();
    for attr in attrs {
        let Ok(list) = attr.meta.require_list() else {
            continue;
        };
        if attr.path().is_ident("serde") {
            found.extend(metas(list.tokens.clone()));
        } else if attr.path().is_ident("cfg_attr") {
            from_cfg_attr(metas(list.tokens.clone()), &mut found);
        }
    }
    found
}

/// The `serde(...)` items of a `cfg_attr`'s `items` (its predicate first),
/// nested `cfg_attr`s included.
fn from_cfg_attr(items: Vec<Meta>, found: &mut Vec<Meta>) {
    for item in items.into_iter().skip(1) {
        match item {
            Meta::List(name, inner) if name == "serde" => found.extend(inner),
            Meta::List(name, inner) if name == "cfg_attr" => from_cfg_attr(inner, found),
            _ => {}
        }
    }
}

/// The names of the items of a list attribute, read as `#[serde(...)]`
/// is: `C`, `packed` and `align` for `#[repr(C, packed(2), align(8))]`.
pub fn item_names(attr: &Attribute) -> Vec<String> {
    let Ok(list) = attr.meta.require_list() else {
        return Vec::new();
    };
    metas(list.tokens.clone())
        .iter()
        .map(|m| m.name().to_owned())
        .collect()
}

/// The comma-separated items of `tokens`.
fn metas(tokens: TokenStream) -> Vec<Meta> {
    let mut items = Vec::new();
    let mut item: Vec<TokenTree> = Vec::new();
    for tt in tokens.into_iter().chain([TokenTree::Punct(comma())]) {
        if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
            items.extend(meta(&item));
            item.clear();
        } else {
            item.push(tt);
        }
    }
    items
}

fn comma() -> proc_macro2::Punct {
    proc_macro2::Punct::new(',', proc_macro2::Spacing::Alone)
}

/// One item, if it is of a known shape.
fn meta(item: &[TokenTree]) -> Option<Meta> {
    let name = match item.first()? {
        TokenTree::Ident(i) => i.to_string(),
        _ => return None,
    };
    match item.get(1..)? {
        [] => Some(Meta::Flag(name)),
        [TokenTree::Punct(eq), value] if eq.as_char() == '=' => {
            let text = syn::parse2::<LitStr>(value.clone().into()).ok()?.value();
            Some(Meta::Text(name, text))
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
            Some(Meta::List(name, metas(g.stream())))
        }
        _ => None,
    }
}

/// The serializing side of `name = "x"` or `name(serialize = "x", ...)`
/// among `metas`, the last one given.
fn serialize_text<'m>(metas: &'m [Meta], name: &str) -> Option<&'m str> {
    metas.iter().rev().find_map(|m| match m {
        Meta::Text(n, text) if n == name => Some(text.as_str()),
        Meta::List(n, inner) if n == name => inner.iter().rev().find_map(|m| match m {
            Meta::Text(n, text) if n == "serialize" => Some(text.as_str()),
            _ => None,
        }),
        _ => None,
    })
}

/// serde's `rename_all` rules, as serde_derive applies them to a field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RenameRule {
    /// No rule: the field's identifier.
    None,
    LowerCase,
    UpperCase,
    PascalCase,
    CamelCase,
    SnakeCase,
    ScreamingSnakeCase,
    KebabCase,
    ScreamingKebabCase,
}

impl RenameRule {
    /// The rule of a name serde knows; `None` for another (serde_derive
    /// refuses it).
    fn from_name(name: &str) -> RenameRule {
        match name {
            "lowercase" => RenameRule::LowerCase,
            "UPPERCASE" => RenameRule::UpperCase,
            "PascalCase" => RenameRule::PascalCase,
            "camelCase" => RenameRule::CamelCase,
            "snake_case" => RenameRule::SnakeCase,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnakeCase,
            "kebab-case" => RenameRule::KebabCase,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebabCase,
            _ => RenameRule::None,
        }
    }

    /// `field` (a Rust identifier) under the rule.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::None | RenameRule::LowerCase | RenameRule::SnakeCase => field.to_owned(),
            RenameRule::UpperCase | RenameRule::ScreamingSnakeCase => field.to_ascii_uppercase(),
            RenameRule::PascalCase => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::CamelCase => {
                let pascal = RenameRule::PascalCase.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
            RenameRule::KebabCase => field.replace('_', "-"),
            RenameRule::ScreamingKebabCase => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// The rule that `#[serde(<name> = "...")]` (or its `serialize` side)
/// among `attrs` gives, if any.
pub fn rename_rule(attrs: &[Attribute], name: &str) -> Option<RenameRule> {
    serialize_text(&serde_metas(attrs), name).map(RenameRule::from_name)
}

/// The key serde writes for `field` under `rule`, or `None` for a field
/// that writes no key of its own: `flatten` (its keys are its value's)
/// and `skip`/`skip_serializing` (never written).
pub fn field_key(field: &Field, rule: RenameRule) -> Option<String> {
    let metas = serde_metas(&field.attrs);
    let writes_none = ["flatten", "skip", "skip_serializing"];
    if metas.iter().any(|m| writes_none.contains(&m.name())) {
        return None;
    }
    if let Some(name) = serialize_text(&metas, "rename") {
        return Some(name.to_owned());
    }
    let ident = field.ident.as_ref()?.to_string();
    // A raw identifier (`r#type`) is written without its `r#`.
    let ident = ident.strip_prefix("r#").unwrap_or(&ident);
    Some(rule.apply_to_field(ident))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(tokens: TokenStream) -> Field {
        let item: syn::DeriveInput = syn::parse2(quote::quote!(struct S { #tokens })).unwrap();
        match item.data {
            syn::Data::Struct(s) => s.fields.into_iter().next().unwrap(),
            _ => unreachable!(),
        }
    }

    fn key(tokens: TokenStream, rule: RenameRule) -> Option<String> {
        field_key(&field(tokens), rule)
    }

    #[test]
    fn rules_name_fields_as_serde_does() {
        // serde_derive's own test cases (internals/case.rs).
        let cases = [
            (
                "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                "OUTCOME",
            ),
            (
                "very_tasty",
                "VERY_TASTY",
                "VeryTasty",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ),
            ("a", "A", "A", "a", "a", "A", "a", "A"),
            ("z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"),
        ];
        for (f, upper, pascal, camel, snake, screaming, kebab, screaming_kebab) in cases {
            assert_eq!(RenameRule::None.apply_to_field(f), f);
            assert_eq!(RenameRule::LowerCase.apply_to_field(f), f);
            assert_eq!(RenameRule::UpperCase.apply_to_field(f), upper);
            assert_eq!(RenameRule::PascalCase.apply_to_field(f), pascal);
            assert_eq!(RenameRule::CamelCase.apply_to_field(f), camel);
            assert_eq!(RenameRule::SnakeCase.apply_to_field(f), snake);
            assert_eq!(RenameRule::ScreamingSnakeCase.apply_to_field(f), screaming);
            assert_eq!(RenameRule::KebabCase.apply_to_field(f), kebab);
            assert_eq!(
                RenameRule::ScreamingKebabCase.apply_to_field(f),
                screaming_kebab
            );
        }
    }

    #[test]
    fn a_field_is_named_by_its_rename_then_by_the_rule() {
        use quote::quote;
        let camel = RenameRule::CamelCase;
        assert_eq!(key(quote!(sheet_x: u32), camel).as_deref(), Some("sheetX"));
        assert_eq!(key(quote!(r#type: u32), camel).as_deref(), Some("type"));
        let renamed = quote!(#[serde(rename = "X")] sheet_x: u32);
        assert_eq!(key(renamed, camel).as_deref(), Some("X"));
        let sides = quote!(#[serde(default, rename(deserialize = "d", serialize = "s"))] a: u32);
        assert_eq!(key(sides, camel).as_deref(), Some("s"));
        let read_only = quote!(#[serde(rename(deserialize = "d"))] a_b: u32);
        assert_eq!(key(read_only, camel).as_deref(), Some("aB"));
        // The last rename given is serde's.
        let twice = quote!(#[serde(rename = "one")] #[serde(rename = "two")] a: u32);
        assert_eq!(key(twice, camel).as_deref(), Some("two"));
        let other = quote!(#[serde(skip_serializing_if = "Option::is_none", with = "m")] #[doc = "x"] a: u32);
        assert_eq!(key(other, camel).as_deref(), Some("a"));
    }

    #[test]
    fn serde_attributes_inside_cfg_attr_are_read() {
        use quote::quote;
        let renamed = quote!(#[cfg_attr(feature = "serde", serde(default, rename = "X"))] a: u32);
        assert_eq!(key(renamed, RenameRule::None).as_deref(), Some("X"));
        let nested = quote!(#[cfg_attr(all(), cfg_attr(unix, serde(rename = "Y")))] a: u32);
        assert_eq!(key(nested, RenameRule::None).as_deref(), Some("Y"));
        let skipped = quote!(#[cfg_attr(any(), serde(skip))] a: u32);
        assert_eq!(key(skipped, RenameRule::None), None);
        // The predicate is not an item: a `serde(...)` there is not read.
        let predicate = quote!(#[cfg_attr(serde(rename = "P"), doc = "x")] a: u32);
        assert_eq!(key(predicate, RenameRule::None).as_deref(), Some("a"));
        let item: syn::DeriveInput = syn::parse2(quote! {
            #[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
            struct S;
        })
        .unwrap();
        assert_eq!(
            rename_rule(&item.attrs, "rename_all"),
            Some(RenameRule::CamelCase)
        );
    }

    #[test]
    fn fields_that_write_no_key_of_their_own_have_none() {
        use quote::quote;
        for attrs in [
            quote!(#[serde(flatten)]),
            quote!(#[serde(skip)]),
            quote!(#[serde(default, skip_serializing)]),
        ] {
            assert_eq!(key(quote!(#attrs a: u32), RenameRule::None), None);
        }
        // Skipped only when read: written.
        let read_skip = quote!(#[serde(skip_deserializing)] a: u32);
        assert_eq!(key(read_skip, RenameRule::None).as_deref(), Some("a"));
    }

    #[test]
    fn container_rules_are_read_from_either_form() {
        let attrs = |tokens: TokenStream| -> Vec<Attribute> {
            let item: syn::DeriveInput = syn::parse2(quote::quote!(#tokens struct S;)).unwrap();
            item.attrs
        };
        let plain = attrs(quote::quote!(#[serde(deny_unknown_fields, rename_all = "kebab-case")]));
        assert_eq!(
            rename_rule(&plain, "rename_all"),
            Some(RenameRule::KebabCase)
        );
        let sides = attrs(quote::quote!(#[serde(rename_all(serialize = "UPPERCASE"))]));
        assert_eq!(
            rename_rule(&sides, "rename_all"),
            Some(RenameRule::UpperCase)
        );
        let read_only = attrs(quote::quote!(#[serde(rename_all(deserialize = "UPPERCASE"))]));
        assert_eq!(rename_rule(&read_only, "rename_all"), None);
        let fields = attrs(quote::quote!(#[serde(rename_all_fields = "camelCase")]));
        assert_eq!(rename_rule(&fields, "rename_all"), None);
        assert_eq!(
            rename_rule(&fields, "rename_all_fields"),
            Some(RenameRule::CamelCase)
        );
    }
}
