//! Deterministic random documents: a splitmix64 PRNG, a generator of valid
//! [`Value`]s covering every type and every length form, edge-case atoms
//! that may or may not be valid, and a byte mutator for invalid inputs.

use super::reference::{float_canonical, key_less, put_string, Value};

/// splitmix64: tiny, seeded, good enough for test generation.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    pub fn usize(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as u64, hi as u64) as usize
    }

    /// True with probability num/den.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// String lengths worth hitting: each length form's first and last values.
pub const BOUNDARY_LENS: [usize; 12] = [0, 1, 59, 60, 61, 62, 315, 316, 317, 318, 65852, 65853];

/// A length for a string payload within `budget` bytes.
fn string_len(rng: &mut Rng, budget: usize) -> usize {
    let len = match rng.below(10) {
        0..=3 => rng.usize(0, 12),
        4..=5 => rng.pick(&BOUNDARY_LENS),
        6..=7 => rng.usize(0, 400),
        8 => rng.usize(300, 2000),
        _ => rng.usize(65853, 66100),
    };
    if len > budget {
        rng.usize(0, budget.min(64))
    } else {
        len
    }
}

/// A random valid UTF-8 string without NUL of exactly `len` bytes, mixing
/// 1-, 2-, 3- and 4-byte sequences.
pub fn gen_utf8(rng: &mut Rng, len: usize) -> String {
    let mut s = String::with_capacity(len);
    let ascii_only = rng.chance(1, 3);
    while s.len() < len {
        let room = len - s.len();
        let c = match if ascii_only { 0 } else { rng.below(5) } {
            _ if room == 1 => char::from(rng.range(1, 0x7F) as u8),
            0 | 1 => char::from(rng.range(0x20, 0x7E) as u8),
            2 => char::from_u32(rng.range(0x80, 0x7FF) as u32).unwrap(),
            3 if room >= 3 => {
                let cp = rng.pick(&[0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x4E2D]);
                let cp = if rng.chance(1, 2) {
                    cp
                } else {
                    rng.range(0xE000, 0xFFFF) as u32
                };
                char::from_u32(cp).unwrap()
            }
            _ if room >= 4 => {
                let cp = rng.pick(&[0x10000, 0x10FFFF, 0x1F600]);
                let cp = if rng.chance(1, 2) {
                    cp
                } else {
                    rng.range(0x10000, 0x10FFFF) as u32
                };
                char::from_u32(cp).unwrap()
            }
            _ => char::from(rng.range(1, 0x7F) as u8),
        };
        s.push(c);
    }
    assert_eq!(s.len(), len);
    s
}

/// Minimal big-endian bytes (no leading zero byte) of a u128.
pub fn minimal(v: u128) -> Vec<u8> {
    let b = v.to_be_bytes();
    let first = b.iter().position(|&x| x != 0).unwrap_or(16);
    b[first..].to_vec()
}

fn gen_int(rng: &mut Rng) -> Value {
    let negative = rng.chance(1, 2);
    let magnitude = match rng.below(8) {
        0 => minimal(rng.range(0, 300).into()),
        1 => minimal(rng.next_u64().into()),
        2 => minimal(rng.next_u64() as u128 >> rng.below(64)),
        // Around the u64 / i64 edges (i64::MIN is -1 - (2^63 - 1)).
        3 => {
            let edges: [u128; 10] = [
                (1 << 63) - 2,
                (1 << 63) - 1,
                1 << 63,
                (1 << 63) + 1,
                u64::MAX as u128 - 1,
                u64::MAX as u128,
                1 << 64,
                (1 << 64) + 1,
                255,
                256,
            ];
            minimal(rng.pick(&edges))
        }
        // Bigints: 9..=40 bytes, no leading zero.
        _ => {
            let n = rng.usize(9, 40);
            let mut m = rng.bytes(n);
            m[0] = m[0].max(1);
            m
        }
    };
    Value::Int {
        negative,
        magnitude,
    }
}

