//! Takes the git revision and the compiler's version at build time, for every run's
//! provenance (`PQLAB_GIT`, `PQLAB_RUSTC`): at run time pqlab starts no process, so nothing
//! in the working directory (a repository's hooks, a `rust-toolchain.toml`) is run on the
//! user's say-so. Either is `unknown` when it cannot be read (no git, not a checkout).
//!
//! The revision is taken again when the checkout's `HEAD`, its branch or its index moves,
//! or a file of the harness or the queues changes (what `--dirty` reports).

use std::path::Path;
use std::process::Command;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    let root = Path::new(&manifest);
    // Repository hooks are disabled: even the checkout's own runs no program of its config.
    let git = |args: &[&str]| {
        output(
            Command::new("git").current_dir(root).args(["-c", "core.fsmonitor=false"]).args(args),
        )
    };
    let revision = git(&["describe", "--always", "--dirty", "--abbrev=10"]);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(Command::new(rustc).arg("--version"));
    println!("cargo:rustc-env=PQLAB_GIT={}", revision.as_deref().unwrap_or("unknown"));
    println!("cargo:rustc-env=PQLAB_RUSTC={}", version.as_deref().unwrap_or("unknown"));
    let head = git(&["symbolic-ref", "-q", "HEAD"]);
    for path in ["HEAD", "index"].into_iter().map(str::to_owned).chain(head) {
        if let Some(file) = git(&["rev-parse", "--git-path", &path]) {
            if root.join(&file).exists() {
                println!("cargo:rerun-if-changed={}", root.join(file).display());
            }
        }
    }
    println!("cargo:rerun-if-changed=.");
    println!("cargo:rerun-if-changed=../queues");
}

/// The trimmed standard output of `command`, if it ran and succeeded.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok().filter(|out| out.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}
