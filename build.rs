//! Generates `include/yac.h` from the Rust sources with cbindgen.
//!
//! The header is written twice: into `OUT_DIR` (what the tests compare the
//! committed header against) and into `include/yac.h` (what C users and the
//! C tests compile against). A stale committed header is caught by the test
//! `header_is_committed`, which diffs the fresh one against `git HEAD`.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let crate_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
    // The C tests compile with the `cc` crate, which needs the triples that
    // only build scripts are told.
    for var in ["TARGET", "HOST"] {
        let triple = env::var(var).expect("cargo sets TARGET and HOST");
        println!("cargo:rustc-env=YAC_BUILD_{var}={triple}");
    }

    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is valid");
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let mut parts = version.split('.');
    let mut next = || parts.next().unwrap_or("0").to_string();
    let (major, minor, patch) = (next(), next(), next());
    let mut config = config;
    config.after_includes = Some(format!(
        "\n#define YAC_VERSION_MAJOR {major}\n#define YAC_VERSION_MINOR {minor}\n#define YAC_VERSION_PATCH {patch}\n#define YAC_VERSION \"{version}\"\n\n/* Node index meaning \"no node\" (no child, sibling or parent). */\n#define YACItemNone UINT32_MAX\n/* `next` of a node that is linked nowhere (new, removed, or a root). */\n#define YACItemUnlinked (UINT32_MAX - 1)\n"
    ));

    config.trailer = Some(format!(
        "{}\n#endif /* YAC_H */",
        hand_written_parts(&crate_dir.join("src/ffi/header"))
    ));

    let bindings = match cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
    {
        Ok(b) => b,
        Err(e) => {
            // A half-edited source tree must not break `cargo check`; the
            // header test will report the missing header instead.
            println!("cargo:warning=cbindgen could not generate yac.h: {e}");
            return;
        }
    };
    let generated = out_dir.join("yac.h");
    bindings.write_to_file(&generated);
    println!(
        "cargo:rustc-env=YAC_GENERATED_HEADER={}",
        generated.display()
    );

    let committed = crate_dir.join("include").join("yac.h");
    let fresh = fs::read(&generated).expect("header was just written");
    if fs::read(&committed).ok().as_deref() != Some(&fresh[..]) {
        fs::create_dir_all(crate_dir.join("include")).expect("include/ can be created");
        fs::write(&committed, &fresh).expect("include/yac.h is writable");
    }
}

/// The header's hand-written C (layout checks, inline readers): every `.h`
/// file of `dir`, in name order, appended after the generated
/// declarations. They are C only, so cbindgen cannot write them.
fn hand_written_parts(dir: &std::path::Path) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("src/ffi/header exists")
        .map(|e| e.expect("src/ffi/header is readable").path())
        .filter(|p| p.extension().is_some_and(|x| x == "h"))
        .collect();
    files.sort();
    let mut out = String::new();
    for f in files {
        out.push('\n');
        out.push_str(&fs::read_to_string(&f).expect("header part is readable"));
    }
    out
}
