//! The command-line tool (stub until the simulation core lands).
use std::io::Write;

pub const USAGE: &str = "leaseline — deterministic distributed-lock simulator\n\nUSAGE:\n    leaseline --help\n";

/// Runs the CLI with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match args.first().map(String::as_str) {
        None | Some("--help") | Some("-h") | Some("help") => {
            let _ = write!(out, "{USAGE}");
            0
        }
        Some(other) => {
            let _ = writeln!(err, "leaseline: unknown command `{other}` (try --help)");
            2
        }
    }
}
