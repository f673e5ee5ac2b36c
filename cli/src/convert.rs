//! The commands: loading a document into a tree sized by a counting pass,
//! printing it, and converting between YAC and JSON. Every walk is a loop
//! with its own stack, whatever the nesting depth.

use std::borrow::Cow;
use std::io::Write;

use yac::atom::{self, Atom, ItemType};
use yac::enc::pad_magic;
use yac::items::{count_nodes, Event, Item, Items, ItemsMut, Options};
use yac::rules::{chunk_fits, key_cmp};
use yac::text::{self, describe, hex, Size};
use yac::validate::validate;
use yac::{bigint, float, Error};

use crate::json::{self, Value};
use crate::{write_err, Failure};

/// The message for invalid YAC at `off`. The tool has the whole input, so
/// an item that needs more bytes than are left has a corrupt length or was
/// cut: it says so rather than only how many bytes are missing.
fn invalid(off: usize, e: Error) -> Failure {
    let why = match e {
        Error::NotEnough(n) => format!(
            "not enough input: the item needs {n} more byte(s) than the input has \
             (a corrupt length, or a cut input)"
        ),
        // On a 32-bit machine the same corrupt length does not even fit
        // `usize`, and the core refuses it before comparing it with the input.
        Error::LenTooBig => {
            format!("{e}: more bytes than this machine can address (a corrupt length)")
        }
        e => e.to_string(),
    };
    Failure::Invalid(format!("invalid YAC at offset {off} (0x{off:x}): {why}"))
}

/// Validates every top-level item of `buf` with the counting pass and
/// returns the number of nodes their trees need.
fn count(buf: &[u8]) -> Result<usize, Failure> {
    let (mut off, mut nodes) = (0usize, 0usize);
    while let Some(rest) = buf.get(off..).filter(|r| !r.is_empty()) {
        match count_nodes(rest, 0) {
            Ok((n, used)) => {
                nodes += n;
                off += used;
            }
            Err(e) => return Err(locate(buf, off, e)),
        }
    }
    if off == 0 {
        return Err(Failure::Invalid("empty input: no YAC item".into()));
    }
    Ok(nodes)
}

/// Where the item at `start`, which the counting pass refused with `e`,
/// goes wrong first: the parser says, in a pool grown as needed (this
/// runs on the error path only).
fn locate(buf: &[u8], start: usize, e: Error) -> Failure {
    let mut cap = 1024usize;
    loop {
        let mut pool = vec![Item::default(); cap];
        let mut items = Items::new(&mut pool);
        let mut off = start;
        match items.parse(buf, &mut off) {
            Err(Error::NoMem) if cap <= buf.len() => cap = cap.saturating_mul(2),
            Err(found) => return invalid(off, found),
            Ok(_) => return invalid(start, e),
        }
    }
}

/// Parses every top-level item of `buf` into one pool sized exactly by
/// the counting pass, then hands the tree and the roots to `f`.
fn with_tree<R>(
    buf: &[u8],
    f: impl FnOnce(&ItemsMut<'_, '_>, &[u32]) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let nodes = count(buf)?;
    let mut pool = vec![Item::default(); nodes];
    let mut items = Items::new(&mut pool);
    let mut roots = Vec::new();
    let mut off = 0;
    while off < buf.len() {
        match items.parse(buf, &mut off) {
            Ok(root) => roots.push(root),
            Err(e) => return Err(invalid(off, e)),
        }
    }
    f(&items, &roots)
}

