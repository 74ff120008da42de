//! The report as a document (headings, paragraphs, lists, tables, charts) written twice:
//! as Markdown for `results/README.md` and as HTML for `results/index.html`.
//!
//! Text may hold three inline marks: `` `code` ``, `**strong**` (which may hold code) and
//! `[text](target)` links; everything else is escaped for the target format.

use std::fmt::Write;

/// One block of the document.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading of level 1 to 3.
    Heading(u8, String),
    /// A paragraph.
    Paragraph(String),
    /// A bulleted list.
    List(Vec<String>),
    /// A table: header cells, then rows of cells.
    Table(Vec<String>, Vec<Vec<String>>),
    /// A chart by file stem (`<name>.png` / `<name>.svg`), with its alternative text.
    Chart(&'static str, String),
    /// The table of contents: a link to every level-2 heading of the document.
    Contents,
}

/// A piece of inline text.
enum Inline<'s> {
    Text(&'s str),
    Code(&'s str),
    Strong(&'s str),
    Link(&'s str, &'s str),
}

/// Splits `text` at its inline marks; an unclosed mark is kept as text.
fn inlines(text: &str) -> Vec<Inline<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let paired = [("`", 0usize), ("**", 1)].into_iter().filter_map(|(mark, which)| {
            let start = rest.find(mark)?;
            rest[start + mark.len()..].find(mark)?;
            Some((start, which))
        });
        let link = rest.find('[').and_then(|start| {
            let close = rest[start..].find("](")? + start;
            rest[close..].find(')')?;
            Some((start, 2usize))
        });
        let next = paired.chain(link).min_by_key(|&(start, _)| start);
        let Some((start, which)) = next else {
            out.push(Inline::Text(rest));
            break;
        };
        if start > 0 {
            out.push(Inline::Text(&rest[..start]));
        }
        rest = &rest[start..];
        match which {
            0 | 1 => {
                let mark = if which == 0 { "`" } else { "**" };
                let end = rest[mark.len()..].find(mark).expect("found above") + mark.len();
                let inner = &rest[mark.len()..end];
                out.push(if which == 0 { Inline::Code(inner) } else { Inline::Strong(inner) });
                rest = &rest[end + mark.len()..];
            }
            _ => {
                let close = rest.find("](").expect("found above");
                let end = close + rest[close..].find(')').expect("found above");
                out.push(Inline::Link(&rest[1..close], &rest[close + 2..end]));
                rest = &rest[end + 1..];
            }
        }
    }
    out
}

/// Escapes HTML's special characters.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Inline text as Markdown: marks kept, Markdown's special characters escaped.
fn md_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in inlines(text) {
        match piece {
            Inline::Code(code) => write!(out, "`{code}`").expect("writing to a String"),
            Inline::Strong(strong) => write!(out, "**{}**", md_inline(strong)).expect("writing"),
            Inline::Text(text) => out.push_str(&md_escape(text)),
            Inline::Link(text, target) => {
                write!(out, "[{}]({target})", md_inline(text)).expect("writing to a String")
            }
        }
    }
    out
}

fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '*' | '_' | '[' | ']' | '|' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Inline text as HTML.
fn html_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in inlines(text) {
        match piece {
            Inline::Code(code) => write!(out, "<code>{}</code>", html_escape(code)),
            Inline::Strong(strong) => write!(out, "<strong>{}</strong>", html_inline(strong)),
            Inline::Text(text) => write!(out, "{}", html_escape(text)),
            Inline::Link(text, target) => {
                write!(out, "<a href=\"{}\">{}</a>", html_escape(target), html_inline(text))
            }
        }
        .expect("writing to a String");
    }
    out
}

/// A heading's anchor: lowercase words joined by hyphens.
fn slug(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.join("-")
}

/// The document as Markdown, beside its charts.
pub fn markdown(blocks: &[Block]) -> String {
    markdown_in(blocks, "")
}

/// The document as Markdown for a page whose charts are in the folder `charts` (a path
/// relative to the page, ending in `/`, or empty for the same folder).
pub fn markdown_in(blocks: &[Block], charts: &str) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Heading(level, text) => {
                writeln!(out, "{} {}\n", "#".repeat(usize::from(*level)), md_inline(text))
            }
            Block::Paragraph(text) => writeln!(out, "{}\n", md_inline(text)),
            Block::List(items) => {
                for item in items {
                    writeln!(out, "- {}", md_inline(item)).expect("writing to a String");
                }
                writeln!(out)
            }
            Block::Table(head, rows) => {
                let line = |cells: &[String]| {
                    let cells: Vec<String> = cells.iter().map(|c| md_inline(c)).collect();
                    format!("| {} |", cells.join(" | "))
                };
                writeln!(out, "{}", line(head)).expect("writing to a String");
                writeln!(out, "|{}", "---|".repeat(head.len())).expect("writing to a String");
                for row in rows {
                    writeln!(out, "{}", line(row)).expect("writing to a String");
                }
                writeln!(out)
            }
            Block::Chart(name, alt) => {
                writeln!(out, "[![{}]({charts}{name}.png)]({charts}{name}.svg)\n", md_escape(alt))
            }
            Block::Contents => {
                for text in contents(blocks) {
                    writeln!(out, "- [{}](#{})", md_inline(text), slug(text))
                        .expect("writing to a String");
                }
                writeln!(out)
            }
        }
        .expect("writing to a String");
    }
    out
}

