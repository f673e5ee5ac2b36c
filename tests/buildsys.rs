//! The build-system routes of libyac, each tried by a small C project of
//! `tests/buildsys/` that builds `tests/install/use_yac.c` and runs it:
//! - CMake `find_package(yac CONFIG)` on a `make install` prefix, with the
//!   static library (`yac::yac`) and the shared one (`YAC_USE_SHARED`),
//!   and a version request the ABI policy refuses;
//! - CMake `FetchContent` of the checkout (the root `CMakeLists.txt`
//!   driving cargo);
//! - Meson `dependency('yac')` through pkg-config on the same prefix, and
//!   through a wrap-git subproject (the root `meson.build`).
//!
//! Needs cmake, meson, ninja, make, pkg-config and git (`embedded/setup.sh`);
//! skipped with a message without them unless `CI` is set.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::native;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A fresh directory under the target dir.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = native::target_dir().join("buildsys-test").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `make install` into a fresh prefix (the host build of `make`).
fn installed_prefix(name: &str) -> PathBuf {
    let prefix = fresh_dir(name);
    native::make(&["install", &format!("PREFIX={}", prefix.display())]);
    prefix
}

fn project(name: &str) -> PathBuf {
    native::manifest_dir().join("tests/buildsys").join(name)
}

/// Runs the built program; it must print the library's version line.
fn runs_ok(exe: &Path, lib_path: Option<&Path>) {
    let mut cmd = Command::new(exe);
    if let Some(dir) = lib_path {
        cmd.env("LD_LIBRARY_PATH", dir);
    }
    let out = native::run(&mut cmd);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("libyac {VERSION} ok\n")
    );
}

fn needed(exe: &Path) -> String {
    String::from_utf8_lossy(&native::run(Command::new("readelf").arg("-d").arg(exe)).stdout)
        .into_owned()
}

/// Configures and builds a CMake project; the configure step's output, or
/// `Err` with it when configuring fails.
fn cmake(src: &Path, build: &Path, defs: &[String]) -> Result<String, String> {
    let out = Command::new("cmake")
        .arg("-S")
        .arg(src)
        .arg("-B")
        .arg(build)
        .args(defs)
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .expect("cmake runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(text);
    }
    native::run(Command::new("cmake").arg("--build").arg(build));
    Ok(text)
}

fn skip(test: &str, tools: &[&str]) -> bool {
    native::cross() || !native::tools_present(test, tools)
}

