//! Every writer call, in every mode, in lockstep: the same program of
//! calls (containers, every item type, BLOBs, sorted MAPs, keys in and out
//! of order, bad values, Finish in the middle) goes to a writer with a
//! large buffer, one with a small buffer (running out: `YACErrNoMem`), a
//! count-only one and a streaming one (a small buffer and a flush that may
//! fail). They must agree: the same result from every call (NoMem aside),
//! the same bytes from the streaming and the large writer, the same size
//! from all, and bytes that `YACValidate` accepts item by item.
#![no_main]

use std::ffi::{c_void, CString};
use std::ptr::null_mut;

use libfuzzer_sys::fuzz_target;
use yac::writer::Level;
use yac_capi::ffi::validate::YACValidate;
use yac_capi::ffi::writer::*;
use yac_capi::ffi::YACErr;
use yac_testkit::input::Input;

/// The streaming writer's flush: collects the bytes, or fails once the
/// given number of calls has been made.
struct Stream {
    out: Vec<u8>,
    calls: usize,
    fail_at: usize,
}

unsafe extern "C" fn flush(ctx: *mut c_void, buf: *const u8, len: usize) -> u32 {
    // SAFETY: `ctx` is the run's `Stream`; `buf` holds `len` bytes.
    let s = unsafe { &mut *ctx.cast::<Stream>() };
    s.calls += 1;
    if s.calls == s.fail_at {
        return YACErr::YACErrNoMem as u32;
    }
    assert!(len > 0, "empty flush");
    s.out
        .extend_from_slice(unsafe { std::slice::from_raw_parts(buf, len) });
    0
}

/// One writer and the memory it writes into.
struct W {
    w: Box<YACWriter>,
    buf: Vec<u8>,
    _levels: Vec<Level>,
    _keys: Vec<u8>,
}

const LEVELS: usize = 6;

