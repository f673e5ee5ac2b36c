//! `make install` as a C user runs it: installs into a temporary prefix,
//! then builds `tests/install/use_yac.c` with nothing but what
//! `pkg-config --cflags --libs yac` says (linked to libyac.so, run with
//! LD_LIBRARY_PATH) and `pkg-config --static --cflags --libs yac` (a fully
//! static program), and runs both. Also: the soname, the exported symbols
//! (exactly the header's functions), DESTDIR staging, `make install-cli`
//! and `make uninstall`.
//!
//! Needs GNU make, pkg-config and binutils (readelf, nm); .ci/run installs
//! them.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{self, C_FLAGS};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The soname's version: the 0.x minor until 1.0, the major after (the
/// ABI policy of the Makefile and CHANGELOG.md).
fn abi() -> String {
    let mut parts = VERSION.split('.');
    let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
    if major == "0" {
        format!("0.{minor}")
    } else {
        major.to_string()
    }
}

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(native::run(cmd).stdout).unwrap()
}

/// `pkg-config ARGS yac`, seeing only the temporary prefix's .pc files.
fn pkg_config(pcdir: &Path, args: &[&str]) -> Vec<String> {
    let out = stdout(
        Command::new("pkg-config")
            .env("PKG_CONFIG_LIBDIR", pcdir)
            .env_remove("PKG_CONFIG_PATH")
            .args(args)
            .arg("yac"),
    );
    out.split_whitespace().map(String::from).collect()
}

/// Every function the header declares.
fn header_functions() -> BTreeSet<String> {
    let h = fs::read_to_string(native::manifest_dir().join("include/yac.h")).unwrap();
    h.lines()
        .filter(|l| !l.starts_with('/') && !l.starts_with(' ') && !l.starts_with('#'))
        // Inline functions and macro uses (layout checks) are not exports.
        .filter(|l| !l.starts_with("static ") && !l.starts_with("YAC_"))
        .filter_map(|l| {
            let open = l.find('(')?;
            let name = l[..open].rsplit([' ', '*']).next()?;
            name.starts_with("YAC").then(|| name.to_string())
        })
        .collect()
}

fn needed_libs(exe: &Path) -> String {
    stdout(Command::new("readelf").arg("-d").arg(exe))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = native::target_dir().join("install-test").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn make_install_then_build_with_pkg_config() {
    // The Makefile builds for the host; under `cargo test --target T` the
    // C compiler would link T's programs against the host library.
    if native::cross() {
        eprintln!("make install is checked in the host run only");
        return;
    }
    let prefix = fresh_dir("prefix");
    let prefix_arg = format!("PREFIX={}", prefix.display());
    native::make(&["install", &prefix_arg]);

    let lib = prefix.join("lib");
    let so = format!("libyac.so.{VERSION}");
    for f in [
        "libyac.a",
        &so,
        "pkgconfig/yac.pc",
        "cmake/yac/yacConfig.cmake",
        "cmake/yac/yacConfigVersion.cmake",
    ] {
        assert!(lib.join(f).is_file(), "{f} installed");
    }
    let link = |name: &str| fs::read_link(lib.join(name)).unwrap();
    let soname = format!("libyac.so.{}", abi());
    assert_eq!(link(&soname), PathBuf::from(&so));
    assert_eq!(link("libyac.so"), PathBuf::from(&soname));
    assert_eq!(
        fs::read(prefix.join("include/yac.h")).unwrap(),
        fs::read(native::manifest_dir().join("include/yac.h")).unwrap()
    );

    // The soname names the ABI: 0.MINOR before 1.0.
    let dynamic = needed_libs(&lib.join(&so));
    assert!(
        dynamic.contains(&format!("Library soname: [{soname}]")),
        "{dynamic}"
    );

    // The shared library exports the C API and nothing else.
    let nm = stdout(
        Command::new("nm")
            .args(["-D", "--defined-only", "--format=posix"])
            .arg(lib.join(&so)),
    );
    let exported: BTreeSet<String> = nm
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|s| s.split('@').next().unwrap().to_string())
        .collect();
    assert_eq!(exported, header_functions(), "exports == header functions");
    assert!(exported.contains("YACVersion"));

    let pcdir = lib.join("pkgconfig");
    assert_eq!(pkg_config(&pcdir, &["--modversion"]), [VERSION]);
    let src = native::manifest_dir().join("tests/install/use_yac.c");
    let out = native::c_out_dir();

    // Shared: exactly `pkg-config --cflags --libs yac`.
    let shared = out.join("install_shared");
    let flags = pkg_config(&pcdir, &["--cflags", "--libs"]);
    native::run(
        native::compiler(false)
            .args(C_FLAGS)
            .arg(&src)
            .args(&flags)
            .arg("-o")
            .arg(&shared),
    );
    assert!(needed_libs(&shared).contains(&format!("[{soname}]")));
    let ran = stdout(Command::new(&shared).env("LD_LIBRARY_PATH", &lib));
    assert_eq!(ran, format!("libyac {VERSION} ok\n"));

    // Static: `pkg-config --static --cflags --libs yac`, linked with
    // -static so that libyac.a is chosen over libyac.so; the program needs
    // no shared library at all.
    let stat = out.join("install_static");
    let flags = pkg_config(&pcdir, &["--static", "--cflags", "--libs"]);
    assert!(flags.iter().any(|f| f == "-lpthread"), "{flags:?}");
    native::run(
        native::compiler(false)
            .args(C_FLAGS)
            .arg(&src)
            .args(&flags)
            .arg("-static")
            .arg("-o")
            .arg(&stat),
    );
    assert!(!needed_libs(&stat).contains("NEEDED"));
    let ran = stdout(Command::new(&stat).env_remove("LD_LIBRARY_PATH"));
    assert_eq!(ran, format!("libyac {VERSION} ok\n"));

    // Staged install: files under DESTDIR, paths in yac.pc without it.
    let stage = fresh_dir("stage");
    let destdir = format!("DESTDIR={}", stage.display());
    native::make(&["install", "install-cli", "PREFIX=/opt/yac", &destdir]);
    let staged = stage.join("opt/yac");
    let pc = fs::read_to_string(staged.join("lib/pkgconfig/yac.pc")).unwrap();
    assert!(pc.contains("prefix=/opt/yac\n") && pc.contains("libdir=/opt/yac/lib\n"));
    assert!(!pc.contains(&stage.display().to_string()));
    let cli = staged.join("bin/yac");
    let help = stdout(Command::new(&cli).arg("--help"));
    assert!(help.starts_with("usage: yac"), "{help}");

    // Uninstall removes every installed file.
    native::make(&["uninstall", "PREFIX=/opt/yac", &destdir]);
    native::make(&["uninstall", &prefix_arg]);
    for root in [&prefix, &staged] {
        let left: Vec<_> = walk_files(root);
        assert!(left.is_empty(), "left after uninstall: {left:?}");
    }
}

/// Files and symlinks (not directories) under `dir`.
fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() && !p.is_symlink() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}