#[test]
fn cmake_find_package_static_and_shared() {
    if skip("cmake find_package", &["cmake", "make", "readelf"]) {
        return;
    }
    let prefix = installed_prefix("cmake-prefix");
    let lib = prefix.join("lib");
    let minor = VERSION.split('.').take(2).collect::<Vec<_>>().join(".");
    let at = format!("-DCMAKE_PREFIX_PATH={}", prefix.display());

    let build = fresh_dir("cmake-static");
    cmake(
        &project("find_package"),
        &build,
        &[at.clone(), format!("-DYAC_WANT_VERSION={minor}")],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let exe = build.join("use_yac");
    assert!(
        !needed(&exe).contains("libyac"),
        "yac::yac is the static library"
    );
    runs_ok(&exe, None);

    let build = fresh_dir("cmake-shared");
    cmake(
        &project("find_package"),
        &build,
        &[at.clone(), "-DYAC_USE_SHARED=ON".into()],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let exe = build.join("use_yac");
    let soname = fs::read_link(lib.join("libyac.so")).unwrap();
    assert!(
        needed(&exe).contains(&format!("[{}]", soname.display())),
        "linked to the shared library by its soname"
    );
    runs_ok(&exe, Some(&lib));

    // Before 1.0 another minor is another ABI: a request for 0.(MINOR+1)
    // or 0.(MINOR-1) finds nothing.
    let mut parts = VERSION.split('.');
    let (major, minor_n): (u32, u32) = (
        parts.next().unwrap().parse().unwrap(),
        parts.next().unwrap().parse().unwrap(),
    );
    if major == 0 {
        for other in [minor_n + 1, minor_n.saturating_sub(1)] {
            if other == minor_n {
                continue;
            }
            let build = fresh_dir("cmake-other-minor");
            let want = format!("-DYAC_WANT_VERSION=0.{other}");
            let err = cmake(&project("find_package"), &build, &[at.clone(), want])
                .expect_err("another 0.x minor is refused");
            assert!(err.contains("Could not find a configuration file"), "{err}");
        }
    }
}

#[test]
fn cmake_fetch_content_builds_from_source() {
    if skip("cmake FetchContent", &["cmake"]) {
        return;
    }
    let build = fresh_dir("cmake-fetch");
    let defs = [
        format!("-DYAC_SOURCE_DIR={}", native::manifest_dir().display()),
        // The cargo build the other tests made: shared, not redone.
        format!("-DYAC_CARGO_TARGET_DIR={}", native::target_dir().display()),
    ];
    cmake(&project("fetch"), &build, &defs).unwrap_or_else(|e| panic!("{e}"));
    let exe = build.join("use_yac");
    assert!(!needed(&exe).contains("libyac"));
    runs_ok(&exe, None);
}

/// `meson setup` + `meson compile` of the Meson project in `build`, with
/// `env` and `opts`.
fn meson(build: &Path, env: &[(&str, &Path)], opts: &[&str]) {
    let mut setup = Command::new("meson");
    setup
        .arg("setup")
        .arg(build)
        .arg(project("meson"))
        .args(opts)
        .env_remove("PKG_CONFIG_PATH")
        .envs(env.iter().copied());
    native::run(&mut setup);
    native::run(Command::new("meson").arg("compile").arg("-C").arg(build));
}

#[test]
fn meson_pkg_config_and_wrap() {
    if skip(
        "meson",
        &["meson", "ninja", "make", "pkg-config", "git", "readelf"],
    ) {
        return;
    }
    // pkg-config: the installed prefix, shared and static.
    let prefix = installed_prefix("meson-prefix");
    let lib = prefix.join("lib");
    let pcdir = lib.join("pkgconfig");
    let want = format!("-Dwant_version={VERSION}");
    let build = fresh_dir("meson-shared");
    fs::remove_dir_all(&build).unwrap();
    meson(&build, &[("PKG_CONFIG_LIBDIR", &pcdir)], &[&want]);
    let exe = build.join("use_yac");
    assert!(needed(&exe).contains("libyac.so"), "linked to libyac.so");
    runs_ok(&exe, Some(&lib));

    let build = fresh_dir("meson-static");
    fs::remove_dir_all(&build).unwrap();
    meson(
        &build,
        &[("PKG_CONFIG_LIBDIR", &pcdir)],
        &[&want, "-Dstatic=true"],
    );
    let exe = build.join("use_yac");
    assert!(!needed(&exe).contains("libyac"), "libyac.a linked in");
    runs_ok(&exe, None);

    // The wrap: no libyac for pkg-config, so dependency('yac') takes the
    // subproject, cloned from the checkout's HEAD by git. The project is
    // copied, so that its subprojects/ is the test's own.
    let work = fresh_dir("meson-wrap");
    let src = work.join("project");
    fs::create_dir_all(src.join("subprojects")).unwrap();
    for f in ["meson.build", "meson_options.txt"] {
        let text = fs::read_to_string(project("meson").join(f)).unwrap();
        let use_yac = native::manifest_dir().join("tests/install/use_yac.c");
        let text = text.replace("../../install/use_yac.c", &use_yac.display().to_string());
        fs::write(src.join(f), text).unwrap();
    }
    fs::write(
        src.join("subprojects/yac.wrap"),
        format!(
            "[wrap-git]\nurl = file://{}\nrevision = HEAD\ndepth = 1\n\n[provide]\ndependency_names = yac\n",
            native::manifest_dir().display()
        ),
    )
    .unwrap();
    let build = work.join("build");
    let empty = work.join("no-pkgconfig");
    fs::create_dir_all(&empty).unwrap();
    // The clone is another package path to cargo: its own target dir,
    // kept between runs, so that it never overwrites the checkout's.
    let cargo_dir = native::target_dir().join("buildsys-wrap-cargo");
    let target_opt = format!("-Dyac:cargo_target_dir={}", cargo_dir.display());
    let mut setup = Command::new("meson");
    setup
        .arg("setup")
        .arg(&build)
        .arg(&src)
        .arg(&want)
        .arg(&target_opt)
        .env("PKG_CONFIG_LIBDIR", &empty)
        .env_remove("PKG_CONFIG_PATH");
    native::run(&mut setup);
    native::run(Command::new("meson").arg("compile").arg("-C").arg(&build));
    let exe = build.join("use_yac");
    assert!(!needed(&exe).contains("libyac"));
    runs_ok(&exe, None);
}