/// The atom a tree node stands for (containers: their opening atom).
fn node_atom<'a>(items: &ItemsMut<'_, 'a>, n: u32) -> Result<Atom<'a>, Error> {
    let bytes = || items.bytes(n);
    Ok(match items.item_type(n) {
        ItemType::Nil => Atom::Nil,
        ItemType::False => Atom::Bool(false),
        ItemType::True => Atom::Bool(true),
        ItemType::Pint => Atom::Uint(items.get_uint(n)?),
        ItemType::Nint => Atom::Nint(items.get_int(n)?),
        ItemType::Pbig => Atom::BigInt {
            negative: false,
            magnitude: bytes()?,
        },
        ItemType::Nbig => Atom::BigInt {
            negative: true,
            magnitude: bytes()?,
        },
        ItemType::Hexlet => Atom::Hexlet(bytes()?.try_into().map_err(|_| Error::Invalid)?),
        ItemType::Magic => Atom::Magic(bytes()?.try_into().map_err(|_| Error::Invalid)?),
        ItemType::Float => Atom::Float(bytes()?),
        ItemType::Tai64 => Atom::Tai64(bytes()?),
        ItemType::Bin => Atom::Bin(bytes()?),
        ItemType::Str => Atom::Str(items.get_str(n)?),
        ItemType::List => Atom::List,
        ItemType::Map => Atom::Map,
        ItemType::Blob => Atom::Blob {
            chunk_len_minus_one: items.blob_chunk_len_minus_one(n)?,
        },
        _ => return Err(Error::Invalid),
    })
}

fn tree_err(e: Error) -> Failure {
    Failure::Invalid(format!("broken tree: {e}"))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    text::plural(n as u64, one, many)
}

/// `yac check`: validates every top-level item with the core's tree-free
/// validator (the parser's verdict, error and offset, without a node
/// pool) and returns a one-line summary. Its memory is one word per
/// nesting level, grown as the document needs.
pub fn check(buf: &[u8]) -> Result<String, Failure> {
    if buf.is_empty() {
        return Err(Failure::Invalid("empty input: no YAC item".into()));
    }
    let mut levels = vec![0usize; 64];
    let (mut off, mut items, mut nodes) = (0usize, 0usize, 0usize);
    while off < buf.len() {
        let start = off;
        match validate(buf, &mut off, &mut levels, Options::default()) {
            Ok(n) => {
                items += 1;
                nodes += n;
            }
            // Deeper than `levels`: again from the item's start with twice
            // as many (nesting is below the input's length).
            Err(Error::NoMem) if levels.len() <= buf.len() => {
                let more = levels.len() * 2;
                levels.resize(more, 0);
                off = start;
            }
            Err(e) => return Err(invalid(off, e)),
        }
    }
    Ok(format!(
        "ok: {}, {}, {}",
        plural(items, "item", "items"),
        plural(nodes, "node", "nodes"),
        plural(buf.len(), "byte", "bytes")
    ))
}

/// An open container of a walk: its type, how many children were seen,
/// and (for `to-json`) whether its JSON needs one more closing brace.
struct Frame {
    typ: ItemType,
    seen: usize,
    wrapped: bool,
}

/// `yac print`: the tree, two spaces per level, MAP keys before values.
pub fn print(buf: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    with_tree(buf, |items, roots| {
        let mut text = String::new();
        for &root in roots {
            let mut stack: Vec<Frame> = Vec::new();
            let mut key: Option<&str> = None;
            for ev in items.walk(root) {
                let (ev, depth) = ev.map_err(tree_err)?;
                let n = match ev {
                    Event::Exit(_) => {
                        stack.pop();
                        continue;
                    }
                    Event::Enter(n) | Event::Leaf(n) => n,
                };
                if let Some(top) = stack.last_mut() {
                    top.seen += 1;
                    if top.typ == ItemType::Map && top.seen % 2 == 1 {
                        key = Some(items.get_str(n).map_err(tree_err)?);
                        continue;
                    }
                }
                let a = node_atom(items, n).map_err(tree_err)?;
                let typ = items.item_type(n);
                let mut size = None;
                if let Event::Enter(_) = ev {
                    let kids = items.child_count(n).map_err(tree_err)?;
                    size = Some(match typ {
                        ItemType::List => Size::List(kids),
                        ItemType::Map => Size::Map(kids / 2),
                        _ => Size::Blob {
                            chunks: kids,
                            bytes: items.blob_len(n).map_err(tree_err)?,
                        },
                    });
                    stack.push(Frame {
                        typ,
                        seen: 0,
                        wrapped: false,
                    });
                }
                text::line(&mut text, depth as usize, key.take(), &a, size);
                if text.len() >= 1 << 16 {
                    out.write_all(text.as_bytes()).map_err(write_err)?;
                    text.clear();
                }
            }
        }
        out.write_all(text.as_bytes()).map_err(write_err)
    })
}

