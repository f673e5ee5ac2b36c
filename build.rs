//! Generates the C header from the C API's sources (the `yac-capi` crate,
//! capi/, and the core types it names from yac/) with cbindgen, into
//! `OUT_DIR/yac.h` only (a build script must not write into the source
//! tree; `cargo publish` rejects one that does). The committed
//! `include/yac.h`, what C users and the C tests compile against, is kept
//! equal to it by the test `committed_header_is_the_generated_one`
//! (tests/header.rs), which also refreshes it when run with `UPDATE_HEADER=1`:
//!
//!     UPDATE_HEADER=1 cargo test -p libyac --test header

use std::env;
use std::path::PathBuf;

fn main() {
    let crate_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The C API is the capi crate's; this package's own src/ only wraps it.
    let capi_dir = crate_dir.join("capi");
    println!("cargo:rerun-if-changed=capi/src");
    // The core types of the C API (struct YACItem, ...) are the yac crate's.
    println!("cargo:rerun-if-changed=yac/src");
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
        hand_written_parts(&capi_dir.join("src/ffi/header"))
    ));

    let bindings = match cbindgen::Builder::new()
        .with_crate(&capi_dir)
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
}

/// The header's hand-written C (layout checks, inline readers): every `.h`
/// file of `dir`, in name order, appended after the generated
/// declarations. They are C only, so cbindgen cannot write them.
fn hand_written_parts(dir: &std::path::Path) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("capi/src/ffi/header exists")
        .map(|e| e.expect("capi/src/ffi/header is readable").path())
        .filter(|p| p.extension().is_some_and(|x| x == "h"))
        .collect();
    files.sort();
    let mut out = String::new();
    for f in files {
        out.push('\n');
        out.push_str(&std::fs::read_to_string(&f).expect("header part is readable"));
    }
    out
}
