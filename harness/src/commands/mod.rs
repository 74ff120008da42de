//! The `pqlab` commands' bodies; `main.rs` parses the command line and dispatches here.
//!
//! Exit status: 0 on success, 1 when a check finds a wrong answer, 2 on bad input (a
//! malformed map or scenario file, named with its line; an unknown queue or heuristic).

pub mod bench;
pub mod compare;
pub mod diff;
pub mod pick;
pub mod run;
pub mod validate;
pub mod workloads;

/// `println!` for a command line: when stdout is closed (`pqlab pick ... | head`) the
/// program ends quietly instead of panicking; another write error ends it with status 2.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("pqlab: writing to stdout: {error}");
                std::process::exit(2);
            }
            std::process::exit(0);
        }
    }};
}
