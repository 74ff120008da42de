//! Builds the SimdQuickHeap's library (`simd/`) for `simd-quickheap-dup`.
//!
//! The `quickheap` crate compiles only with AVX2 (or AVX-512) on at compile time, and this
//! crate's other queues must keep the target's default code generation, so the crate is
//! built apart: a nested `cargo build --release` of `simd/` (a workspace member that is not
//! a default one, so its dependencies are in the workspace's `Cargo.lock` and `cargo fetch`
//! brings them) as a cdylib with `-C target-feature=+avx2`, in its own target directory
//! under `OUT_DIR`, loaded at run time (`src/simd_quickheap.rs`). Its path is passed as `PQLAB_SIMD_QUICKHEAP`; when the
//! build fails or the target is not x86-64, `PQLAB_SIMD_QUICKHEAP_MISSING` says why
//! instead, a warning is printed, and the queue is `n/a` with that reason (`pqlab list`
//! names it), and the script runs again at the next build until one succeeds.
//!
//! The nested build runs `--offline` first: cargo does not tell a build script that the
//! outer build is offline, so the dependencies already in cargo's cache are used whenever
//! they are there, and the network is tried only when they are not and `CARGO_NET_OFFLINE`
//! does not forbid it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    if std::env::var_os("CARGO_FEATURE_SIMD_QUICKHEAP").is_none() {
        return;
    }
    for line in directives(build()) {
        println!("{line}");
    }
}

/// A file that never exists: naming it makes cargo run this script again at every build.
pub const RETRY: &str = "simd/.retry-until-built";

/// What the script tells cargo after the nested build gave `built`: the library's path, or
/// why it is missing (a warning, and the reason `pqlab list` shows) and a retry at the next
/// build; either way, which changes build it again.
pub fn directives(built: Result<PathBuf, String>) -> Vec<String> {
    let mut lines: Vec<String> = ["simd/Cargo.toml", "simd/lib.rs", "../Cargo.lock"]
        .iter()
        .map(|file| format!("cargo:rerun-if-changed={file}"))
        .collect();
    lines.push("cargo:rerun-if-env-changed=CARGO_NET_OFFLINE".into());
    match built {
        Ok(library) => {
            lines.push(format!("cargo:rustc-env=PQLAB_SIMD_QUICKHEAP={}", library.display()))
        }
        Err(why) => {
            lines.push(format!("cargo:warning=simd-quickheap-dup will be n/a: {why}"));
            lines.push(format!("cargo:rustc-env=PQLAB_SIMD_QUICKHEAP_MISSING={why}"));
            lines.push(format!("cargo:rerun-if-changed={RETRY}"));
        }
    }
    lines
}

/// Whether `CARGO_NET_OFFLINE` forbids the network (`true` or `1`).
fn offline() -> bool {
    std::env::var("CARGO_NET_OFFLINE").is_ok_and(|v| v == "true" || v == "1")
}

/// Builds the library and returns its path, or says why it could not.
fn build() -> Result<PathBuf, String> {
    let env = |name: &str| std::env::var(name).map_err(|e| format!("{name}: {e}"));
    let (target, host) = (env("TARGET")?, env("HOST")?);
    if !target.starts_with("x86_64-") || target != host {
        return Err(format!("its library is built for an x86-64 host only, not {target}"));
    }
    let out = PathBuf::from(env("OUT_DIR")?);
    let manifest = Path::new(&env("CARGO_MANIFEST_DIR")?).join("simd/Cargo.toml");
    let nested = |offline: bool| -> Result<(), String> {
        let out = cargo(&manifest, &out, offline)?
            .output()
            .map_err(|e| format!("cargo could not be run: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        Err(format!(
            "the nested build of queues/simd failed ({}): {}",
            out.status,
            last_line(&String::from_utf8_lossy(&out.stderr))
        ))
    };
    match nested(true) {
        Err(_) if !offline() => nested(false)?,
        done => done?,
    }
    let (prefix, suffix) = (std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let built = out.join(format!("simd/release/{prefix}pqlab_simd_quickheap{suffix}"));
    if !built.exists() {
        return Err(format!("the nested build made no {}", built.display()));
    }
    Ok(built)
}

/// The last line of `stderr` that is not blank (cargo's error), cut to 200 characters, on
/// one line as a `cargo:` directive needs.
pub fn last_line(stderr: &str) -> String {
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
    last.chars().take(200).collect()
}

/// The nested build's command, `--offline` or not.
fn cargo(manifest: &Path, out: &Path, offline: bool) -> Result<Command, String> {
    let mut cargo = Command::new(std::env::var("CARGO").map_err(|e| format!("CARGO: {e}"))?);
    cargo
        .args(["build", "--release", "--locked", "--quiet", "--config"])
        .arg("profile.release.panic=\"abort\"")
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(out.join("simd"))
        .env("RUSTFLAGS", "-C target-feature=+avx2")
        // The outer build's flags and wrappers (clippy's among them) are not this one's.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_TARGET_DIR");
    if offline {
        cargo.arg("--offline");
    }
    Ok(cargo)
}