/// The level-2 headings, for the table of contents.
fn contents(blocks: &[Block]) -> impl Iterator<Item = &str> {
    blocks.iter().filter_map(|b| match b {
        Block::Heading(2, text) => Some(text.as_str()),
        _ => None,
    })
}

/// The document as a standalone HTML page titled `title`.
pub fn html(title: &str, blocks: &[Block]) -> String {
    let mut out = String::new();
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        html_escape(title)
    )
    .expect("writing to a String");
    for block in blocks {
        match block {
            Block::Heading(level, text) => {
                writeln!(out, "<h{level} id=\"{}\">{}</h{level}>", slug(text), html_inline(text))
            }
            Block::Paragraph(text) => writeln!(out, "<p>{}</p>", html_inline(text)),
            Block::List(items) => {
                out.push_str("<ul>\n");
                for item in items {
                    writeln!(out, "<li>{}</li>", html_inline(item)).expect("writing to a String");
                }
                writeln!(out, "</ul>")
            }
            Block::Table(head, rows) => {
                out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
                for cell in head {
                    write!(out, "<th>{}</th>", html_inline(cell)).expect("writing to a String");
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for row in rows {
                    out.push_str("<tr>");
                    for cell in row {
                        write!(out, "<td>{}</td>", html_inline(cell)).expect("writing to a String");
                    }
                    out.push_str("</tr>\n");
                }
                writeln!(out, "</tbody></table></div>")
            }
            Block::Chart(name, alt) => writeln!(
                out,
                "<figure><a href=\"{name}.svg\"><img src=\"{name}.svg\" alt=\"{}\"></a>\
                 <figcaption>{} (<a href=\"{name}.png\">PNG</a>)</figcaption></figure>",
                html_escape(alt),
                html_escape(alt)
            ),
            Block::Contents => {
                out.push_str("<nav><ul>\n");
                for text in contents(blocks) {
                    writeln!(out, "<li><a href=\"#{}\">{}</a></li>", slug(text), html_inline(text))
                        .expect("writing to a String");
                }
                writeln!(out, "</ul></nav>")
            }
        }
        .expect("writing to a String");
    }
    out.push_str(SELF_CHECK);
    out.push_str("</body>\n</html>\n");
    out
}

/// Marks the page once loaded: `data-images="ok"` on the body when every image loaded,
/// `broken:N` otherwise, so a headless browser's dump of the page says whether it
/// rendered whole (see `tests/report_page.rs`).
const SELF_CHECK: &str = "<script>\nwindow.addEventListener(\"load\", () => {\n  \
const broken = [...document.images].filter((i) => !(i.complete && i.naturalWidth > 0)).length;\n  \
document.body.dataset.images = broken === 0 ? \"ok\" : \"broken:\" + broken;\n});\n</script>\n";

const STYLE: &str = "\
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       line-height: 1.5; color: #222; }
h1, h2, h3 { line-height: 1.2; }
code { background: #f2f2f2; padding: 0 0.25em; border-radius: 3px; }
td code { white-space: nowrap; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f6f6f6; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { color: #555; font-size: 0.9em; }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_marks_and_escapes() {
        let text = "`a|b` is **fast** <30 | x_y";
        assert_eq!(md_inline(text), "`a|b` is **fast** &lt;30 \\| x\\_y");
        assert_eq!(html_inline(text), "<code>a|b</code> is <strong>fast</strong> &lt;30 | x_y");
        assert_eq!(md_inline("an `unclosed mark"), "an `unclosed mark");
        assert_eq!(html_inline("**run `x`**"), "<strong>run <code>x</code></strong>");
        // Plain text in, one escape out: `A*` is `A\*` in Markdown and `A*` in HTML.
        assert_eq!(md_inline("octile A* (A*'s)"), "octile A\\* (A\\*'s)");
        assert_eq!(html_inline("octile A* (A*'s)"), "octile A* (A*'s)");
    }

    #[test]
    fn blocks_render_in_both_formats() {
        let blocks = vec![
            Block::Heading(2, "Best queue (per band)".into()),
            Block::Table(vec!["a".into(), "b".into()], vec![vec!["1".into(), "`x`".into()]]),
            Block::Chart("search-time", "Time per search".into()),
        ];
        let md = markdown(&blocks);
        assert!(md.contains("## Best queue (per band)\n"));
        assert!(md.contains("| a | b |\n|---|---|\n| 1 | `x` |\n"));
        assert!(md.contains("[![Time per search](search-time.png)](search-time.svg)"));
        let page = html("t", &blocks);
        assert!(page.contains("<h2 id=\"best-queue-per-band\">"));
        assert!(page.contains("<td><code>x</code></td>"));
        assert!(page.contains("<img src=\"search-time.svg\""));
    }
}