/// A float payload of `width` bytes aimed at the edges of the shortest-form
/// rule (exponents near the narrower format's limits, fractions with many
/// trailing zeros, subnormals, infinities, NaNs). May be non-canonical.
pub fn edge_float(rng: &mut Rng, width: usize) -> Vec<u8> {
    let (eb, fb): (u32, u32) = match width {
        2 => (5, 10),
        4 => (8, 23),
        8 => (11, 52),
        16 => (15, 112),
        _ => (19, 236),
    };
    let bias = (1i64 << (eb - 1)) - 1;
    let exp_max = (1i64 << eb) - 1;
    // The next narrower format's bias and fraction bits.
    let (nbias, nfb): (i64, i64) = match width {
        2 | 4 => (15, 10),
        8 => (127, 23),
        16 => (1023, 52),
        _ => (16383, 112),
    };
    let near = |rng: &mut Rng| rng.range(0, 2) as i64 - 1;
    let exp = match rng.below(7) {
        0 => 0,
        1 => exp_max,
        2 => rng.range(1, exp_max as u64 - 1) as i64,
        // Around the narrower format's exponent range and subnormals.
        3 => bias + nbias + near(rng),
        4 => bias - nbias - rng.range(0, nfb as u64 + 2) as i64 + 1,
        5 => bias + near(rng),
        _ => bias - nbias + near(rng),
    }
    .clamp(0, exp_max) as u64;
    // Fraction: zero, random, or random with k low zero bits.
    let total = (width * 8) as u32;
    let mut bits = vec![false; total as usize];
    bits[0] = rng.chance(1, 2);
    for i in 0..eb {
        bits[(eb - i) as usize] = (exp >> i) & 1 == 1;
    }
    let frac_mode = rng.below(4);
    let keep = match frac_mode {
        0 => 0,
        1 => fb,
        _ => rng.range(0, u64::from(fb)) as u32,
    };
    for i in 0..keep {
        bits[(1 + eb + i) as usize] = rng.chance(1, 2);
    }
    if keep > 0 && rng.chance(1, 2) {
        bits[(eb + keep) as usize] = true; // lowest kept bit set
    }
    bits.chunks(8)
        .map(|c| c.iter().fold(0u8, |a, &b| a * 2 + u8::from(b)))
        .collect()
}

fn gen_float(rng: &mut Rng) -> Value {
    let width = rng.pick(&[2usize, 4, 8, 16, 32]);
    for _ in 0..100 {
        let p = if rng.chance(1, 2) {
            edge_float(rng, width)
        } else {
            rng.bytes(width)
        };
        if float_canonical(&p) {
            return Value::Float(p);
        }
    }
    Value::Float(vec![0, 0])
}

/// A valid TAI64/N/NA label.
fn gen_tai(rng: &mut Rng) -> Value {
    let secs = match rng.below(4) {
        0 => 1u64 << 62,
        1 => (1u64 << 63) - 1,
        2 => rng.below(1 << 63),
        _ => (1u64 << 62) + rng.below(1 << 34),
    };
    let mut p = secs.to_be_bytes().to_vec();
    let frac = |rng: &mut Rng| {
        if rng.chance(1, 4) {
            rng.pick(&[1u32, 999_999_999])
        } else {
            rng.range(1, 999_999_999) as u32
        }
    };
    match rng.below(3) {
        0 => {}
        1 => p.extend_from_slice(&frac(rng).to_be_bytes()),
        _ => {
            let ns = if rng.chance(1, 4) { 0 } else { frac(rng) };
            p.extend_from_slice(&ns.to_be_bytes());
            p.extend_from_slice(&frac(rng).to_be_bytes());
        }
    }
    Value::Tai(p)
}

