//! `yac`: look at, check and convert YAC (KEKS) documents.
//!
//! ```text
//! yac print FILE|-        the tree, indented, one item per line
//! yac atoms FILE|-        the atom stream with byte offsets
//! yac check [-v] FILE|-   validate; silent on success unless -v
//! yac to-json FILE|-      YAC to JSON (one JSON value per line per item)
//! yac from-json FILE|-    JSON to YAC (on stdout)
//! ```
//!
//! Exit status: 0 success, 1 invalid data (the message names the error and
//! its byte offset), 2 usage or I/O error. The JSON mapping is described in
//! the README ("The yac command-line tool").

use std::io::{self, Read, Write};
use std::process::ExitCode;

mod bigint;
mod convert;
mod json;
mod text;

const USAGE: &str = "\
usage: yac COMMAND [-v] FILE
  print      pretty-print the tree of every item in FILE
  atoms      print the atom stream with byte offsets
  check      validate FILE (silent on success; -v: print a summary)
  to-json    convert YAC to JSON on stdout (one line per top-level item)
  from-json  convert JSON (one or more values) to YAC on stdout
FILE is a path, or - for standard input.
Exit status: 0 ok, 1 invalid data, 2 usage or I/O error.";

/// Why a command failed, with its exit status.
pub enum Failure {
    /// Bad arguments: exit 2 with the usage text.
    Usage(String),
    /// I/O trouble: exit 2.
    Io(String),
    /// The input is not valid: exit 1.
    Invalid(String),
    /// The reader of our output went away (`yac print x | head`): stop
    /// quietly, as other filters do.
    BrokenPipe,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("yac: {msg}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Io(msg)) => {
            eprintln!("yac: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Invalid(msg)) => {
            eprintln!("yac: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let Some(cmd) = args.first() else {
        return Err(Failure::Usage("no command".into()));
    };
    if matches!(cmd.as_str(), "-h" | "--help" | "help") {
        println!("{USAGE}");
        return Ok(());
    }
    let mut verbose = false;
    let mut file = None;
    for a in args.iter().skip(1) {
        match a.as_str() {
            "-v" if cmd == "check" => verbose = true,
            "-" => file = set_once(file, a)?,
            s if s.starts_with('-') => return Err(Failure::Usage(format!("unknown option {s}"))),
            _ => file = set_once(file, a)?,
        }
    }
    let known = ["print", "atoms", "check", "to-json", "from-json"];
    if !known.contains(&cmd.as_str()) {
        return Err(Failure::Usage(format!("unknown command {cmd}")));
    }
    let Some(file) = file else {
        return Err(Failure::Usage(format!("{cmd}: no FILE (use - for stdin)")));
    };
    let input = read_input(file)?;
    let mut out = io::stdout().lock();
    match cmd.as_str() {
        "print" => convert::print(&input, &mut out),
        "atoms" => convert::atoms(&input, &mut out),
        "to-json" => convert::to_json(&input, &mut out),
        "from-json" => convert::from_json(&input, &mut out),
        _ => {
            let summary = convert::check(&input)?;
            if verbose {
                writeln!(out, "{summary}").map_err(write_err)?;
            }
            Ok(())
        }
    }?;
    out.flush().map_err(write_err)
}

fn set_once<'s>(prev: Option<&'s str>, a: &'s str) -> Result<Option<&'s str>, Failure> {
    match prev {
        None => Ok(Some(a)),
        Some(_) => Err(Failure::Usage("more than one FILE".into())),
    }
}

/// The whole input, read once: a file, or stdin for "-".
fn read_input(file: &str) -> Result<Vec<u8>, Failure> {
    if file == "-" {
        let mut buf = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut buf)
            .map_err(|e| Failure::Io(format!("reading stdin: {e}")))?;
        return Ok(buf);
    }
    std::fs::read(file).map_err(|e| Failure::Io(format!("{file}: {e}")))
}

/// An output error (a closed pipe, a full disk).
pub fn write_err(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return Failure::BrokenPipe;
    }
    Failure::Io(format!("writing output: {e}"))
}
