//! Documentation checks: every declaration of the public header carries a
//! doc comment (the Rust doc comments cbindgen copies), the README and the
//! guides under docs/ show the commands that exist, and their C programs
//! run.

mod common;

use std::path::PathBuf;

use common::native;

fn read(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The first line of every top-level declaration in `yac.h` (functions,
/// structs, unions, enums, typedefs) with the line before it.
fn declarations(header: &str) -> Vec<(&str, &str)> {
    let lines: Vec<&str> = header.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let top = !line.is_empty() && !line.starts_with([' ', '#', '/', '}', '*']);
        let is_decl = line.contains('(')
            || line.starts_with("struct ")
            || line.starts_with("union ")
            || line.starts_with("enum ")
            || line.starts_with("typedef ");
        // The layout checks are assertions, not declarations.
        let check = line.starts_with("YAC_LAYOUT_CHECK(");
        if top && is_decl && !check && !line.starts_with("extern \"C\"") {
            out.push((*line, if i > 0 { lines[i - 1] } else { "" }));
        }
    }
    out
}

#[test]
fn every_header_declaration_is_documented() {
    let header = read("include/yac.h");
    let decls = declarations(&header);
    assert!(decls.len() > 60, "found only {} declarations", decls.len());
    let documented = |before: &str| before.starts_with("//") || before.ends_with("*/");
    // `typedef uint32_t YACErr;` is the C type of the documented
    // `enum YACErr` just above it (cbindgen guards it for C++).
    let enum_documented = |line: &str| {
        let name = line
            .strip_prefix("typedef uint32_t ")
            .and_then(|r| r.strip_suffix(';'));
        name.is_some_and(|n| {
            let def = format!("enum {n}");
            decls.iter().any(|(l, b)| *l == def && documented(b))
        })
    };
    let undocumented: Vec<&str> = decls
        .iter()
        .filter(|(line, before)| !documented(before) && !enum_documented(line))
        .map(|(line, _)| *line)
        .collect();
    assert!(undocumented.is_empty(), "no doc comment: {undocumented:#?}");
    // Functions say what they do with their pointers.
    let functions = decls
        .iter()
        .filter(|(l, _)| l.contains('(') && !l.starts_with("typedef"));
    for (line, _) in functions.filter(|(l, _)| l.contains('*')) {
        let at = header.find(line).unwrap();
        let doc_start = header[..at].rfind("\n\n").unwrap_or(0);
        let doc = &header[doc_start..at];
        assert!(
            doc.contains("# Safety")
                || doc.contains("Pointers:")
                || doc.contains("static")
                || doc.contains("free"),
            "{line}: no pointer contract in its comment"
        );
    }
}

#[test]
fn docs_cover_the_tools_and_the_api() {
    for (file, needles) in [
        (
            "docs/install.md",
            &[
                "make install PREFIX=",
                "pkg-config --cflags --libs yac",
                "pkg-config --static",
                "YACVersion",
            ][..],
        ),
        (
            "docs/cli.md",
            &[
                "yac print",
                "yac atoms",
                "yac check",
                "yac to-json",
                "yac from-json",
            ],
        ),
        (
            "docs/c-guide.md",
            &["YACItemsNodesNeeded", "YACItemsInsertAfter"],
        ),
        ("docs/porting.md", &["cyac"]),
    ] {
        let text = read(file);
        for needle in needles {
            assert!(text.contains(needle), "{file} lacks {needle:?}");
        }
    }
    // Every special JSON form the tool reads is documented.
    let convert = read("cli/src/convert.rs");
    let cli = read("docs/cli.md");
    for form in [
        "$bin", "$hexlet", "$tai64", "$float", "$magic", "$blob", "$map",
    ] {
        assert!(
            convert.contains(&format!("\"{form}\"")),
            "{form} in convert.rs"
        );
        assert!(
            cli.contains(&format!("\"{form}\"")),
            "docs/cli.md lacks {form}"
        );
    }
}

/// Every fenced block of `text` as (info string, body).
fn fenced_blocks(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(eol) = after.find('\n') else { break };
        let info = &after[..eol];
        let body_start = &after[eol + 1..];
        let Some(close) = body_start.find("\n```") else {
            break;
        };
        out.push((info.trim(), &body_start[..close + 1]));
        rest = &body_start[close + 4..];
    }
    out
}