fn gen_blob(rng: &mut Rng, budget: &mut usize) -> Value {
    let chunk: u128 = match rng.below(8) {
        0 => 1,
        1 => rng.pick(&[u64::MAX as u128 + 1, 1 << 32, 65853, 317]),
        _ => rng.range(1, 300).into(),
    };
    let max_chunks = 200u128;
    let room = (*budget as u128).min(chunk.saturating_mul(max_chunks)) as usize;
    let len = if chunk <= room as u128 && rng.chance(1, 3) {
        // End exactly on a chunk boundary (then an empty BIN closes it).
        let k = rng.usize(0, room / chunk as usize);
        k * chunk as usize
    } else {
        rng.usize(0, room.min(1000))
    };
    *budget = budget.saturating_sub(len);
    Value::Blob {
        chunk_len_m1: (chunk - 1) as u64,
        data: rng.bytes(len),
    }
}

fn gen_key(rng: &mut Rng) -> String {
    let len = match rng.below(10) {
        0 => rng.pick(&[60usize, 61, 62]),
        _ => rng.usize(1, 6),
    };
    gen_utf8(rng, len)
}

fn gen_inner(rng: &mut Rng, depth: u32, budget: &mut usize) -> Value {
    *budget = budget.saturating_sub(1);
    let containers = depth > 0 && *budget > 0;
    match rng.below(if containers { 16 } else { 12 }) {
        0 => Value::Nil,
        1 => Value::Bool(rng.chance(1, 2)),
        2 => Value::Hexlet(rng.bytes(16).try_into().unwrap()),
        3 => gen_int(rng),
        4 => gen_float(rng),
        5 => gen_tai(rng),
        6 => {
            let mut m: [u8; 12] = rng.bytes(12).try_into().unwrap();
            let keep = rng.usize(0, 12);
            m[keep..].fill(0);
            Value::Magic(m)
        }
        7 => gen_blob(rng, budget),
        8 | 9 => {
            let len = string_len(rng, *budget);
            *budget = budget.saturating_sub(len);
            Value::Bin(rng.bytes(len))
        }
        10 | 11 => {
            let len = string_len(rng, *budget);
            *budget = budget.saturating_sub(len);
            Value::Str(gen_utf8(rng, len))
        }
        12 | 13 => {
            let n = rng.usize(0, 6);
            Value::List((0..n).map(|_| gen_inner(rng, depth - 1, budget)).collect())
        }
        _ => {
            let mut keys: Vec<String> = (0..rng.usize(0, 6)).map(|_| gen_key(rng)).collect();
            keys.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
            keys.dedup();
            for w in keys.windows(2) {
                assert!(key_less(w[0].as_bytes(), w[1].as_bytes()));
            }
            Value::Map(
                keys.into_iter()
                    .map(|k| {
                        let v = if rng.chance(1, 5) {
                            Value::Nil
                        } else {
                            gen_inner(rng, depth - 1, budget)
                        };
                        (k, v)
                    })
                    .collect(),
            )
        }
    }
}

/// A random valid document: containers nest at most `depth_budget` deep and
/// the payloads add up to roughly `size_budget` bytes (one string may start
/// at 65853 bytes when the budget allows).
pub fn gen_value(rng: &mut Rng, depth_budget: u32, size_budget: usize) -> Value {
    let mut budget = size_budget;
    gen_inner(rng, depth_budget, &mut budget)
}

