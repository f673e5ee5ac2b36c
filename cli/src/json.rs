//! A small strict JSON (RFC 8259) reader into an arena of values, and the
//! string escaping of the writer. The reader keeps its own stack, so that
//! deeply nested input cannot overflow the call stack; integers keep their
//! digits (any size), strings without escapes borrow from the input.

use std::borrow::Cow;

/// One JSON value; containers hold arena indices.
#[derive(Debug)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// An integer token: its sign and digits (no leading zeros but "0").
    Int {
        negative: bool,
        digits: &'a str,
    },
    /// A number with a fraction or an exponent.
    Float(f64),
    Str(Cow<'a, str>),
    Array(Vec<usize>),
    Object(Vec<(Cow<'a, str>, usize)>),
}

/// The values of a document and where each starts in the input.
#[derive(Debug, Default)]
pub struct Arena<'a> {
    pub values: Vec<Value<'a>>,
    pub starts: Vec<usize>,
}

impl<'a> Arena<'a> {
    fn push(&mut self, v: Value<'a>, start: usize) -> usize {
        self.values.push(v);
        self.starts.push(start);
        self.values.len() - 1
    }
}

/// A syntax error at a byte offset.
#[derive(Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub msg: String,
}

fn err<T>(offset: usize, msg: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        offset,
        msg: msg.into(),
    })
}

/// Line and column (from 1, in bytes) of `offset` in `text`.
pub fn line_col(text: &[u8], offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

/// Parses a sequence of JSON values separated by whitespace (one value is
/// the common case) and returns the arena and the roots.
pub fn parse<'a>(text: &'a str) -> Result<(Arena<'a>, Vec<usize>), SyntaxError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        arena: Arena::default(),
    };
    let mut roots = Vec::new();
    loop {
        p.skip_ws();
        if p.pos >= p.s.len() {
            break;
        }
        roots.push(p.value()?);
    }
    if roots.is_empty() {
        return err(p.pos, "no JSON value");
    }
    Ok((p.arena, roots))
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    arena: Arena<'a>,
}

