//! `c-tests/test_refusals.c` (run by tests/c_api.rs) makes every call the
//! header declares refuse, and checks that the refusal changed nothing:
//! this test keeps that list complete. Every function prototype of
//! `include/yac.h` (the inline helpers excepted: they are C code in the
//! header, not library calls) must appear there in `REFUSED(name, ...)`,
//! or, for a call without an error result, in `READS(name, ...)` or
//! `reads("name")`.

use std::path::Path;

/// The names of the functions `header` declares (not defines inline).
fn declared(header: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for line in header.lines() {
        let starts_decl = line.starts_with(|c: char| c.is_ascii_alphabetic())
            && !line.starts_with("static")
            && !line.starts_with("typedef")
            && !line.starts_with("struct")
            && !line.starts_with("enum")
            && !line.starts_with("YAC_");
        if !starts_decl {
            continue;
        }
        let Some(open) = line.find('(') else { continue };
        let before = line.get(..open).unwrap_or("");
        let name = before
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if name.starts_with("YAC") {
            names.push(name);
        }
    }
    names
}

#[test]
fn every_declared_call_is_made_to_refuse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = std::fs::read_to_string(root.join("include/yac.h")).expect("include/yac.h");
    let test = std::fs::read_to_string(root.join("c-tests/test_refusals.c"))
        .expect("c-tests/test_refusals.c");
    let names = declared(&header);
    assert!(names.len() > 100, "the prototypes were found: {names:?}");
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| {
            ![
                format!("REFUSED({n},"),
                format!("READS({n},"),
                format!("reads(\"{n}\")"),
                format!("IN_MAP(m, {n},"),
            ]
            .iter()
            .any(|pat| test.contains(pat.as_str()))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "calls never made to refuse in c-tests/test_refusals.c: {missing:?}"
    );
}