fn writer(cap: Option<usize>, keys: usize) -> W {
    // SAFETY: plain words and pointers; YACWriterInit sets them.
    let mut w: Box<YACWriter> = Box::new(unsafe { std::mem::zeroed() });
    let mut buf = vec![0u8; cap.unwrap_or(0)];
    let mut levels: Vec<Level> = (0..LEVELS).map(|_| Level::default()).collect();
    let mut key_area = vec![0u8; keys];
    // SAFETY: every region is live for as long as the writer (owned by W).
    let e = unsafe {
        match cap {
            Some(c) => YACWriterInit(
                &mut *w,
                buf.as_mut_ptr(),
                c,
                levels.as_mut_ptr(),
                LEVELS,
                key_area.as_mut_ptr(),
                keys,
            ),
            None => YACWriterInitCount(
                &mut *w,
                levels.as_mut_ptr(),
                LEVELS,
                key_area.as_mut_ptr(),
                keys,
            ),
        }
    };
    assert_eq!(e, YACErr::YACErrNo);
    W {
        w,
        buf,
        _levels: levels,
        _keys: key_area,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let keys = inp.below(64);
    let small = inp.below(48);
    let mut big = writer(Some(1 << 14), keys);
    let mut tiny = writer(Some(small), keys);
    let mut count = writer(None, keys);
    let mut stream = writer(Some(1 + inp.below(16)), keys);
    let mut sink = Stream {
        out: Vec::new(),
        calls: 0,
        fail_at: if inp.byte() % 4 == 0 {
            1 + inp.below(8)
        } else {
            0
        },
    };
    // SAFETY: `sink` outlives the writer's use below.
    assert_eq!(
        unsafe {
            YACWriterSetFlush(
                &mut *stream.w,
                Some(flush),
                (&mut sink as *mut Stream).cast(),
            )
        },
        YACErr::YACErrNo
    );
    let mut steps = 0;
    while !inp.is_empty() && steps < 300 {
        steps += 1;
        let op = inp.byte() % 24;
        let bytes = inp.slice(24).to_vec();
        let (b, n) = (bytes.as_ptr(), bytes.len());
        let v = inp.u64() >> inp.below(64);
        let flag = inp.bool();
        let z = CString::new(
            bytes
                .iter()
                .copied()
                .filter(|&x| x != 0)
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        let mut lens = [0usize; 4];
        let mut results = [YACErr::YACErrNo; 4];
        for (k, wr) in [&mut big, &mut tiny, &mut count, &mut stream]
            .into_iter()
            .enumerate()
        {
            let w: *mut YACWriter = &mut *wr.w;
            // SAFETY: a live writer; byte arguments point at `bytes` or `z`.
            results[k] = unsafe {
                match op {
                    0 => YACWriterListOpen(w),
                    1 => YACWriterMapOpen(w),
                    2 => YACWriterMapOpenSorted(w),
                    3 => YACWriterListClose(w),
                    4 => YACWriterMapClose(w),
                    5 => YACWriterNIL(w),
                    6 => YACWriterBool(w, flag),
                    7 => YACWriterUint(w, v),
                    8 => YACWriterSint(w, v as i64),
                    9 => YACWriterBigint(w, flag, b, n),
                    10 => YACWriterFloat(w, f64::from_bits(v)),
                    11 => YACWriterFloatRaw(w, b, n),
                    12 => YACWriterTAI64(w, b, n),
                    13 => YACWriterUTC(w, v as i64 >> 8, v as u32 >> 2),
                    14 | 15 => YACWriterStr(w, b.cast(), if op == 14 { n } else { n.min(3) }),
                    16 => YACWriterStrZ(w, z.as_ptr()),
                    17 => YACWriterBin(w, b, n),
                    18 => YACWriterHexlet(w, if n >= 16 { b } else { std::ptr::null() }),
                    19 => YACWriterMagic(w, b, n),
                    20 => YACWriterBlobOpen(w, v % 8),
                    21 => YACWriterChunk(w, b, n),
                    22 => YACWriterBlob(w, 1 + v % 8, b, n),
                    _ => YACWriterFinish(w, &mut lens[k]),
                }
            };
            // SAFETY: as above.
            assert_eq!(
                unsafe { YACWriterError(w) },
                results[k],
                "op {op}: the result is the error"
            );
        }
        let [r_big, r_tiny, r_count, r_stream] = results;
        // A count-only writer has no bytes to read keys back from: it
        // checks key order only with a key area, and never sees duplicates
        // in a sorted MAP (the writer's docs). Every other result agrees.
        let count_blind = r_big == YACErr::YACErrMapUnordered && r_count == YACErr::YACErrNo;
        if !count_blind {
            assert_eq!(
                r_big, r_count,
                "op {op}: large buffer and count-only differ"
            );
        }
        // A streaming writer keeps an open MAP's last key (without a key
        // area) and every open sorted MAP in its small buffer, so it may
        // run out of room where the large one does not (the writer's docs,
        // "Where the previous MAP key is kept"): NoMem aside, as for the
        // small buffer.
        if sink.fail_at == 0 && r_stream != YACErr::YACErrNoMem {
            assert_eq!(
                r_big, r_stream,
                "op {op}: large buffer and streaming differ"
            );
        }
        if r_tiny != YACErr::YACErrNoMem {
            assert_eq!(r_big, r_tiny, "op {op}: large and small buffer differ");
        }
        if op == 23 && r_big == YACErr::YACErrNo {
            let total = lens[0];
            assert_eq!(lens[2], total, "count-only size");
            let doc = &big.buf[..total];
            if sink.fail_at == 0 && r_stream == YACErr::YACErrNo {
                assert_eq!(sink.out, doc, "streamed bytes");
            }
            if r_tiny == YACErr::YACErrNo {
                assert_eq!(&tiny.buf[..total], doc, "small buffer bytes");
            }
            // The document(s): one valid item after another.
            let mut off = 0usize;
            let mut levels = [0usize; 8];
            while off < doc.len() {
                let mut nodes = 0usize;
                // SAFETY: live buffers of the given sizes.
                let e = unsafe {
                    YACValidate(
                        &mut off,
                        &mut nodes,
                        levels.as_mut_ptr(),
                        levels.len(),
                        doc.as_ptr(),
                        doc.len(),
                        0,
                        0,
                    )
                };
                assert_eq!(
                    e,
                    YACErr::YACErrNo,
                    "the writer's output does not validate at {off}"
                );
            }
        }
        if r_big != YACErr::YACErrNo {
            break;
        }
    }
    let _ = null_mut::<u8>();
});