/// An open container: its arena index, and for an object the key of the
/// member whose value is being read.
struct Frame<'a> {
    node: usize,
    key: Option<Cow<'a, str>>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), SyntaxError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            err(self.pos, format!("expected '{}'", c as char))
        }
    }

    /// One whole value with everything inside it.
    fn value(&mut self) -> Result<usize, SyntaxError> {
        let mut stack: Vec<Frame<'a>> = Vec::new();
        loop {
            // Read a value: a scalar, or the opening of a container.
            self.skip_ws();
            let start = self.pos;
            let mut done = match self.peek() {
                Some(b'[') | Some(b'{') => {
                    let is_obj = self.peek() == Some(b'{');
                    self.pos += 1;
                    let v = if is_obj {
                        Value::Object(Vec::new())
                    } else {
                        Value::Array(Vec::new())
                    };
                    let node = self.arena.push(v, start);
                    self.skip_ws();
                    let close = if is_obj { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        Some(node)
                    } else {
                        let key = if is_obj { Some(self.key()?) } else { None };
                        stack.push(Frame { node, key });
                        None
                    }
                }
                _ => Some(self.scalar()?),
            };
            // Attach finished values to their containers; close those that
            // end here.
            while let Some(v) = done.take() {
                let Some(top) = stack.last_mut() else {
                    return Ok(v);
                };
                let is_obj = match self.arena.values.get_mut(top.node) {
                    Some(Value::Array(items)) => {
                        items.push(v);
                        false
                    }
                    Some(Value::Object(members)) => {
                        let key = top.key.take().unwrap_or_default();
                        members.push((key, v));
                        true
                    }
                    _ => return err(self.pos, "internal: not a container"),
                };
                self.skip_ws();
                match (self.peek(), is_obj) {
                    (Some(b','), _) => {
                        self.pos += 1;
                        if is_obj {
                            let key = self.key()?;
                            if let Some(top) = stack.last_mut() {
                                top.key = Some(key);
                            }
                        }
                    }
                    (Some(b']'), false) | (Some(b'}'), true) => {
                        self.pos += 1;
                        done = stack.pop().map(|f| f.node);
                    }
                    (_, false) => return err(self.pos, "expected ',' or ']'"),
                    (_, true) => return err(self.pos, "expected ',' or '}'"),
                }
            }
        }
    }

    /// An object key and its colon.
    fn key(&mut self) -> Result<Cow<'a, str>, SyntaxError> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return err(self.pos, "expected a string key");
        }
        let key = self.string()?;
        self.expect(b':')?;
        Ok(key)
    }

    fn scalar(&mut self) -> Result<usize, SyntaxError> {
        let start = self.pos;
        let v = match self.peek() {
            Some(b'"') => Value::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            None => return err(start, "unexpected end of input"),
            Some(_) => return err(start, "expected a JSON value"),
        };
        Ok(self.arena.push(v, start))
    }

    fn word(&mut self, w: &str, v: Value<'a>) -> Result<Value<'a>, SyntaxError> {
        if self.s.get(self.pos..self.pos + w.len()) == Some(w.as_bytes()) {
            self.pos += w.len();
            Ok(v)
        } else {
            err(self.pos, "expected a JSON value")
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) -> Result<Value<'a>, SyntaxError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.digits() {
            0 => return err(self.pos, "expected a digit"),
            n if n > 1 && self.s.get(int_start) == Some(&b'0') => {
                return err(int_start, "leading zero in a number")
            }
            _ => {}
        }
        let int_end = self.pos;
        let mut is_float = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return err(self.pos, "expected a digit after '.'");
            }
            is_float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return err(self.pos, "expected a digit in the exponent");
            }
            is_float = true;
        }
        let token = self.text.get(start..self.pos).unwrap_or("");
        if !is_float {
            let digits = self.text.get(int_start..int_end).unwrap_or("0");
            return Ok(Value::Int { negative, digits });
        }
        match token.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => err(start, "number out of the range of FLOAT64"),
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let at = self.pos;
        let h = self
            .text
            .get(at..at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match h {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => err(at, "expected four hex digits after \\u"),
        }
    }

    fn string(&mut self) -> Result<Cow<'a, str>, SyntaxError> {
        let open = self.pos;
        self.pos += 1; // the opening quote
        let first = self.pos;
        // Fast path: no escapes.
        loop {
            match self.peek() {
                None => return err(open, "string not closed"),
                Some(b'"') => {
                    let s = self.text.get(first..self.pos).unwrap_or("");
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(c) if c < 0x20 => return err(self.pos, "control character in a string"),
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::from(self.text.get(first..self.pos).unwrap_or(""));
        loop {
            let run = self.pos;
            while matches!(self.peek(), Some(c) if c != b'"' && c != b'\\' && c >= 0x20) {
                self.pos += 1;
            }
            out.push_str(self.text.get(run..self.pos).unwrap_or(""));
            match self.peek() {
                None => return err(open, "string not closed"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {}
                Some(_) => return err(self.pos, "control character in a string"),
            }
            let esc = self.pos;
            self.pos += 1;
            let c = self.peek();
            self.pos += 1;
            match c {
                Some(b'"') => out.push('"'),
                Some(b'\\') => out.push('\\'),
                Some(b'/') => out.push('/'),
                Some(b'b') => out.push('\u{8}'),
                Some(b'f') => out.push('\u{c}'),
                Some(b'n') => out.push('\n'),
                Some(b'r') => out.push('\r'),
                Some(b't') => out.push('\t'),
                Some(b'u') => {
                    let hi = self.hex4()?;
                    let cp = if (0xD800..0xDC00).contains(&hi) {
                        if self.s.get(self.pos..self.pos + 2) != Some(b"\\u") {
                            return err(esc, "lone surrogate in \\u escape");
                        }
                        self.pos += 2;
                        let lo = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&lo) {
                            return err(esc, "lone surrogate in \\u escape");
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    } else {
                        hi
                    };
                    match char::from_u32(cp) {
                        Some(ch) => out.push(ch),
                        None => return err(esc, "lone surrogate in \\u escape"),
                    }
                }
                _ => return err(esc, "bad escape in a string"),
            }
        }
    }
}

/// Appends `s` as a JSON string: quotes, backslashes and control
/// characters escaped, everything else as UTF-8.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> (Arena<'_>, usize) {
        let (a, roots) = parse(text).unwrap();
        assert_eq!(roots.len(), 1);
        (a, roots[0])
    }

    #[test]
    fn scalars() {
        let (a, r) = one("-12");
        assert!(matches!(
            a.values[r],
            Value::Int {
                negative: true,
                digits: "12"
            }
        ));
        let (a, r) = one("1.5e3");
        assert!(matches!(a.values[r], Value::Float(f) if f == 1500.0));
        let (a, r) = one(r#""a\u00e9\ud83d\ude00\n""#);
        assert!(matches!(&a.values[r], Value::Str(s) if s == "a\u{e9}\u{1F600}\n"));
        let (a, r) = one("[true, null, {\"k\": []}]");
        let Value::Array(items) = &a.values[r] else {
            panic!()
        };
        assert_eq!(items.len(), 3);
    }

    #[test]
    fn errors_have_offsets() {
        for (text, at) in [
            ("[1,]", 3),
            ("{\"a\" 1}", 5),
            ("01", 0),
            ("1.", 2),
            ("\"\\ud800\"", 1),
            ("[", 1),
            ("\"abc", 0),
            ("nul", 0),
            ("1e999", 0),
            ("", 0),
            ("[1] x", 4),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.offset, at, "{text}: {}", e.msg);
        }
    }

    #[test]
    fn deep_nesting_needs_no_call_stack() {
        let text = "[".repeat(1_000_000) + &"]".repeat(1_000_000);
        let (a, _) = one(&text);
        assert_eq!(a.values.len(), 1_000_000);
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_col(b"ab", 0), (1, 1));
    }

    #[test]
    fn string_escapes() {
        let mut s = String::new();
        write_str(&mut s, "a\"\\\n\u{1}é");
        assert_eq!(s, "\"a\\\"\\\\\\n\\u0001é\"");
    }
}
