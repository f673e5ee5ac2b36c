//! Building and running native code from the tests: the release library
//! (by a nested cargo), C/C++ compilers (via the `cc` crate), and commands.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root directory.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The cargo target directory the outer `cargo test` uses.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => manifest_dir().join(dir),
        None => manifest_dir().join("target"),
    }
}

/// Whether the tests are built for another target than the host
/// (`cargo test --target i686-unknown-linux-gnu`).
pub fn cross() -> bool {
    let target: &str = env!("YAC_BUILD_TARGET");
    target != env!("YAC_BUILD_HOST")
}

/// Where compiled C test programs and generated C files go
/// (`target/c-tests`, or `target/c-tests/<target>` for a cross target).
pub fn c_out_dir() -> PathBuf {
    let mut dir = target_dir().join("c-tests");
    if cross() {
        dir.push(env!("YAC_BUILD_TARGET"));
    }
    std::fs::create_dir_all(&dir).expect("target/c-tests can be created");
    dir
}

/// Runs a command to completion; panics with its output unless it succeeds.
pub fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "{cmd:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// Builds the C library for the target the tests are built for (the host,
/// or `cargo test --target T`'s T), `<target_dir>[/T]/release/libyac.a`,
/// the way the README does: `cargo rustc --release --lib --crate-type
/// staticlib`, plus `extra` arguments.
///
/// The archive alone: `cargo build --release` would also link libyac.so.
/// Both get the release profile's LTO (the root package has no rlib crate
/// type, which would make cargo skip LTO).
///
/// The nested cargo does not wait on the outer one: the outer `cargo test`
/// locks only its own profile's directory (target/debug), the release
/// build locks target/release or a separate target dir.
pub fn build_release_lib(target_dir: &Path, extra: &[&str]) -> PathBuf {
    let target = cross().then_some(env!("YAC_BUILD_TARGET"));
    build_lib_for(target_dir, target, extra, &[])
}

/// [`build_release_lib`] for `target` (`None`: the host) with `envs` set
/// for the nested cargo (such as `CARGO_PROFILE_RELEASE_OPT_LEVEL`).
pub fn build_lib_for(
    target_dir: &Path,
    target: Option<&str>,
    extra: &[&str],
    envs: &[(&str, &str)],
) -> PathBuf {
    build_lib(target_dir, target, Profile::Release, extra, envs)
}

/// The cargo profile a nested build uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// `dev`: no optimisation, debug assertions, panics unwind.
    Debug,
    /// `release`: LTO, `panic = "abort"`.
    Release,
}

/// The static library for the test target, like [`build_release_lib`],
/// in `profile`.
pub fn build_lib_in(target_dir: &Path, profile: Profile, extra: &[&str]) -> PathBuf {
    let target = cross().then_some(env!("YAC_BUILD_TARGET"));
    build_lib(target_dir, target, profile, extra, &[])
}

fn build_lib(
    target_dir: &Path,
    target: Option<&str>,
    profile: Profile,
    extra: &[&str],
    envs: &[(&str, &str)],
) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(manifest_dir()).arg("rustc");
    if profile == Profile::Release {
        cmd.arg("--release");
    }
    cmd.args(["--lib", "--crate-type", "staticlib"])
        .arg("--target-dir")
        .arg(target_dir)
        .args(extra)
        // Only an explicit --target decides; a cross target of the outer
        // build is passed as one.
        .env_remove("CARGO_BUILD_TARGET")
        .envs(envs.iter().copied());
    let mut dir = target_dir.to_path_buf();
    if let Some(t) = target {
        cmd.args(["--target", t]);
        dir.push(t);
    }
    run(&mut cmd);
    let lib = dir
        .join(match profile {
            Profile::Debug => "debug",
            Profile::Release => "release",
        })
        .join("libyac.a");
    assert!(lib.is_file(), "{} was not built", lib.display());
    lib
}

/// The C compiler (or C++ compiler with `cpp`) the `cc` crate picks for
/// this target, as a command with cc's default flags for it.
pub fn compiler(cpp: bool) -> Command {
    let target = env!("YAC_BUILD_TARGET");
    let host = env!("YAC_BUILD_HOST");
    cc::Build::new()
        .cpp(cpp)
        .target(target)
        .host(host)
        .opt_level(1)
        .debug(true)
        .warnings(false)
        .cargo_metadata(false)
        .get_compiler()
        .to_command()
}

/// Compiles the C program `src` with the strict flags plus `extra`, with
/// `include/` and `includes` on the include path, links it with `lib` (and
/// the system libraries it needs) into `exe`, and returns `exe`.
pub fn build_c_program(
    src: &Path,
    includes: &[&Path],
    lib: &Path,
    extra: &[&str],
    exe: &Path,
) -> PathBuf {
    let mut cc = compiler(false);
    cc.args(C_FLAGS)
        .args(extra)
        .arg("-I")
        .arg(manifest_dir().join("include"));
    for dir in includes {
        cc.arg("-I").arg(dir);
    }
    cc.arg(src).arg(lib).args(SYSTEM_LIBS).arg("-o").arg(exe);
    run(&mut cc);
    exe.to_path_buf()
}

/// The strict C flags every C file of the project compiles with.
pub const C_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

/// Libraries a program linking the hosted (std) libyac.a needs.
pub const SYSTEM_LIBS: &[&str] = &["-lpthread", "-ldl", "-lm"];

/// Sanitizer flags for the second run of the C tests.
pub const SANITIZE: &[&str] = &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"];
