//! The core's modules stand on each other in floors (the crate docs list
//! them): no import circle between the top-level modules of `src/`, and no
//! module outside the tree reaches into `items` (the tree is a user of the
//! rules, not their home); inside a split module, no circle between its
//! files either. Read from the sources, so a new `use` that
//! breaks the order fails here rather than in a review.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Top-level module name -> the crate modules its non-test code names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || is_test_file(rel) {
            continue;
        }
        let code = code_only(&fs::read_to_string(&file).unwrap());
        let names = graph.entry(top.clone()).or_default();
        for module in crate_paths(&code) {
            if module != top {
                names.insert(module);
            }
        }
    }
    graph
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Files compiled only for the crate's own unit tests.
fn is_test_file(rel: &Path) -> bool {
    let s = rel.to_str().unwrap();
    s.contains("/tests/") || s.ends_with("tests.rs") || s.ends_with("encode_ref.rs")
}

/// The source without comments and without its `#[cfg(test)] mod tests`
/// block (which by convention ends the file; `cfg(all(test, ...))` too).
fn code_only(src: &str) -> String {
    let body = ["#[cfg(test)]\nmod tests", "#[cfg(all(test"]
        .iter()
        .filter_map(|cut| src.find(cut))
        .min()
        .map_or(src, |end| &src[..end]);
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::name` and every lowercase name in `use crate::{...}`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    names_after(code, "crate::")
}

/// Every lowercase name that follows `prefix` (`crate::`, `super::`), alone
/// or in a `{...}` group.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if name.starts_with(|c: char| c.is_ascii_lowercase()) && name != "self" {
                    out.insert(name.to_string());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.insert(name);
            }
        }
    }
    out
}

/// A file's module path under `src/`: `items/parse.rs` is `[items, parse]`,
/// `atom/mod.rs` is `[atom]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut path: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_str()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// For each module with submodules (`ser`, `items`, ...): submodule ->
/// the sibling submodules its non-test code names (as `super::x` from a
/// file directly in it, or as `crate::module::x` from anywhere in it).
fn submodule_imports() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let path = module_path(rel);
        if path.len() < 2 || is_test_file(rel) {
            continue;
        }
        let (parent, sub) = (&path[0], &path[1]);
        let code = code_only(&fs::read_to_string(&file).unwrap());
        let mut names = names_after(&code, &format!("crate::{parent}::"));
        if path.len() == 2 {
            names.extend(names_after(&code, "super::"));
        }
        let graph = out.entry(parent.clone()).or_default();
        graph.entry(sub.clone()).or_default().extend(names);
    }
    // Only names that are sibling submodules are edges.
    for graph in out.values_mut() {
        let subs: BTreeSet<String> = graph.keys().cloned().collect();
        for (sub, names) in graph.iter_mut() {
            names.retain(|n| n != sub && subs.contains(n));
        }
    }
    out
}

/// The pairs (a, b) where a names b and b reaches a.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    graph
        .iter()
        .flat_map(|(a, bs)| bs.iter().map(move |b| (a.clone(), b.clone())))
        .filter(|(a, b)| reaches(graph, b, a))
        .collect()
}

fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    false
}

#[test]
fn no_import_circle_between_modules() {
    let graph = imports();
    assert!(graph.contains_key("items") && graph.contains_key("rules"));
    let circles = circles(&graph);
    assert!(circles.is_empty(), "import circles: {circles:?}");
}

/// The same inside each split module: its files do not import each other
/// in a circle (a parent's `mod.rs` and its children may, as Rust's
/// `super::` use of the parent's types requires).
#[test]
fn no_import_circle_between_submodules() {
    let all = submodule_imports();
    assert!(all.contains_key("ser") && all["items"].contains_key("parse"));
    for (parent, graph) in &all {
        let circles = circles(graph);
        assert!(
            circles.is_empty(),
            "import circles in {parent}/: {circles:?}"
        );
    }
}

#[test]
fn the_submodule_scan_sees_sibling_imports() {
    let code = code_only("use super::map::MapSer;\nuse super::{Error, store::put};\n");
    let names: Vec<_> = names_after(&code, "super::").into_iter().collect();
    assert_eq!(names, ["map", "store"]);
    assert_eq!(module_path(Path::new("ser/key.rs")), ["ser", "key"]);
    assert_eq!(module_path(Path::new("atom/mod.rs")), ["atom"]);
    let graph = BTreeMap::from([
        ("key".to_string(), BTreeSet::from(["map".to_string()])),
        ("map".to_string(), BTreeSet::from(["key".to_string()])),
    ]);
    assert_eq!(circles(&graph).len(), 2);
}

#[test]
fn only_the_tree_imports_the_tree() {
    let graph = imports();
    let users: Vec<_> = graph
        .iter()
        .filter(|(m, names)| m.as_str() != "items" && names.contains("items"))
        .map(|(m, _)| m.clone())
        .collect();
    assert!(users.is_empty(), "modules importing items: {users:?}");
}

#[test]
fn the_rules_stand_on_errors_alone() {
    let graph = imports();
    let rules: Vec<_> = graph["rules"].iter().cloned().collect();
    assert_eq!(rules, ["error"]);
}

#[test]
fn the_scanner_sees_imports() {
    let names = crate_paths(&code_only(
        "use crate::{atom::tag, rules};\n// crate::items\nfn f() { crate::utf8::check(); }\n",
    ));
    let names: Vec<_> = names.into_iter().collect();
    assert_eq!(names, ["atom", "rules", "utf8"]);
}

#[test]
fn the_grammar_stands_below_its_users() {
    let graph = imports();
    let below = ["atom", "enc", "error", "rules"];
    let above: Vec<_> = graph["grammar"]
        .iter()
        .filter(|m| !below.contains(&m.as_str()))
        .cloned()
        .collect();
    assert!(above.is_empty(), "grammar imports {above:?}");
}

/// The non-test files of `src/` (paths relative to it) whose code names
/// any of `errors`, but for error.rs (which names them all), the grammar
/// (which decides them) and the files of `home` (the grammar's own rules).
fn deciders(errors: &[&str], home: &[&str]) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let skip = ["error.rs", "grammar.rs"].iter().chain(home);
        if is_test_file(rel) || skip.into_iter().any(|f| rel == Path::new(f)) {
            continue;
        }
        let code = code_only(&fs::read_to_string(&file).unwrap());
        if errors.iter().any(|e| code.contains(&format!("Error::{e}"))) {
            out.push(rel.to_path_buf());
        }
    }
    out.sort();
    out
}

#[test]
fn only_the_grammar_decides_map_keys() {
    let found = deciders(&["MapBadKey", "MapUnordered"], &[]);
    assert!(found.is_empty(), "MAP key errors made in {found:?}");
}

#[test]
fn only_the_grammar_decides_structure() {
    let found = deciders(
        &[
            "MapNoVal",
            "UnexpectedEoc",
            "BlobBadTerm",
            "WrongClose",
            "Unclosed",
            "SecondRoot",
        ],
        &[],
    );
    assert!(found.is_empty(), "structural errors made in {found:?}");
    // A chunk longer than its BLOB's chunk length: the chunk-fit rule,
    // which the grammar calls, stands in the rules module below it.
    let found = deciders(&["BlobBadChunk"], &["rules.rs"]);
    assert!(found.is_empty(), "BLOB chunk errors made in {found:?}");
}

#[test]
fn the_decider_scan_sees_errors() {
    let code = code_only("/// Error::SecondRoot\nfn f() -> Error { Error::WrongClose }\n");
    assert!(code.contains("Error::WrongClose") && !code.contains("SecondRoot"));
}
