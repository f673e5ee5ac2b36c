//! The public structs' layouts, asserted at compile time. The header
//! asserts the same numbers (`capi/src/ffi/header/layout.h`, appended to
//! `yac.h`), so a library and a header that disagree cannot both build.
//! One layout per pointer width: every field has a fixed width, and no C
//! enum type is part of any struct, out-parameter or return value.

use core::mem::{align_of, offset_of, size_of};

use super::atom::{YACAtom, YACAtomValue, YACBytes};
use super::builder::YACArena;
use super::cursor::YACCursor;
use super::items::{YACItems, YACWalk};
use super::writer::{YACWriter, YACWriterFailure};
use super::{YACErr, YACItemType};
use yac::items::{BuildLog, Cursor, FreeList, Item, ItemValue, Links, ParseState, WalkState};
use yac::writer::{Hot, Level};

/// `a` with 64-bit pointers, `b` with 32-bit ones (the header's `YAC_P64`).
const fn p64(a: usize, b: usize) -> usize {
    if size_of::<usize>() == 8 {
        a
    } else {
        b
    }
}

const _: () = {
    assert!(size_of::<usize>() == 8 || size_of::<usize>() == 4);
    assert!(size_of::<YACErr>() == 4 && size_of::<YACItemType>() == 4);
    assert!(size_of::<super::items::YACWalkEvent>() == 4);
    assert!(size_of::<YACBytes>() == p64(16, 8));
    assert!(offset_of!(YACBytes, len) == p64(8, 4));
    assert!(size_of::<YACAtomValue>() == p64(16, 8));
    assert!(size_of::<YACAtom>() == p64(24, 16));
    assert!(offset_of!(YACAtom, typ) == p64(16, 8));
    assert!(offset_of!(YACAtom, tag) == p64(20, 12));
    assert!(size_of::<Links>() == 8 && offset_of!(Links, parent) == 4);
    assert!(size_of::<ItemValue>() == 8);
    assert!(size_of::<Item>() == 16);
    assert!(offset_of!(Item, next) == 8 && offset_of!(Item, meta) == 12);
    assert!(size_of::<YACItems>() == p64(120, 108));
    assert!(offset_of!(YACItems, len) == p64(8, 4));
    assert!(offset_of!(YACItems, cap) == p64(12, 8));
    assert!(offset_of!(YACItems, maxDepth) == p64(16, 12));
    assert!(offset_of!(YACItems, flags) == p64(20, 16));
    assert!(offset_of!(YACItems, grow) == p64(24, 20));
    assert!(offset_of!(YACItems, growCtx) == p64(32, 24));
    assert!(offset_of!(YACItems, reserved) == p64(40, 28));
    assert!(size_of::<YACWalk>() == 32 && align_of::<YACWalk>() == 4);
    assert!(size_of::<YACCursor>() == 16 && align_of::<YACCursor>() == 4);
    assert!(size_of::<YACWriter>() == p64(192, 168));
    assert!(align_of::<YACWriter>() == align_of::<u64>());
    assert!(offset_of!(YACWriter, levels) == p64(8, 4));
    assert!(offset_of!(YACWriter, hot) == p64(16, 8));
    assert!(offset_of!(YACWriter, reserved) == p64(72, 48));
    assert!(size_of::<Hot>() == p64(56, 40));
    assert!(offset_of!(Hot, pos) == 8);
    assert!(offset_of!(Hot, lim) == p64(16, 12));
    assert!(offset_of!(Hot, key) == p64(24, 16));
    assert!(offset_of!(Hot, key_len) == p64(32, 20));
    assert!(offset_of!(Hot, top) == p64(40, 24));
    assert!(offset_of!(Hot, depth) == p64(44, 28));
    assert!(offset_of!(Hot, max_depth) == p64(48, 32));
    assert!(offset_of!(Hot, area) == p64(52, 36));
    assert!(size_of::<Level>() == 24);
    assert!(offset_of!(Level, key) == 8);
    assert!(offset_of!(Level, key_len) == 16 && offset_of!(Level, top) == 20);
    assert!(size_of::<YACWriterFailure>() == 24);
    assert!(offset_of!(YACWriterFailure, depth) == 16);
    assert!(size_of::<YACArena>() == p64(24, 12));
    assert!(offset_of!(YACArena, cap) == p64(8, 4));
    assert!(offset_of!(YACArena, len) == p64(16, 8));
    // The internal states fit their reserved words.
    assert!(
        ParseState::WORDS + FreeList::WORDS + BuildLog::WORDS <= 20
            && WalkState::WORDS <= 8
            && Cursor::WORDS == 4
    );
};
