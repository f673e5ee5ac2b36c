//! Typed serde round trips of the shared documents: yac against rmp-serde
//! (`to_vec_named`: field names as keys), ciborium, serde_json and
//! postcard.
//!
//! `yac-serde-bench [--quick] [DATA_DIR]` times every (document, format,
//! direction) interleaved round-robin, in batches of ~20 ms, and prints
//! the median time per operation and yac's ratio to each peer.
//! `yac-serde-bench --one DOC FORMAT ser|de N [DATA_DIR]` runs one
//! operation N times (for callgrind: see `count.sh`).
//!
//! Each document is read from its JSON into the typed structs, and every
//! format serializes those and deserializes its own bytes back; the result
//! must equal the structs (checked once per format before timing).

use std::collections::BTreeMap;
use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

// ----- canada: a GeoJSON FeatureCollection -----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct FeatureCollection<P> {
    r#type: String,
    features: Vec<Feature<P>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Feature<P> {
    r#type: String,
    properties: Properties,
    geometry: Geometry<P>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Properties {
    name: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Geometry<P> {
    r#type: String,
    coordinates: Vec<Vec<[Coord<P>; 2]>>,
}

/// canada-list's number: `[i, f]`.
type ListPair = [i64; 2];

/// canada-map's number: `{"f": f, "i": i}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct MapPair {
    f: i64,
    i: i64,
}

/// A coordinate: a pair, or (46 times) a plain integer.
#[derive(PartialEq, Debug)]
enum Coord<P> {
    Int(i64),
    Pair(P),
}

impl<P: Serialize> Serialize for Coord<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Coord::Int(i) => s.serialize_i64(*i),
            Coord::Pair(p) => p.serialize(s),
        }
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for Coord<P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<P>(std::marker::PhantomData<P>);
        impl<'de, P: Deserialize<'de>> Visitor<'de> for V<P> {
            type Value = Coord<P>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer or a pair")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Coord<P>, E> {
                Ok(Coord::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Coord<P>, E> {
                i64::try_from(v).map(Coord::Int).map_err(E::custom)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<Coord<P>, A::Error> {
                P::deserialize(de::value::SeqAccessDeserializer::new(a)).map(Coord::Pair)
            }
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Coord<P>, A::Error> {
                P::deserialize(de::value::MapAccessDeserializer::new(a)).map(Coord::Pair)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

// ----- licenses -----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Licenses<S> {
    licenses: Vec<License<S>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct License<S> {
    id: S,
    identifiers: Vec<Identifier<S>>,
    links: Vec<Link<S>>,
    name: S,
    other_names: Vec<OtherName<S>>,
    superseded_by: Option<S>,
    keywords: Vec<S>,
    text: Vec<Text<S>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Identifier<S> {
    identifier: S,
    scheme: S,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Link<S> {
    note: S,
    url: S,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct OtherName<S> {
    name: S,
    note: Option<S>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Text<S> {
    media_type: S,
    title: S,
    url: S,
}

/// [`Licenses`] declared as the source, under `#[keks_macros::key_order]`,
/// which declares each struct's fields in YAC key order: the same document,
/// which YAC then writes with no field moved (`in_key_order` checks it).
/// Names of their own: the serializer tells struct types apart by name.
#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct LicensesKeyOrder {
    licenses: Vec<LicenseKeyOrder>,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct LicenseKeyOrder {
    id: String,
    identifiers: Vec<IdentifierKeyOrder>,
    links: Vec<LinkKeyOrder>,
    name: String,
    other_names: Vec<OtherName<String>>,
    superseded_by: Option<String>,
    keywords: Vec<String>,
    text: Vec<TextKeyOrder>,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct IdentifierKeyOrder {
    identifier: String,
    scheme: String,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct LinkKeyOrder {
    note: String,
    url: String,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct TextKeyOrder {
    media_type: String,
    title: String,
    url: String,
}

// ----- countries: string-heavy, a third of the text non-ASCII -----

/// One record of world-countries (benches/docs.sh makes the document),
/// fields in the source's order.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Country {
    name: CountryName,
    tld: Vec<String>,
    cca2: String,
    ccn3: String,
    cca3: String,
    cioc: String,
    independent: Option<bool>,
    status: String,
    #[serde(rename = "unMember")]
    un_member: bool,
    currencies: BTreeMap<String, Currency>,
    idd: Idd,
    capital: Vec<String>,
    #[serde(rename = "altSpellings")]
    alt_spellings: Vec<String>,
    region: String,
    subregion: String,
    languages: BTreeMap<String, String>,
    translations: BTreeMap<String, Names>,
    /// Degrees as canada-list's `[i, f]` pairs.
    latlng: Vec<[i64; 2]>,
    landlocked: bool,
    borders: Vec<String>,
    area: [i64; 2],
    flag: String,
    demonyms: BTreeMap<String, Demonym>,
    #[serde(rename = "callingCodes")]
    calling_codes: Vec<String>,
}

/// [`Country`] declared as the source, under `#[keks_macros::key_order]`
/// (see [`LicensesKeyOrder`]).
#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CountryKeyOrder {
    name: CountryNameKeyOrder,
    tld: Vec<String>,
    cca2: String,
    ccn3: String,
    cca3: String,
    cioc: String,
    independent: Option<bool>,
    status: String,
    #[serde(rename = "unMember")]
    un_member: bool,
    currencies: BTreeMap<String, Currency>,
    idd: Idd,
    capital: Vec<String>,
    #[serde(rename = "altSpellings")]
    alt_spellings: Vec<String>,
    region: String,
    subregion: String,
    languages: BTreeMap<String, String>,
    translations: BTreeMap<String, NamesKeyOrder>,
    latlng: Vec<[i64; 2]>,
    landlocked: bool,
    borders: Vec<String>,
    area: [i64; 2],
    flag: String,
    demonyms: BTreeMap<String, Demonym>,
    #[serde(rename = "callingCodes")]
    calling_codes: Vec<String>,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CountryNameKeyOrder {
    common: String,
    official: String,
    native: BTreeMap<String, NamesKeyOrder>,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct NamesKeyOrder {
    official: String,
    common: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CountryName {
    common: String,
    official: String,
    native: BTreeMap<String, Names>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Names {
    official: String,
    common: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Currency {
    name: String,
    symbol: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Idd {
    root: String,
    suffixes: Vec<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Demonym {
    f: String,
    m: String,
}

// ----- emoji: MAP-heavy, ASCII, optional fields -----

/// One record of emoji-datasource (benches/docs.sh makes the document),
/// fields in the source's order; the fields present in only some records
/// are skipped when absent, as in the source.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Emoji {
    name: String,
    unified: String,
    non_qualified: Option<String>,
    docomo: Option<String>,
    au: Option<String>,
    softbank: Option<String>,
    google: Option<String>,
    image: String,
    sheet_x: u32,
    sheet_y: u32,
    short_name: String,
    short_names: Vec<String>,
    text: Option<String>,
    texts: Option<Vec<String>>,
    category: String,
    subcategory: String,
    sort_order: u32,
    added_in: String,
    has_img_apple: bool,
    has_img_google: bool,
    has_img_twitter: bool,
    has_img_facebook: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skin_variations: Option<BTreeMap<String, SkinVariation>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoletes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoleted_by: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct SkinVariation {
    unified: String,
    non_qualified: Option<String>,
    image: String,
    sheet_x: u32,
    sheet_y: u32,
    added_in: String,
    has_img_apple: bool,
    has_img_google: bool,
    has_img_twitter: bool,
    has_img_facebook: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoletes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoleted_by: Option<String>,
}

/// [`Emoji`] declared as the source, under `#[keks_macros::key_order]`
/// (see [`LicensesKeyOrder`]).
#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct EmojiKeyOrder {
    name: String,
    unified: String,
    non_qualified: Option<String>,
    docomo: Option<String>,
    au: Option<String>,
    softbank: Option<String>,
    google: Option<String>,
    image: String,
    sheet_x: u32,
    sheet_y: u32,
    short_name: String,
    short_names: Vec<String>,
    text: Option<String>,
    texts: Option<Vec<String>>,
    category: String,
    subcategory: String,
    sort_order: u32,
    added_in: String,
    has_img_apple: bool,
    has_img_google: bool,
    has_img_twitter: bool,
    has_img_facebook: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skin_variations: Option<BTreeMap<String, SkinVariationKeyOrder>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoletes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoleted_by: Option<String>,
}

#[keks_macros::key_order]
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct SkinVariationKeyOrder {
    unified: String,
    non_qualified: Option<String>,
    image: String,
    sheet_x: u32,
    sheet_y: u32,
    added_in: String,
    has_img_apple: bool,
    has_img_google: bool,
    has_img_twitter: bool,
    has_img_facebook: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoletes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    obsoleted_by: Option<String>,
}

/// countries.json in one typed shape: an empty `currencies` LIST becomes
/// an empty MAP, and every number of `latlng` and `area` an `[i, f]` pair
/// (an integral degree is `[i, 0]`).
fn load_countries<T: DeserializeOwned>(path: &str) -> Vec<T> {
    use serde_json::Value as J;
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut v: J = serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pair = |x: &mut J| {
        if x.is_number() {
            *x = J::Array(vec![x.clone(), J::from(0)]);
        }
    };
    for c in v.as_array_mut().expect("a LIST of countries") {
        if c["currencies"].as_array().is_some_and(|a| a.is_empty()) {
            c["currencies"] = J::Object(Default::default());
        }
        c["latlng"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .for_each(pair);
        pair(&mut c["area"]);
    }
    serde_json::from_value(v).unwrap_or_else(|e| panic!("{path}: {e}"))
}

// ----- formats -----

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Format {
    Yac,
    Rmp,
    Cbor,
    Json,
    Postcard,
}

const FORMATS: [Format; 5] = [
    Format::Yac,
    Format::Rmp,
    Format::Cbor,
    Format::Json,
    Format::Postcard,
];

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Yac => "yac",
            Format::Rmp => "rmp-serde",
            Format::Cbor => "ciborium",
            Format::Json => "serde_json",
            Format::Postcard => "postcard",
        }
    }

    fn from_name(s: &str) -> Option<Format> {
        FORMATS.into_iter().find(|f| f.name() == s)
    }

    /// Serializes into `out` (cleared first, its capacity reused).
    fn ser<T: Serialize>(self, v: &T, out: &mut Vec<u8>) {
        out.clear();
        match self {
            Format::Yac => yac::append_to_vec(out, v).unwrap(),
            Format::Rmp => v
                .serialize(&mut rmp_serde::Serializer::new(&mut *out).with_struct_map())
                .unwrap(),
            Format::Cbor => ciborium::into_writer(v, &mut *out).unwrap(),
            Format::Json => serde_json::to_writer(&mut *out, v).unwrap(),
            Format::Postcard => {
                *out = postcard::to_extend(v, std::mem::take(out)).unwrap();
            }
        }
    }

    fn de<'a, T: Deserialize<'a>>(self, b: &'a [u8]) -> Option<T> {
        match self {
            Format::Yac => yac::from_slice(b).ok(),
            Format::Rmp => rmp_serde::from_slice(b).ok(),
            Format::Cbor => None, // needs DeserializeOwned: see `de_owned`
            Format::Json => serde_json::from_slice(b).ok(),
            Format::Postcard => postcard::from_bytes(b).ok(),
        }
    }
}

/// One document in one Rust shape: how to serialize it and read it back.
trait Doc {
    fn name(&self) -> &'static str;
    /// Whether the format can read this shape back (ciborium cannot borrow
    /// `&str`; postcard has no `deserialize_any`).
    fn supports(&self, f: Format) -> bool;
    fn ser(&self, f: Format, out: &mut Vec<u8>);
    /// Deserializes `b` and checks the result (once) or not.
    fn de(&self, f: Format, b: &[u8], check: bool);
}

struct Owned<T> {
    name: &'static str,
    value: T,
    /// Postcard cannot read it back (it needs `deserialize_any`, or
    /// fields are skipped).
    deserialize_any: bool,
}

impl<T: Serialize + DeserializeOwned + PartialEq + fmt::Debug> Doc for Owned<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn supports(&self, f: Format) -> bool {
        !(self.deserialize_any && f == Format::Postcard)
    }
    fn ser(&self, f: Format, out: &mut Vec<u8>) {
        f.ser(&self.value, out)
    }
    fn de(&self, f: Format, b: &[u8], check: bool) {
        let v: T = if f == Format::Cbor {
            ciborium::from_reader(b).expect("ciborium")
        } else {
            f.de(b)
                .unwrap_or_else(|| panic!("{} {}", f.name(), self.name))
        };
        if check {
            assert!(v == self.value, "{} {} differs", f.name(), self.name);
        }
        black_box(v);
    }
}

/// licenses with `&str` fields borrowed from the input.
struct Borrowed {
    value: Licenses<String>,
}

impl Doc for Borrowed {
    fn name(&self) -> &'static str {
        "licenses (&str)"
    }
    fn supports(&self, f: Format) -> bool {
        f != Format::Cbor
    }
    fn ser(&self, f: Format, out: &mut Vec<u8>) {
        f.ser(&self.value, out)
    }
    fn de(&self, f: Format, b: &[u8], check: bool) {
        let v: Licenses<&str> = f.de(b).expect("borrowed");
        if check {
            assert_eq!(yac::to_vec(&v).unwrap(), yac::to_vec(&self.value).unwrap());
        }
        black_box(v);
    }
}

fn load<T: DeserializeOwned>(dir: &str, file: &str) -> T {
    let path = format!("{dir}/{file}");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn docs(dir: &str) -> Vec<Box<dyn Doc>> {
    let mut docs: Vec<Box<dyn Doc>> = vec![
        Box::new(Owned {
            name: "canada-list",
            value: load::<FeatureCollection<ListPair>>(dir, "canada-list.json"),
            deserialize_any: true,
        }),
        Box::new(Owned {
            name: "canada-map",
            value: load::<FeatureCollection<MapPair>>(dir, "canada-map.json"),
            deserialize_any: true,
        }),
        Box::new(Owned {
            name: "licenses (String)",
            value: load::<Licenses<String>>(dir, "licenses.json"),
            deserialize_any: false,
        }),
        Box::new(Borrowed {
            value: load::<Licenses<String>>(dir, "licenses.json"),
        }),
        Box::new(Owned {
            name: "licenses (key order)",
            value: in_key_order(load::<LicensesKeyOrder>(dir, "licenses.json")),
            deserialize_any: false,
        }),
    ];
    // Generated by benches/docs.sh (never committed): only in its output.
    let countries = format!("{dir}/countries.json");
    if std::path::Path::new(&countries).exists() {
        docs.push(Box::new(Owned {
            name: "countries (String)",
            value: load_countries::<Country>(&countries),
            deserialize_any: false,
        }));
        docs.push(Box::new(Owned {
            name: "countries (key order)",
            value: in_key_order(load_countries::<CountryKeyOrder>(&countries)),
            deserialize_any: false,
        }));
    }
    let emoji = format!("{dir}/emoji.json");
    if std::path::Path::new(&emoji).exists() {
        docs.push(Box::new(Owned {
            name: "emoji",
            value: load::<Vec<Emoji>>(dir, "emoji.json"),
            // Skipped fields: postcard (no field names) cannot read them back.
            deserialize_any: true,
        }));
        docs.push(Box::new(Owned {
            name: "emoji (key order)",
            value: in_key_order(load::<Vec<EmojiKeyOrder>>(dir, "emoji.json")),
            deserialize_any: true,
        }));
    }
    for doc in ["licenses", "countries", "emoji"] {
        same_yac(&docs, doc);
    }
    docs
}

/// `value`, checked to write only structs declared in YAC key order.
fn in_key_order<T: Serialize>(value: T) -> T {
    for o in yac::ser::field_orders(&value).expect("field orders") {
        assert!(
            o.is_key_order(),
            "{} is declared out of key order: {:?}",
            o.name,
            o.key_order
        );
    }
    value
}

/// Checks that the key-order variant of `doc` (when loaded) writes the
/// same YAC bytes as the source's order: the two differ only in the work
/// of moving fields.
fn same_yac(docs: &[Box<dyn Doc>], doc: &str) {
    let yac = |name: String| {
        docs.iter().find(|d| d.name() == name).map(|d| {
            let mut out = Vec::new();
            d.ser(Format::Yac, &mut out);
            out
        })
    };
    let source = yac(format!("{doc} (String)")).or_else(|| yac(doc.to_string()));
    if let (Some(a), Some(b)) = (source, yac(format!("{doc} (key order)"))) {
        assert!(a == b, "{doc} (key order) writes other bytes than {doc}");
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Op {
    Ser,
    De,
}

/// Runs `op` `n` times and returns the seconds taken (not inlined: `count.sh`
/// counts the instructions inside it).
#[inline(never)]
fn run(doc: &dyn Doc, f: Format, op: Op, bytes: &[u8], buf: &mut Vec<u8>, n: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        match op {
            Op::Ser => {
                doc.ser(f, buf);
                black_box(&buf);
            }
            Op::De => doc.de(f, black_box(bytes), false),
        }
    }
    t.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        return one(&args[1..]);
    }
    let quick = args.iter().any(|a| a == "--quick");
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "../shared/data".into());
    let (rounds, batch) = if quick { (3, 0.001) } else { (21, 0.02) };
    let docs = docs(&dir);
    // Per (doc, format, op): the encoded bytes, the batch size, the times.
    let mut cases = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        for f in FORMATS.into_iter().filter(|&f| doc.supports(f)) {
            let mut bytes = Vec::new();
            doc.ser(f, &mut bytes);
            doc.de(f, &bytes, true);
            for op in [Op::Ser, Op::De] {
                let mut buf = Vec::new();
                let once = run(doc.as_ref(), f, op, &bytes, &mut buf, 1).max(1e-7);
                let n = ((batch / once) as u32).max(1);
                cases.push((d, f, op, bytes.clone(), n, Vec::new()));
            }
        }
    }
    let mut buf = Vec::new();
    for _ in 0..rounds {
        for (d, f, op, bytes, n, times) in cases.iter_mut() {
            let s = run(docs[*d].as_ref(), *f, *op, bytes, &mut buf, *n);
            times.push(s / f64::from(*n));
        }
    }
    let mut med = BTreeMap::new();
    for (d, f, op, bytes, _, times) in cases.iter_mut() {
        med.insert((*d, *op, *f), (median(times), bytes.len()));
    }
    println!("median time per operation (us), interleaved round-robin, {rounds} rounds of ~{} ms batches", batch * 1e3);
    println!(
        "| document | op | {} |",
        FORMATS.map(Format::name).join(" | ")
    );
    println!("|---|---|{}", "---:|".repeat(FORMATS.len()));
    for (d, doc) in docs.iter().enumerate() {
        for op in [Op::Ser, Op::De] {
            let cells: Vec<String> = FORMATS
                .iter()
                .map(|&f| {
                    med.get(&(d, op, f))
                        .map_or("-".into(), |m| format!("{:.1}", m.0 * 1e6))
                })
                .collect();
            println!("| {} | {:?} | {} |", doc.name(), op, cells.join(" | "));
        }
    }
    println!();
    println!("yac / peer (below 1: yac faster)");
    println!(
        "| document | {} |",
        FORMATS[1..]
            .iter()
            .map(|f| format!("{} ser / de", f.name()))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---:|".repeat(FORMATS.len() - 1));
    for (d, doc) in docs.iter().enumerate() {
        let cells: Vec<String> = FORMATS[1..]
            .iter()
            .map(|&f| {
                let r = |op| match (med.get(&(d, op, Format::Yac)), med.get(&(d, op, f))) {
                    (Some(y), Some(p)) => format!("{:.2}", y.0 / p.0),
                    _ => "-".into(),
                };
                format!("{} / {}", r(Op::Ser), r(Op::De))
            })
            .collect();
        println!("| {} | {} |", doc.name(), cells.join(" | "));
    }
    println!();
    let sizes: Vec<String> = docs
        .iter()
        .enumerate()
        .map(|(d, doc)| {
            let s: Vec<String> = FORMATS
                .iter()
                .map(|&f| {
                    med.get(&(d, Op::Ser, f))
                        .map_or("-".into(), |m| m.1.to_string())
                })
                .collect();
            format!("{}: {}", doc.name(), s.join(" / "))
        })
        .collect();
    println!(
        "bytes ({}): {}",
        FORMATS.map(Format::name).join(" / "),
        sizes.join("; ")
    );
}

/// `--one DOC FORMAT ser|de N [DATA_DIR]`.
fn one(args: &[String]) {
    let [doc, format, op, n, rest @ ..] = args else {
        panic!("--one DOC FORMAT ser|de N [DATA_DIR]");
    };
    let dir = rest
        .first()
        .cloned()
        .unwrap_or_else(|| "../shared/data".into());
    let docs = docs(&dir);
    let doc = docs.iter().find(|d| d.name() == doc).expect("document");
    let f = Format::from_name(format).expect("format");
    let op = if op == "ser" { Op::Ser } else { Op::De };
    let mut bytes = Vec::new();
    doc.ser(f, &mut bytes);
    let n: u32 = n.parse().expect("N");
    // The output buffer at its size already, as in the timed runs.
    let mut buf = bytes.clone();
    run(doc.as_ref(), f, op, &bytes, &mut buf, n);
}