/// `yac atoms`: every atom with its offset, indented by nesting depth.
/// Checks each atom and the nesting (MAP key rules are `check`'s); on an
/// error, everything before it is printed first.
pub fn atoms(buf: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    if buf.is_empty() {
        return Err(Failure::Invalid("empty input: no YAC item".into()));
    }
    let mut text = String::new();
    let (mut off, mut depth) = (0usize, 0usize);
    let mut blob: Option<u64> = None;
    let mut failure = None;
    while let Some(rest) = buf.get(off..).filter(|r| !r.is_empty()) {
        let (a, used) = match atom::decode(rest) {
            Ok(x) => x,
            Err(e) => {
                failure = Some(invalid(off, e));
                break;
            }
        };
        let mut level = depth;
        if let Some(minus_one) = blob {
            let Atom::Bin(chunk) = a else {
                failure = Some(invalid(off, Error::BlobBadTerm));
                break;
            };
            match chunk_fits(chunk.len(), minus_one) {
                Ok(true) => {}
                Ok(false) => {
                    blob = None;
                    depth -= 1;
                }
                Err(e) => {
                    failure = Some(invalid(off, e));
                    break;
                }
            }
        } else {
            match a {
                Atom::Eoc => {
                    let Some(d) = depth.checked_sub(1) else {
                        failure = Some(invalid(off, Error::UnexpectedEoc));
                        break;
                    };
                    depth = d;
                    level = depth;
                }
                Atom::List | Atom::Map => depth += 1,
                Atom::Blob {
                    chunk_len_minus_one,
                } => {
                    depth += 1;
                    blob = Some(chunk_len_minus_one);
                }
                _ => {}
            }
        }
        text.push_str(&format!("{off:08x} "));
        text::indent(&mut text, level);
        text.push_str(&describe(&a));
        text.push('\n');
        if text.len() >= 1 << 16 {
            out.write_all(text.as_bytes()).map_err(write_err)?;
            text.clear();
        }
        off += used;
    }
    out.write_all(text.as_bytes()).map_err(write_err)?;
    if let Some(f) = failure {
        return Err(f);
    }
    if depth > 0 {
        return Err(Failure::Invalid(format!(
            "invalid YAC at offset {off} (0x{off:x}): input ends inside {}",
            plural(depth, "open container", "open containers")
        )));
    }
    Ok(())
}

/// `yac to-json`: each top-level item as one line of JSON.
pub fn to_json(buf: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    with_tree(buf, |items, roots| {
        let mut s = String::new();
        for &root in roots {
            item_json(items, root, &mut s)?;
            s.push('\n');
            out.write_all(s.as_bytes()).map_err(write_err)?;
            s.clear();
        }
        Ok(())
    })
}

/// A one-key JSON object `{"$name":` (the caller closes it).
fn special(s: &mut String, name: &str) {
    s.push_str("{\"$");
    s.push_str(name);
    s.push_str("\":");
}

/// `{"$name":"text"}`: a special object whose value is one JSON string.
fn special_str(s: &mut String, name: &str, text: &str) {
    special(s, name);
    json::write_str(s, text);
    s.push('}');
}

