//! Turns the fuzzer's bytes into choices: a cursor that hands out small
//! numbers and slices, and yields zeros once the input is used up (so
//! every input is a complete program of choices).

pub struct Input<'d> {
    data: &'d [u8],
    pos: usize,
}

impl<'d> Input<'d> {
    pub fn new(data: &'d [u8]) -> Self {
        Input { data, pos: 0 }
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | u64::from(self.u32()) << 32
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let v = if n <= 256 {
            usize::from(self.byte())
        } else {
            self.u32() as usize
        };
        v % n
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// Up to `max` bytes of the input (fewer near its end).
    pub fn slice(&mut self, max: usize) -> &'d [u8] {
        let n = self.below(max + 1);
        let start = self.pos.min(self.data.len());
        let end = start.saturating_add(n).min(self.data.len());
        self.pos = start + n;
        &self.data[start..end]
    }

    /// The rest of the input.
    pub fn rest(&mut self) -> &'d [u8] {
        let start = self.pos.min(self.data.len());
        self.pos = self.data.len();
        &self.data[start..]
    }
}