/// One atom aimed at the edges of the atom rules; may be valid or not.
pub fn edge_atom(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    match rng.below(7) {
        0 => {
            let width = rng.pick(&[2usize, 4, 8, 16, 32]);
            out.push(0x10 + width.trailing_zeros() as u8 - 1);
            out.extend(edge_float(rng, width));
        }
        1 => {
            let tag = rng.range(0x18, 0x1A) as u8;
            out.push(tag);
            let secs = rng.pick(&[0, 1 << 62, (1 << 63) - 1, 1 << 63, u64::MAX]);
            out.extend_from_slice(&secs.to_be_bytes());
            for _ in 0..(tag - 0x18) {
                let f: u32 = rng.pick(&[0, 1, 999_999_999, 1_000_000_000, u32::MAX]);
                out.extend_from_slice(&f.to_be_bytes());
            }
        }
        2 => {
            // Integers with possibly a leading zero or a non-BIN body.
            out.push(rng.pick(&[0x0C, 0x0D]));
            let mut m = minimal(rng.next_u64().into());
            if rng.chance(1, 2) {
                m.insert(0, 0);
            }
            put_string(&mut out, rng.chance(1, 4), &m);
        }
        3 => {
            // Strings with a tricky UTF-8 tail.
            let n = rng.usize(0, 70);
            let mut p = gen_utf8(rng, n).into_bytes();
            let tails: [&[u8]; 12] = [
                &[0xC0, 0x80],
                &[0xC1, 0xBF],
                &[0xC2, 0x80],
                &[0xE0, 0x9F, 0xBF],
                &[0xE0, 0xA0, 0x80],
                &[0xED, 0xA0, 0x80],
                &[0xED, 0x9F, 0xBF],
                &[0xF0, 0x8F, 0xBF, 0xBF],
                &[0xF4, 0x8F, 0xBF, 0xBF],
                &[0xF4, 0x90, 0x80, 0x80],
                &[0xF5, 0x80, 0x80, 0x80],
                &[0x00],
            ];
            p.extend_from_slice(rng.pick(&tails));
            if rng.chance(1, 3) {
                p.truncate(rng.usize(0, p.len()));
            }
            put_string(&mut out, true, &p);
        }
        4 => {
            // Long string headers: overflow, beyond the input, or fine.
            out.push(rng.pick(&[0xBF, 0xFF, 0xBE, 0xBD]));
            let n = rng.usize(0, 8);
            for _ in 0..n {
                out.push(rng.pick(&[0x00, 0xFF, 0x01]));
            }
        }
        5 => {
            out.extend_from_slice(b"KEKS");
            out.extend_from_slice(&rng.bytes(12));
            if rng.chance(1, 2) {
                let i = rng.usize(1, 3);
                out[i] ^= 1 << rng.below(8);
            }
        }
        _ => out.push(rng.byte()),
    }
    out
}

/// Bytes a mutator likes to write: tags, EOC, length forms, 0xFF.
const INTERESTING: [u8; 22] = [
    0x00, 0x01, 0x04, 0x05, 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x10, 0x14, 0x18, 0x1A, 0x4B, 0x80, 0x81,
    0xBD, 0xBE, 0xBF, 0xC0, 0xC1, 0xFF,
];

/// Damages `buf` in 1..=4 random ways (bit flip, byte set, insert, delete,
/// truncate, duplicate a slice, splice in an edge atom).
pub fn mutate(rng: &mut Rng, buf: &mut Vec<u8>) {
    for _ in 0..rng.range(1, 4) {
        let len = buf.len();
        let at = rng.usize(0, len);
        match rng.below(8) {
            0 if len > 0 => {
                let i = at.min(len - 1);
                buf[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = at.min(len - 1);
                buf[i] = rng.pick(&INTERESTING);
            }
            2 => {
                let n = rng.usize(1, 4);
                let ins: Vec<u8> = (0..n).map(|_| rng.pick(&INTERESTING)).collect();
                buf.splice(at..at, ins);
            }
            3 if len > 0 => {
                let end = (at + rng.usize(1, 8)).min(len);
                buf.drain(at..end);
            }
            4 => buf.truncate(at),
            5 if len > 0 => {
                let end = (at + rng.usize(1, 16)).min(len);
                let dup = buf[at..end].to_vec();
                let to = rng.usize(0, len);
                buf.splice(to..to, dup);
            }
            6 => {
                let a = edge_atom(rng);
                buf.splice(at..at, a);
            }
            _ if len > 0 => {
                let i = at.min(len - 1);
                buf[i] = rng.byte();
            }
            _ => buf.push(rng.byte()),
        }
    }
}
