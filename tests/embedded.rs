//! libyac on microcontrollers, under QEMU: the freestanding `libyac.a`
//! (`--no-default-features`, opt-level z) for Cortex-M0
//! (`thumbv6m-none-eabi`, QEMU `microbit`: 16 KiB of RAM) and Cortex-M4F
//! (`thumbv7em-none-eabihf`, QEMU `mps2-an386`), linked with
//! arm-none-eabi-gcc -Os and newlib (`embedded/startup.c`,
//! `embedded/ld/`) into `embedded/mcu_test.c`, compiled once with
//! `-fshort-enums` (the target's default) and once with
//! `-fno-short-enums`. Each program runs under qemu-system-arm with
//! semihosting and must exit 0 after printing "N passed, 0 failed";
//! `-- --nocapture` shows its output (the stack figures).
//!
//! Needs the Rust targets, gcc-arm-none-eabi, libnewlib-arm-none-eabi and
//! qemu-system-arm (`embedded/setup.sh` installs them). Without them the
//! test says so and passes, unless `CI` is set (`.ci/run`), where it fails.

mod cbuild;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::native;

/// A QEMU board and the target libyac is built for.
struct Board {
    machine: &'static str,
    target: &'static str,
    cflags: &'static [&'static str],
    /// The deepest tree the program parses (16 bytes of pool per level).
    tree_depth: usize,
    /// The encode buffer; longer vectors are left out.
    out_cap: usize,
    /// Also test the `size-first` build here.
    size_first: bool,
}

const BOARDS: &[Board] = &[
    Board {
        machine: "microbit",
        target: "thumbv6m-none-eabi",
        cflags: &["-mcpu=cortex-m0", "-mthumb", "-mfloat-abi=soft"],
        tree_depth: 400,
        out_cap: 2048,
        size_first: true,
    },
    Board {
        machine: "mps2-an386",
        target: "thumbv7em-none-eabihf",
        cflags: &[
            "-mcpu=cortex-m4",
            "-mthumb",
            "-mfloat-abi=hard",
            "-mfpu=fpv4-sp-d16",
        ],
        tree_depth: 1000,
        out_cap: 70000,
        size_first: false,
    },
];

/// The enum settings every program is built with.
const ENUM_FLAGS: &[&str] = &["-fshort-enums", "-fno-short-enums"];

/// Whether `cmd --version` runs.
fn runs(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the Rust standard library for `target` is installed.
fn rust_target_installed(target: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    Command::new(rustc)
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            std::fs::read_dir(dir).is_ok_and(|mut d| {
                d.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-")))
            })
        })
}

/// What is missing to run the MCU tests (empty: nothing).
fn missing_tools() -> Vec<String> {
    let mut missing: Vec<String> = ["arm-none-eabi-gcc", "qemu-system-arm"]
        .iter()
        .filter(|t| !runs(t))
        .map(|t| t.to_string())
        .collect();
    for b in BOARDS {
        if !rust_target_installed(b.target) {
            missing.push(format!("Rust target {}", b.target));
        }
    }
    missing
}

/// The freestanding `libyac.a` for `target` at opt-level z, built into
/// `target/embedded` or, with `size_first`, `target/embedded-size-first`
/// (the builds `embedded/size.sh` measures).
pub fn mcu_lib(target: &str, size_first: bool) -> PathBuf {
    let (dir, extra): (&str, &[&str]) = if size_first {
        (
            "embedded-size-first",
            &["--no-default-features", "--features", "size-first"],
        )
    } else {
        ("embedded", &["--no-default-features"])
    };
    native::build_lib_for(
        &native::target_dir().join(dir),
        Some(target),
        extra,
        &[("CARGO_PROFILE_RELEASE_OPT_LEVEL", "z")],
    )
}

/// Compiles and links the MCU test for `board` with `enums`.
fn build(board: &Board, lib: &Path, gen: &Path, enums: &str, exe: &Path) {
    let root = native::manifest_dir();
    let mut cc = Command::new("arm-none-eabi-gcc");
    cc.args(board.cflags)
        .args(native::C_FLAGS)
        .args(["-Os", enums, "-ffunction-sections", "-fdata-sections"])
        .arg(format!("-DMCU_TREE_DEPTH={}", board.tree_depth))
        .arg(format!("-DMCU_OUT_CAP={}", board.out_cap))
        .arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(gen)
        .arg("-I")
        .arg(root.join("c-tests"))
        .arg(root.join("embedded/startup.c"))
        .arg(root.join("embedded/mcu_test.c"))
        .arg(lib)
        .args([
            "--specs=nano.specs",
            "--specs=rdimon.specs",
            "-nostartfiles",
        ])
        // newlib is built with short enums; libyac's ABI has no enum type,
        // so mixing the settings is safe: silence the EABI attribute check.
        .args(["-Wl,--gc-sections", "-Wl,--no-enum-size-warning"])
        .arg("-L")
        .arg(root.join("embedded/ld"))
        .arg("-T")
        .arg(format!("{}.ld", board.machine))
        .arg("-o")
        .arg(exe);
    native::run(&mut cc);
}

/// Runs `exe` on `board` under QEMU with semihosting; panics unless it
/// exits 0 and reports no failed check.
fn run_on(board: &Board, exe: &Path) -> String {
    let mut qemu = Command::new("timeout");
    qemu.args(["120", "qemu-system-arm", "-M", board.machine])
        .args(["-nographic", "-monitor", "none", "-serial", "none"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(exe);
    let out = native::run(&mut qemu);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.contains(" passed, 0 failed"),
        "{} on {}: no pass count:\n{stdout}\n{}",
        exe.display(),
        board.machine,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn mcu_tests_pass_under_qemu() {
    // The same programs whatever the host tests are built for: run once,
    // with the host build (not again under `cargo test --target i686-...`).
    if native::cross() {
        return;
    }
    let missing = missing_tools();
    if !missing.is_empty() {
        let what = missing.join(", ");
        if std::env::var_os("CI").is_some() {
            panic!("missing (embedded/setup.sh installs them): {what}");
        }
        eprintln!("skipping the MCU tests, missing: {what} (embedded/setup.sh)");
        return;
    }
    let out_dir = native::c_out_dir().join("mcu");
    for board in BOARDS {
        let gen = out_dir.join(format!("gen-{}", board.machine));
        std::fs::create_dir_all(&gen).expect("the generated header's dir");
        cbuild::generate_vectors_for(&gen, board.out_cap, 32);
        for size_first in [false, board.size_first] {
            let lib = mcu_lib(board.target, size_first);
            let build_name = if size_first { "size-first" } else { "default" };
            for enums in ENUM_FLAGS {
                let exe = out_dir.join(format!(
                    "mcu_test-{}-{build_name}{enums}.elf",
                    board.machine
                ));
                build(board, &lib, &gen, enums, &exe);
                let stdout = run_on(board, &exe);
                println!(
                    "{} ({build_name} build, {enums}):\n{}",
                    board.machine,
                    stdout.trim_end()
                );
            }
            if !board.size_first {
                break;
            }
        }
    }
}