/// Every complete C program of the README and the guides (a ```c block
/// with `main`) compiles with the strict flags against the release
/// `libyac.a`, runs successfully, and prints what the ```text block right
/// after it shows.
#[test]
fn doc_c_programs_run() {
    let dir = native::c_out_dir();
    let lib = native::build_release_lib(&native::target_dir(), &[]);
    let mut total = 0;
    for file in ["README.md", "docs/c-guide.md", "docs/porting.md"] {
        let text = read(file);
        let blocks = fenced_blocks(&text);
        let programs: Vec<usize> = (0..blocks.len())
            .filter(|&i| blocks[i].0 == "c" && blocks[i].1.contains("int main(void)"))
            .collect();
        assert!(!programs.is_empty(), "{file} has a C program");
        if file == "README.md" {
            // tests/example.rs runs the first ```c block as the quick-start.
            let first_c = blocks.iter().position(|b| b.0 == "c");
            assert_eq!(
                first_c,
                programs.first().copied(),
                "the first C block is a program"
            );
        }
        let stem = file.trim_end_matches(".md").replace('/', "_");
        for (n, &i) in programs.iter().enumerate() {
            let name = format!("{stem}_program_{n}");
            let src = dir.join(format!("{name}.c"));
            std::fs::write(&src, blocks[i].1).unwrap();
            let exe = native::build_c_program(&src, &[], &lib, &[], &dir.join(&name));
            let out = native::run(&mut std::process::Command::new(&exe));
            // The output block must follow the program directly.
            let body_end = text.find(blocks[i].1).unwrap() + blocks[i].1.len() + 3;
            let next_text = text[body_end..].trim_start().starts_with("```text");
            if next_text {
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    blocks[i + 1].1,
                    "{name}"
                );
            }
            total += 1;
        }
    }
    assert!(
        total >= 5,
        "the quick-start, the guide's and cyac's programs"
    );
}

/// The `keks` crate as crates.io would get it (`cargo package --list`,
/// offline, no build): the library, its README and both license files,
/// and nothing of the workspace's C side. `cargo publish --dry-run -p keks`
/// (which needs the registry) runs in .ci/run.
#[test]
fn keks_package_holds_what_crates_io_needs() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "package",
            "-p",
            "keks",
            "--list",
            "--offline",
            "--allow-dirty",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo package --list: {stderr}");
    let files = String::from_utf8(out.stdout).unwrap();
    let files: Vec<&str> = files.lines().collect();
    for needed in [
        "Cargo.toml",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/lib.rs",
        "src/serde/mod.rs",
        "src/serde/mapping.md",
    ] {
        assert!(
            files.contains(&needed),
            "the package lacks {needed}: {files:?}"
        );
    }
    assert!(
        files
            .iter()
            .all(|f| !f.ends_with(".c") && !f.ends_with(".h")),
        "C files in the package: {files:?}"
    );
    // The crate README is written for crates.io: it names the crate.
    let readme = read("yac/README.md");
    assert!(readme.contains("keks = { version = "), "yac/README.md");
}

/// docs/rust.md shows the serde data model table of the crate's docs
/// (yac/src/serde/mapping.md, which yac/tests/serde_mapping.rs checks row
/// by row) word for word.
#[test]
fn rust_guide_has_the_crate_mapping_table() {
    let table = read("yac/src/serde/mapping.md");
    let guide = read("docs/rust.md");
    assert!(
        guide.contains(table.trim()),
        "docs/rust.md: copy yac/src/serde/mapping.md"
    );
}
