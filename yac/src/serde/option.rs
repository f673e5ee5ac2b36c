//! The `option` submodule of every `with` module: `Option<T>` fields for
//! the `T` its parent module writes and reads, one definition for all.

/// Declares `pub mod option` beside a `with` module's `serialize` and
/// `deserialize` for `$ty`; `$path` is that `option` module's path, for
/// its docs.
macro_rules! option_module {
    ($ty:ty, $path:literal) => {
        #[doc = concat!(
                            "`#[serde(with = \"", $path, "\")]`: an `Option` of the parent ",
                            "module's type. `None` is NIL and `Some(t)` is `t` as the parent ",
                            "module writes it; NIL reads as `None`. Add `default` ",
                            "(`#[serde(with = \"", $path, "\", default)]`) to read a missing ",
                            "field as `None` too."
                        )]
        pub mod option {
            /// Writes `None` as NIL, `Some(t)` as the parent module writes `t`.
            pub fn serialize<S: ::serde::Serializer>(
                t: &Option<$ty>,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                struct Inner<'a>(&'a $ty);
                impl ::serde::Serialize for Inner<'_> {
                    fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                        super::serialize(self.0, s)
                    }
                }
                match t {
                    None => s.serialize_none(),
                    Some(t) => s.serialize_some(&Inner(t)),
                }
            }

            /// Reads NIL as `None`, anything else as the parent module reads it.
            pub fn deserialize<'de, D: ::serde::Deserializer<'de>>(
                d: D,
            ) -> Result<Option<$ty>, D::Error> {
                struct Inner($ty);
                impl<'de> ::serde::Deserialize<'de> for Inner {
                    fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                        super::deserialize(d).map(Inner)
                    }
                }
                let inner: Option<Inner> = ::serde::Deserialize::deserialize(d)?;
                Ok(inner.map(|Inner(t)| t))
            }
        }
    };
}
pub(crate) use option_module;
