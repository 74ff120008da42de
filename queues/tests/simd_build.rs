//! The build script's rules for the SIMD quickheap's nested build (`build.rs`): a failed
//! build's reason reaches the crate, whence `pqlab list`, and the build is retried at the
//! next build; a built one is rebuilt only when its sources or the lock change.

#[allow(dead_code)]
#[path = "../build.rs"]
mod build_script;

use std::path::{Path, PathBuf};

use build_script::{directives, last_line, RETRY};

/// The files a directive list reruns the script on.
fn reruns(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.strip_prefix("cargo:rerun-if-changed=")).collect()
}

#[test]
fn a_failed_build_says_why_and_is_retried() {
    let lines = directives(Err("the nested build of queues/simd failed: no network".into()));
    let missing = "cargo:rustc-env=PQLAB_SIMD_QUICKHEAP_MISSING=the nested build of queues/simd failed: no network";
    assert!(lines.iter().any(|l| l == missing), "{lines:?}");
    assert!(lines.iter().all(|l| !l.starts_with("cargo:rustc-env=PQLAB_SIMD_QUICKHEAP=")));
    assert!(reruns(&lines).contains(&RETRY), "{lines:?}");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(!manifest.join(RETRY).exists(), "the retry file must never exist");
}

#[test]
fn a_built_library_is_rebuilt_only_when_its_inputs_change() {
    let lines = directives(Ok(PathBuf::from("/out/libpqlab_simd_quickheap.so")));
    assert!(lines.contains(
        &"cargo:rustc-env=PQLAB_SIMD_QUICKHEAP=/out/libpqlab_simd_quickheap.so".to_owned()
    ));
    assert!(lines.iter().all(|l| !l.contains("MISSING")), "{lines:?}");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in reruns(&lines) {
        assert!(
            manifest.join(file).exists(),
            "{file} does not exist: the script would rerun at every build"
        );
    }
    assert!(reruns(&lines).contains(&"../Cargo.lock"), "the lock pins the library's dependencies");
}

#[test]
fn the_reason_is_the_nested_cargos_last_line_cut_short() {
    let stderr = "   Compiling quickheap v0.2.0\nerror: failed to download `wide`\n\n  \n";
    assert_eq!(last_line(stderr), "error: failed to download `wide`");
    assert_eq!(last_line(&format!("error: {}\n", "x".repeat(1000))).chars().count(), 200);
    assert_eq!(last_line(""), "");
}
