//! Random call sequences on a tree, checked against a model:
//! from the input, a region of documents, a pool size, then up to 128
//! calls — add, insert_after, prepend, remove, replace, map_set,
//! map_remove, set_value, cursors (first, end, after, next, insert,
//! remove, replace, map_append), incremental parses of the documents cut
//! anywhere (resumed, resumed wrongly, aborted), clear, encode and walk —
//! with indices picked among the model's (children, unlinked nodes,
//! containers) or stale, foreign and out of range. After every call the
//! tree must agree with the model node for node and `Items::check` must
//! pass; a failed call must have changed nothing; whatever encodes must
//! re-parse to the same bytes. See yac_testkit::edits (the test
//! `edit_sequences` of the yac crate runs the same programs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| yac_testkit::edits::run(data));