fn item_json(items: &ItemsMut<'_, '_>, root: u32, s: &mut String) -> Result<(), Failure> {
    let mut stack: Vec<Frame> = Vec::new();
    for ev in items.walk(root) {
        let (ev, _) = ev.map_err(tree_err)?;
        let n = match ev {
            Event::Exit(_) => {
                let f = stack.pop().ok_or_else(|| tree_err(Error::Invalid))?;
                match f.typ {
                    ItemType::List => s.push(']'),
                    ItemType::Map if f.wrapped => s.push_str("}}"),
                    ItemType::Map => s.push('}'),
                    _ => {} // BLOB: written whole when entered
                }
                continue;
            }
            Event::Enter(n) | Event::Leaf(n) => n,
        };
        if let Some(top) = stack.last_mut() {
            match top.typ {
                ItemType::Blob => continue,
                ItemType::Map if top.seen % 2 == 1 => s.push(':'),
                _ if top.seen > 0 => s.push(','),
                _ => {}
            }
            top.seen += 1;
        }
        let a = node_atom(items, n).map_err(tree_err)?;
        let typ = items.item_type(n);
        match a {
            Atom::List => s.push('['),
            Atom::Map => {
                // A MAP of one key starting with '$' would read back as a
                // special form: wrap it.
                let first = items.first_child(n);
                let wrapped = items.child_count(n) == Ok(2)
                    && first.and_then(|k| items.bytes(k).ok()).map(|k| k.first())
                        == Some(Some(&b'$'));
                if wrapped {
                    special(s, "map");
                }
                s.push('{');
                stack.push(Frame {
                    typ,
                    seen: 0,
                    wrapped,
                });
                continue;
            }
            Atom::Blob {
                chunk_len_minus_one,
            } => {
                special(s, "blob");
                s.push_str(&format!("[{},\"", u128::from(chunk_len_minus_one) + 1));
                for c in items.children(n) {
                    s.push_str(&hex(items.get_bin(c).map_err(tree_err)?));
                }
                s.push_str("\"]}");
            }
            Atom::Nil => s.push_str("null"),
            Atom::Bool(b) => s.push_str(if b { "true" } else { "false" }),
            Atom::Uint(_) | Atom::Nint(_) | Atom::BigInt { .. } => {
                s.push_str(&text::integer(&a).unwrap_or_default())
            }
            Atom::Str(v) => json::write_str(s, v),
            Atom::Bin(b) => special_str(s, "bin", &hex(b)),
            Atom::Hexlet(h) => special_str(s, "hexlet", &text::uuid(h)),
            Atom::Float(b) => match text::float_number(b) {
                Some(num) => s.push_str(&num),
                None => special_str(s, "float", &hex(b)),
            },
            Atom::Tai64(l) => special_str(s, "tai64", &hex(l)),
            Atom::Magic(m) => {
                special(s, "magic");
                let end = m.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
                let body = &m[..end];
                match std::str::from_utf8(body) {
                    Ok(t) if !body.contains(&0) => json::write_str(s, t),
                    _ => special_str(s, "bin", &hex(body)),
                }
                s.push('}');
            }
            Atom::Eoc => return Err(tree_err(Error::Invalid)),
        }
        if let Event::Enter(_) = ev {
            stack.push(Frame {
                typ,
                seen: 0,
                wrapped: false,
            });
        }
    }
    Ok(())
}

/// A JSON value that has no YAC form, at a byte offset of the JSON text.
struct BadJson(usize, String);

/// Appends one atom to `out`.
fn put(out: &mut Vec<u8>, a: &Atom<'_>) -> Result<(), Error> {
    let n = a.encoded_len()?;
    let start = out.len();
    out.resize(start + n, 0);
    let dst = out.get_mut(start..).ok_or(Error::NoMem)?;
    a.encode(dst)?;
    Ok(())
}

/// `yac from-json`: every JSON value of the input as one YAC item.
pub fn from_json(input: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    let fail = |off: usize, msg: &str| {
        let (line, col) = json::line_col(input, off);
        Failure::Invalid(format!(
            "invalid JSON at line {line}, column {col} (offset {off}): {msg}"
        ))
    };
    let text = std::str::from_utf8(input).map_err(|e| fail(e.valid_up_to(), "not UTF-8"))?;
    let (arena, roots) = json::parse(text).map_err(|e| fail(e.offset, &e.msg))?;
    let mut buf = Vec::with_capacity(input.len());
    for root in roots {
        encode_value(&arena, root, &mut buf).map_err(|BadJson(off, msg)| fail(off, &msg))?;
    }
    out.write_all(&buf).map_err(write_err)
}

/// What is left to write: a value, a MAP key, or the EOC of a container.
enum Task<'t> {
    Value(usize),
    Key(&'t str),
    Eoc,
}

