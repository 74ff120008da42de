//! The report as a reader gets it: every image and link of the committed pages resolves
//! to a file, and, where Chromium is installed (`apt-get install chromium`), the page
//! renders in a headless browser with every image loaded and no console error.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `results/` of this checkout.
fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("results")
}

/// Every `attr="..."` value in `html`.
fn attributes<'h>(html: &'h str, attr: &str) -> Vec<&'h str> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .filter_map(|(at, _)| {
            let rest = &html[at + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// Every Markdown link or image target in `text`: `](target)`.
fn markdown_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

/// Whether a link target is a file to check (not a web address or an anchor).
fn local(target: &str) -> bool {
    !(target.starts_with("http")
        || target.starts_with('#')
        || target.starts_with("mailto:")
        || target.is_empty())
}

fn check_targets(page: &Path, targets: &[&str]) {
    let dir = page.parent().expect("a page in a folder");
    for target in targets.iter().copied().filter(|t| local(t)) {
        let path = dir.join(target.split('#').next().unwrap_or(target));
        assert!(
            path.exists(),
            "{}: {target} does not resolve ({})",
            page.display(),
            path.display()
        );
    }
}

#[test]
fn every_image_and_link_of_the_committed_pages_resolves() {
    let report = results().join("report");
    let html =
        std::fs::read_to_string(report.join("index.html")).expect("results/report/index.html");
    let images = attributes(&html, "src");
    assert!(images.len() >= 5, "the page shows {} images", images.len());
    check_targets(&report.join("index.html"), &images);
    check_targets(&report.join("index.html"), &attributes(&html, "href"));
    let readme = report.join("README.md");
    let text = std::fs::read_to_string(&readme).expect("results/report/README.md");
    check_targets(&readme, &markdown_targets(&text));
    // The repository's README: its summary links the report and its charts.
    let root = results().join("..").join("README.md");
    let text = std::fs::read_to_string(&root).expect("README.md");
    check_targets(&root, &markdown_targets(&text));
}

#[test]
fn the_page_renders_whole_in_a_headless_browser() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok_and(|o| o.status.success()))
    else {
        eprintln!("no Chromium here (apt-get install chromium): the browser check is skipped");
        return;
    };
    let page =
        results().join("report").join("index.html").canonicalize().expect("the committed page");
    let profile = tempfile::tempdir().expect("a temporary folder");
    let output = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",
            &format!("--user-data-dir={}", profile.path().display()),
            "--dump-dom",
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        dom.contains("data-images=\"ok\""),
        "not every image loaded: {}",
        dom.lines().find(|l| l.contains("<body")).unwrap_or("no body")
    );
    let console: Vec<&str> =
        log.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
}
