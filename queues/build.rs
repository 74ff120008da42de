//! Builds the SimdQuickHeap's library (`simd/`) for `simd-quickheap-dup`.
//!
//! The `quickheap` crate compiles only with AVX2 (or AVX-512) on at compile time, and this
//! crate's other queues must keep the target's default code generation, so the crate is
//! built apart: a nested `cargo build --release` of `simd/` as a cdylib with
//! `-C target-feature=+avx2`, in its own target directory under `OUT_DIR`, loaded at run
//! time (`src/simd_quickheap.rs`). Its path is passed as `PQLAB_SIMD_QUICKHEAP`; when the
//! build fails or the target is not x86-64, `PQLAB_SIMD_QUICKHEAP_MISSING` says why
//! instead, a warning is printed, and the queue is `n/a` with that reason.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    if std::env::var_os("CARGO_FEATURE_SIMD_QUICKHEAP").is_none() {
        return;
    }
    for file in ["simd/Cargo.toml", "simd/Cargo.lock", "simd/lib.rs"] {
        println!("cargo:rerun-if-changed={file}");
    }
    match build() {
        Ok(library) => println!("cargo:rustc-env=PQLAB_SIMD_QUICKHEAP={}", library.display()),
        Err(why) => {
            println!("cargo:warning=simd-quickheap-dup will be n/a: {why}");
            println!("cargo:rustc-env=PQLAB_SIMD_QUICKHEAP_MISSING={why}");
        }
    }
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
    let mut cargo = Command::new(env("CARGO")?);
    cargo
        .args(["build", "--release", "--locked", "--quiet", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(out.join("simd"))
        .env("RUSTFLAGS", "-C target-feature=+avx2")
        // The outer build's flags and wrappers (clippy's among them) are not this one's.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_TARGET_DIR")
        // This script's stdout is for cargo's directives.
        .stdout(std::io::stderr());
    let status = cargo.status().map_err(|e| format!("cargo could not be run: {e}"))?;
    if !status.success() {
        return Err(format!("the nested build of queues/simd failed ({status})"));
    }
    let (prefix, suffix) = (std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let built = out.join(format!("simd/release/{prefix}pqlab_simd_quickheap{suffix}"));
    if !built.exists() {
        return Err(format!("the nested build made no {}", built.display()));
    }
    Ok(built)
}