fn encode_value(arena: &json::Arena<'_>, root: usize, out: &mut Vec<u8>) -> Result<(), BadJson> {
    let mut tasks = vec![Task::Value(root)];
    while let Some(task) = tasks.pop() {
        let i = match task {
            Task::Eoc => {
                put(out, &Atom::Eoc).map_err(|e| BadJson(0, e.to_string()))?;
                continue;
            }
            Task::Key(k) => {
                put(out, &Atom::Str(k)).map_err(|e| BadJson(0, e.to_string()))?;
                continue;
            }
            Task::Value(i) => i,
        };
        let at = arena.starts.get(i).copied().unwrap_or(0);
        let bad = |msg: String| BadJson(at, msg);
        let v = arena
            .values
            .get(i)
            .ok_or_else(|| bad("internal: no such value".into()))?;
        let atom = match v {
            Value::Null => Atom::Nil,
            Value::Bool(b) => Atom::Bool(*b),
            Value::Int { negative, digits } => {
                let mag = bigint::from_decimal(digits);
                let int = integer_bytes(*negative, mag);
                put(out, &int.atom()).map_err(|e| bad(e.to_string()))?;
                continue;
            }
            Value::Float(f) => {
                let mut b = [0u8; 8];
                let n = float::shortest(*f, &mut b)
                    .map_err(|_| bad("negative zero has no YAC encoding".into()))?;
                put(out, &Atom::Float(&b[..n])).map_err(|e| bad(e.to_string()))?;
                continue;
            }
            Value::Str(s) => {
                if s.contains('\0') {
                    return Err(bad("a STR cannot hold NUL (\\u0000)".into()));
                }
                Atom::Str(s)
            }
            Value::Array(elems) => {
                tasks.push(Task::Eoc);
                tasks.extend(elems.iter().rev().map(|&e| Task::Value(e)));
                Atom::List
            }
            Value::Object(members) => {
                if let [(k, v)] = members.as_slice() {
                    if k.starts_with('$') && k.as_ref() != "$map" {
                        encode_special(arena, k, *v, out).map_err(|msg| BadJson(at, msg))?;
                        continue;
                    }
                    if k.as_ref() == "$map" {
                        match arena.values.get(*v) {
                            Some(Value::Object(inner)) => map_tasks(arena, inner, &mut tasks)?,
                            _ => return Err(bad("\"$map\" takes an object".into())),
                        }
                        put(out, &Atom::Map).map_err(|e| bad(e.to_string()))?;
                        continue;
                    }
                }
                map_tasks(arena, members, &mut tasks)?;
                Atom::Map
            }
        };
        put(out, &atom).map_err(|e| bad(e.to_string()))?;
    }
    Ok(())
}

/// Queues a MAP's members in key order (length first, then bytewise),
/// refusing empty, NUL-holding and duplicate keys (reported at the
/// offending member's value).
fn map_tasks<'t>(
    arena: &json::Arena<'_>,
    members: &'t [(Cow<'_, str>, usize)],
    tasks: &mut Vec<Task<'t>>,
) -> Result<(), BadJson> {
    let at = |v: usize| arena.starts.get(v).copied().unwrap_or(0);
    let mut order: Vec<&(Cow<'_, str>, usize)> = members.iter().collect();
    order.sort_by(|a, b| key_cmp(a.0.as_bytes(), b.0.as_bytes()));
    for pair in order.windows(2) {
        if let [(k1, v1), (k2, v2)] = pair {
            if k1 == k2 {
                return Err(BadJson(at(*v1.max(v2)), format!("duplicate key {k1:?}")));
            }
        }
    }
    for (k, v) in order.iter() {
        if k.is_empty() {
            let msg = "empty key: a MAP key must be a non-empty STR";
            return Err(BadJson(at(*v), msg.into()));
        }
        if k.contains('\0') {
            return Err(BadJson(at(*v), "a STR cannot hold NUL (\\u0000)".into()));
        }
    }
    tasks.push(Task::Eoc);
    for (k, v) in order.iter().rev() {
        tasks.push(Task::Value(*v));
        tasks.push(Task::Key(k));
    }
    Ok(())
}

/// An integer as sign and wire magnitude.
struct IntBytes {
    negative: bool,
    magnitude: Vec<u8>,
}

impl IntBytes {
    fn atom(&self) -> Atom<'_> {
        Atom::BigInt {
            negative: self.negative,
            magnitude: &self.magnitude,
        }
    }
}

