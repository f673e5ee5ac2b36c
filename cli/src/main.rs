//! `yac`: look at, check and convert YAC (KEKS) documents.
//!
//! ```text
//! yac print [-o OUT] FILE...       the tree, indented, one item per line
//! yac atoms [-o OUT] FILE...       the atom stream with byte offsets
//! yac check [-v] FILE...           validate; silent on success unless -v
//! yac to-json [-o OUT] FILE...     YAC to JSON (one JSON value per line per item)
//! yac from-json [-o OUT] FILE...   JSON to YAC (never to a terminal)
//! yac --version | --help | COMMAND --help
//! ```
//!
//! Exit status: 0 success, 1 invalid data (the message names the error and
//! its byte offset), 2 usage or I/O error. With several files each is
//! processed in turn; a failing one is reported (prefixed with its name)
//! and the others still run; the status is the worst. The JSON mapping is
//! described in docs/cli.md.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::process::ExitCode;

mod convert;
mod json;

const USAGE: &str = "\
usage: yac COMMAND [OPTIONS] FILE...
  print      pretty-print the tree of every item
  atoms      print the atom stream with byte offsets
  check      validate (silent on success; -v: print a summary)
  to-json    convert YAC to JSON (one line per top-level item)
  from-json  convert JSON (one or more values) to YAC
FILE is a path, or - for standard input; several are processed in turn.
Options: -o OUT  write the output to OUT instead of standard output
         -h, --help  (after COMMAND: that command's help)   --version
Exit status: 0 ok, 1 invalid data, 2 usage or I/O error.";

/// Per command: its name, its synopsis and what it does.
const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "print",
        "yac print [-o OUT] FILE...",
        "Prints the tree of every top-level item, one item per line, two spaces
per nesting level (at most 32 levels; deeper lines say their depth),
MAP keys before their values, containers with their sizes.",
    ),
    (
        "atoms",
        "yac atoms [-o OUT] FILE...",
        "Prints every atom with its byte offset, indented by nesting depth (at
most 32 levels). Checks each atom and the nesting; on an error, prints
everything before it, then the error. MAP key rules are check's.",
    ),
    (
        "check",
        "yac check [-v] FILE...",
        "Validates every top-level item of each FILE without building a tree
(memory does not grow with the document beyond the input itself).
Silent on success; -v prints a summary line per file.",
    ),
    (
        "to-json",
        "yac to-json [-o OUT] FILE...",
        "Converts each top-level item to one line of JSON (the mapping is in
docs/cli.md: special forms such as {\"$bin\":\"hex\"} for what JSON lacks).",
    ),
    (
        "from-json",
        "yac from-json [-o OUT] FILE...",
        "Converts JSON values (one or more per file) to YAC items. Refuses to
write binary YAC to a terminal: use -o OUT or a redirection.",
    ),
];

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
        Ok(code) => code,
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

/// The parsed command line.
struct Args<'a> {
    cmd: &'a str,
    verbose: bool,
    output: Option<&'a str>,
    files: Vec<&'a str>,
}

/// `Ok(None)`: help or version was printed.
fn parse_args(args: &[String]) -> Result<Option<Args<'_>>, Failure> {
    let Some(cmd) = args.first() else {
        return Err(Failure::Usage("no command".into()));
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return Ok(None);
        }
        "-V" | "--version" => {
            println!("yac {}", env!("CARGO_PKG_VERSION"));
            return Ok(None);
        }
        _ => {}
    }
    let Some(&(_, synopsis, about)) = COMMANDS.iter().find(|c| c.0 == cmd) else {
        return Err(Failure::Usage(format!("unknown command {cmd}")));
    };
    let mut parsed = Args {
        cmd,
        verbose: false,
        output: None,
        files: Vec::new(),
    };
    let mut rest = args.iter().skip(1);
    while let Some(a) = rest.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("usage: {synopsis}\n{about}");
                return Ok(None);
            }
            "-v" if cmd == "check" => parsed.verbose = true,
            "-o" if cmd != "check" => {
                let Some(out) = rest.next() else {
                    return Err(Failure::Usage("-o needs a file name".into()));
                };
                if parsed.output.replace(out).is_some() {
                    return Err(Failure::Usage("more than one -o".into()));
                }
            }
            "-" => parsed.files.push(a),
            s if s.starts_with('-') => {
                return Err(Failure::Usage(format!("{cmd}: unknown option {s}")))
            }
            _ => parsed.files.push(a),
        }
    }
    if parsed.files.is_empty() {
        return Err(Failure::Usage(format!("{cmd}: no FILE (use - for stdin)")));
    }
    if parsed.files.iter().filter(|&&f| f == "-").count() > 1 {
        return Err(Failure::Usage("standard input (-) named twice".into()));
    }
    Ok(Some(parsed))
}

fn run(args: &[String]) -> Result<ExitCode, Failure> {
    let Some(args) = parse_args(args)? else {
        return Ok(ExitCode::SUCCESS);
    };
    let mut out: Box<dyn Write> = match args.output {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).map_err(|e| Failure::Io(format!("{path}: {e}")))?,
        )),
        None => {
            let stdout = io::stdout();
            if args.cmd == "from-json" && stdout.is_terminal() {
                return Err(Failure::Io(
                    "from-json: refusing to write binary YAC to a terminal \
                     (use -o OUT or a redirection)"
                        .into(),
                ));
            }
            Box::new(stdout.lock())
        }
    };
    let several = args.files.len() > 1;
    let mut status = 0u8;
    for file in &args.files {
        let done = read_input(file).and_then(|input| {
            let summary = run_one(args.cmd, &input, &mut out)?;
            if args.verbose {
                let name = if several {
                    format!("{file}: ")
                } else {
                    String::new()
                };
                writeln!(out, "{name}{summary}").map_err(write_err)?;
            }
            Ok(())
        });
        let (code, msg) = match done {
            Ok(()) => continue,
            Err(Failure::Invalid(msg)) => (1, msg),
            Err(Failure::Io(msg)) => (2, msg),
            Err(Failure::BrokenPipe) => return Ok(ExitCode::SUCCESS),
            Err(usage) => return Err(usage),
        };
        // What was written before the error stays (atoms prints up to it).
        out.flush().map_err(write_err)?;
        if several {
            eprintln!("yac: {file}: {msg}");
        } else {
            eprintln!("yac: {msg}");
        }
        status = status.max(code);
    }
    out.flush().map_err(write_err)?;
    Ok(ExitCode::from(status))
}

/// One command on one input; `check` returns its summary.
fn run_one(cmd: &str, input: &[u8], mut out: &mut dyn Write) -> Result<String, Failure> {
    match cmd {
        "print" => convert::print(input, &mut out),
        "atoms" => convert::atoms(input, &mut out),
        "to-json" => convert::to_json(input, &mut out),
        "from-json" => convert::from_json(input, &mut out),
        _ => return convert::check(input),
    }
    .map(|()| String::new())
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
