//! The writer's output: bytes into the buffer, past its end counted
//! only, flushed to the sink, and what an open MAP keeps back from a
//! flush (its previous key, or the whole of a MAP sorted on close).

use super::core::{copy, Core};
use super::sort::swap_parts;
use super::state::*;
use crate::error::Error;

impl Core<'_, '_> {
    /// Appends `src`, or counts it past the buffer's end (recording
    /// `NoMem`). Errs only when the flush callback fails.
    #[inline(always)]
    pub(super) fn put(&mut self, src: &[u8]) -> Result<(), Error> {
        let pos = self.st.hot.pos;
        if self.st.flags & W_ROOM == 0 {
            if let Some(dst) = self.buf.get_mut(pos..pos.wrapping_add(src.len())) {
                copy(dst, src);
                self.st.hot.pos = pos + src.len();
                return Ok(());
            }
        }
        self.put_slow(src)
    }

    /// Appends one byte.
    #[inline(always)]
    pub(super) fn put_byte(&mut self, b: u8) -> Result<(), Error> {
        let pos = self.st.hot.pos;
        if self.st.flags & W_ROOM == 0 {
            if let Some(d) = self.buf.get_mut(pos) {
                *d = b;
                self.st.hot.pos = pos + 1;
                return Ok(());
            }
        }
        self.put_slow(&[b])
    }

    /// Appends the first `n` bytes of `w`, storing the whole window when
    /// there is room for it (the bytes after the first `n` are scratch).
    #[inline(always)]
    pub(super) fn put_window(&mut self, w: &[u8; 16], n: usize) -> Result<(), Error> {
        let pos = self.st.hot.pos;
        if self.st.flags & W_ROOM == 0 {
            let dst = self.buf.get_mut(pos..pos.wrapping_add(16));
            if let Some(dst) = dst.and_then(|d| <&mut [u8; 16]>::try_from(d).ok()) {
                *dst = *w; // one 16-byte store
                self.st.hot.pos = pos + n;
                return Ok(());
            }
        }
        self.put(w.get(..n).unwrap_or(&[]))
    }

    /// `put` when the bytes do not fit: flush, or write around the buffer,
    /// or count.
    #[inline(never)]
    fn put_slow(&mut self, src: &[u8]) -> Result<(), Error> {
        let n = src.len() as u64;
        if self.st.flags & (W_ROOM | W_COUNT) == 0 && self.sink.is_some() {
            self.flush_some()?;
            let pos = self.st.hot.pos;
            if let Some(dst) = self.buf.get_mut(pos..pos.wrapping_add(src.len())) {
                copy(dst, src);
                self.st.hot.pos = pos + src.len();
                return Ok(());
            }
            if pos == 0 && self.keep_from() == usize::MAX {
                // Nothing is kept back (no MAP sorted on close is open):
                // the bytes go straight to the sink.
                self.call_sink(src)?;
                self.st.flushed += n;
                return Ok(());
            }
        }
        self.overflow(n);
        Ok(())
    }

    /// Counts `n` bytes that are not written: count-only, or out of room.
    #[cold]
    fn overflow(&mut self, n: u64) {
        self.st.over = self.st.over.saturating_add(n);
        if self.st.flags & (W_COUNT | W_ROOM) == 0 {
            if self.st.err == 0 {
                self.st.err = Error::NoMem.code();
            }
            self.st.flags |= W_ROOM;
            self.st.hot.lim = 0;
            if self.keys.is_empty() {
                self.keys_into_buffer();
            }
            // What was written is counted, no longer in the buffer.
            self.st.over = self.st.over.saturating_add(self.st.hot.pos as u64);
            self.st.hot.pos = 0;
        }
    }