/// The wire form of ±`mag`: -v is written as v - 1 (and -0 is 0).
fn integer_bytes(negative: bool, mag: Vec<u8>) -> IntBytes {
    if negative && !mag.is_empty() {
        IntBytes {
            negative: true,
            magnitude: bigint::sub_one(&mag),
        }
    } else {
        IntBytes {
            negative: false,
            magnitude: mag,
        }
    }
}

/// A string value of a special form, or an error naming the form.
fn str_of<'t>(
    arena: &'t json::Arena<'_>,
    v: usize,
    form: &str,
    what: &str,
) -> Result<&'t str, String> {
    match arena.values.get(v) {
        Some(Value::Str(s)) => Ok(s),
        _ => Err(format!("\"{form}\" takes {what}")),
    }
}

fn hex_of(arena: &json::Arena<'_>, v: usize, form: &str) -> Result<Vec<u8>, String> {
    let s = str_of(arena, v, form, "a string of hex digits")?;
    text::unhex(s).ok_or_else(|| format!("\"{form}\": {s:?} is not an even number of hex digits"))
}

/// The special one-key objects: {"$bin": hex}, {"$hexlet": uuid},
/// {"$tai64": hex}, {"$float": hex}, {"$magic": text or {"$bin": hex}},
/// {"$blob": [chunk length, hex]}.
fn encode_special(
    arena: &json::Arena<'_>,
    form: &str,
    v: usize,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let emit =
        |out: &mut Vec<u8>, a: &Atom<'_>| put(out, a).map_err(|e| format!("\"{form}\": {e}"));
    match form {
        "$bin" => emit(out, &Atom::Bin(&hex_of(arena, v, form)?)),
        "$hexlet" => {
            let s = str_of(arena, v, form, "a UUID string")?;
            let h = text::parse_uuid(s).ok_or_else(|| format!("\"$hexlet\": {s:?} is not a UUID"))?;
            emit(out, &Atom::Hexlet(&h))
        }
        "$tai64" => emit(out, &Atom::Tai64(&hex_of(arena, v, form)?)),
        "$float" => emit(out, &Atom::Float(&hex_of(arena, v, form)?)),
        "$magic" => {
            let body = match arena.values.get(v) {
                Some(Value::Str(s)) => s.as_bytes().to_vec(),
                Some(Value::Object(m)) if m.len() == 1 && m[0].0 == "$bin" => hex_of(arena, m[0].1, "$bin")?,
                _ => return Err("\"$magic\" takes a string or {\"$bin\": hex}".into()),
            };
            let m = pad_magic(&body).map_err(|_| "\"$magic\": longer than 12 bytes".to_string())?;
            emit(out, &Atom::Magic(&m))
        }
        "$blob" => {
            let usage = "\"$blob\" takes [chunk length (1 to 2^64), hex string]";
            let Some(Value::Array(parts)) = arena.values.get(v) else {
                return Err(usage.into());
            };
            let [len, data] = parts.as_slice() else {
                return Err(usage.into());
            };
            let Some(Value::Int {
                negative: false,
                digits,
            }) = arena.values.get(*len)
            else {
                return Err(usage.into());
            };
            let mag = bigint::from_decimal(digits);
            if mag.is_empty() {
                return Err(usage.into());
            }
            let m1 = bigint::sub_one(&mag);
            let m1 = m1.iter().skip_while(|&&b| b == 0).copied().collect::<Vec<u8>>();
            if m1.len() > 8 {
                return Err(usage.into());
            }
            let minus_one = m1.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            let bytes = hex_of(arena, *data, form)?;
            emit(
                out,
                &Atom::Blob {
                    chunk_len_minus_one: minus_one,
                },
            )?;
            let chunk = usize::try_from(u128::from(minus_one) + 1).unwrap_or(usize::MAX);
            let mut rest = bytes.as_slice();
            while rest.len() >= chunk {
                let (head, tail) = rest.split_at(chunk);
                emit(out, &Atom::Bin(head))?;
                rest = tail;
            }
            emit(out, &Atom::Bin(rest))
        }
        _ => Err(format!(
            "unknown special form {form:?} (a MAP whose only key starts with '$' is written {{\"$map\": {{...}}}})"
        )),
    }
}
