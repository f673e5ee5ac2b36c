//! The release archive for C users: `dist/build.sh` (what `make dist`
//! runs) builds it, and `tests/dist/check.sh` unpacks it and builds and
//! runs the C examples from it alone, with no cargo or rustc on the PATH:
//! on the host (static, size-first, shared through pkg-config), i686
//! (-m32), aarch64 (qemu-aarch64), and every Cortex-M library under
//! qemu-system-arm (M0, M3, M4 soft and softfp, M4F, M7F, M33, M33F), each
//! printing what the host printed.
//!
//! Every target and both builds by default; `DIST_TARGETS` and
//! `DIST_BUILDS` (see dist/build.sh) choose a subset. Under CI (`CI` set)
//! the subset is the default build of every target (`DIST_BUILDS=default`,
//! unless set): the size-first libraries are another seven LTO builds,
//! and that build is what `tests/embedded.rs` runs on the Cortex-M0 and
//! `cargo test -p keks --features size-first` on the host. Needs the targets
//! and tools `embedded/setup.sh` installs; skipped with a message without
//! them unless `CI` is set.

mod common;

use std::process::Command;

use common::native;

#[test]
fn release_archive_builds_and_runs_on_every_target() {
    // One archive, built and checked in the host run.
    if native::cross() {
        return;
    }
    let tools = [
        "make",
        "pkg-config",
        "readelf",
        "arm-none-eabi-gcc",
        "qemu-system-arm",
        "aarch64-linux-gnu-gcc",
        "qemu-aarch64",
    ];
    if !native::tools_present("dist", &tools) {
        return;
    }
    let root = native::manifest_dir();
    let builds = match std::env::var("DIST_BUILDS") {
        Ok(b) => b,
        Err(_) if std::env::var_os("CI").is_some() => "default".into(),
        Err(_) => "default size-first".into(),
    };
    let out = native::run(
        Command::new(root.join("dist/build.sh"))
            .env("CARGO_TARGET_DIR", native::target_dir())
            .env("DIST_BUILDS", &builds)
            .env_remove("CARGO_BUILD_TARGET"),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let archive = stdout.lines().last().expect("the archive's path");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        archive.ends_with(&format!("/libyac-{version}.tar.gz")),
        "{archive}"
    );

    let work = native::target_dir().join("dist-test");
    let checked = native::run(
        Command::new("bash")
            .arg(root.join("tests/dist/check.sh"))
            .arg(archive)
            .arg(&work)
            .arg(root.join("embedded")),
    );
    let report = String::from_utf8_lossy(&checked.stdout);
    println!("{report}");
    assert!(report.contains(" passed, 0 failed"), "{report}");

    // Every library of the archive was run: each target's default and
    // size-first builds, unless a subset was asked for.
    if std::env::var_os("DIST_TARGETS").is_none() {
        let list = std::fs::read_to_string(root.join("dist/targets")).unwrap();
        for line in list
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let dir = line.split_whitespace().nth(1).expect("RUST_TARGET DIR");
            for build in builds.split_whitespace() {
                let want = format!("ok   {dir} {build}");
                assert!(report.contains(&want), "no {want:?} in:\n{report}");
            }
        }
    }
}