    /// Out of room without a key area: the buffer's bytes are no use any
    /// more, so the buffer becomes the key area and key order stays
    /// checked. The open MAPs' previous keys move to its start, outermost
    /// first (each one lies after the ones before it, so the copy moves
    /// bytes forward only).
    fn keys_into_buffer(&mut self) {
        let mut top = 0usize;
        for j in 0..self.st.hot.depth as usize {
            let (t, key, len) = self.container(j);
            if !is_map(t) {
                continue;
            }
            let (slot, len) = if t & SORTED == 0 && key >= top {
                for i in 0..len {
                    let b = self.buf.get(key + i).copied().unwrap_or(0);
                    if let Some(d) = self.buf.get_mut(top + i) {
                        *d = b;
                    }
                }
                (top, len)
            } else {
                (top, 0)
            };
            self.set_container_key(j, slot, len);
            top = slot + len;
        }
        self.st.keys_top = top as u64;
        self.st.flags |= W_BUF_KEYS;
    }

    /// Before an atom written in pieces: whether to write them, or (when
    /// the buffer cannot take the whole atom and nothing flushes it) only
    /// count its `n` bytes, so that the buffer never ends inside an atom.
    #[inline(always)]
    pub(super) fn whole(&mut self, n: usize) -> bool {
        if self.st.flags & (W_ROOM | W_COUNT) == 0
            && (self.sink.is_some() || n <= self.buf.len().saturating_sub(self.st.hot.pos))
        {
            return true;
        }
        self.overflow(n as u64);
        false
    }

    fn call_sink(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if bytes.is_empty() {
            return Ok(());
        }
        let r = match self.sink.as_mut() {
            Some(sink) => sink(bytes),
            None => Ok(()),
        };
        self.check(r)
    }

    /// Buffer offset below which the buffer may be flushed: the first byte
    /// an open MAP still needs (its previous key when kept in the buffer,
    /// or the whole of a MAP sorted on close).
    fn keep_from(&self) -> usize {
        let area = !self.keys.is_empty();
        let mut keep = usize::MAX;
        for j in 0..self.st.hot.depth as usize {
            let (t, key, len) = self.container(j);
            if t & SORTED != 0 {
                let own = self.levels.get(j).map_or(0, |l| l.own);
                let at = own.saturating_sub(self.st.flushed);
                return keep.min(usize::try_from(at).unwrap_or(usize::MAX));
            }
            if is_map(t) && !area && len > 0 {
                keep = keep.min(key);
            }
        }
        keep
    }

    /// The grammar state, previous key and its length of open container
    /// `j` (0 the outermost).
    fn container(&self, j: usize) -> (u32, usize, usize) {
        if j + 1 >= self.st.hot.depth as usize {
            let h = &self.st.hot;
            return (h.top, h.key, h.key_len);
        }
        let l = self.levels.get(j + 1).copied().unwrap_or_default();
        (l.top, l.key as usize, l.key_len as usize)
    }

    /// Sets the previous key of open container `j`.
    fn set_container_key(&mut self, j: usize, key: usize, len: usize) {
        if j + 1 >= self.st.hot.depth as usize {
            self.st.hot.key = key;
            self.st.hot.key_len = len;
        } else if let Some(l) = self.levels.get_mut(j + 1) {
            l.key = key as u64;
            l.key_len = len as u32;
        }
    }

    /// Hands the buffered bytes that no open MAP needs to the sink and moves
    /// the rest to the buffer's start.
    pub(super) fn flush_some(&mut self) -> Result<(), Error> {
        let pos = self.st.hot.pos;
        let n = self.keep_from().min(pos);
        if n == 0 {
            return Ok(());
        }
        // The slice is taken apart from `self` for the call.
        let buf = core::mem::take(&mut self.buf);
        let r = self.call_sink(buf.get(..n).unwrap_or(&[]));
        self.buf = buf;
        r?;
        // The rest moves to the front (a rotation that cannot panic).
        if let Some(b) = self.buf.get_mut(..pos) {
            swap_parts(b, n);
        }
        self.st.hot.pos = pos - n;
        self.st.flushed += n as u64;
        // The previous keys kept in the buffer moved with it: those of
        // sorted MAPs always, the others when there is no key area.
        for j in 0..self.st.hot.depth as usize {
            let (t, key, len) = self.container(j);
            let in_buffer = t & SORTED != 0 || self.keys.is_empty();
            if is_map(t) && in_buffer && len > 0 {
                self.set_container_key(j, key.saturating_sub(n), len);
            }
        }
        Ok(())
    }
}
