//! The run against the latest run of every other machine.

use crate::analysis::verdicts::{self, Verdict};
use crate::analysis::{Findings, Run};
use crate::report::page::Block;
use crate::report::Context;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    if ctx.others.is_empty() {
        return Vec::new();
    }
    let mut blocks = vec![Block::Heading(2, "On other machines".into())];
    let here = &ctx.verdicts;
    let others: Vec<(Run<'_>, &String)> =
        ctx.others.iter().map(|(rows, name)| (Run::new(rows), name)).collect();
    let others: Vec<(Findings<'_, '_>, &String)> =
        others.iter().map(|(run, name)| (Findings::of(run), *name)).collect();
    let theirs: Vec<Vec<Verdict>> = others.iter().map(|(f, _)| verdicts::verdicts(f)).collect();
    // A verdict is matched with the other run's verdict on the same claim.
    let same_there = |theirs: &[Verdict], v: &Verdict| {
        verdicts::on(theirs, v.claim).is_some_and(|o| o.outcome == v.outcome)
    };
    let mut rows = Vec::new();
    for ((other, name), theirs) in others.iter().zip(&theirs) {
        let same = here.iter().filter(|v| same_there(theirs, v)).count();
        let (agree, bands) = crate::analysis::diff::diff(ctx.findings, other).bands_agreeing();
        rows.push(vec![
            (*name).clone(),
            other.run.machine(),
            format!("{same} of {}", here.len()),
            format!("{agree} of {bands}"),
        ]);
    }
    blocks.push(Block::Paragraph(
        "The latest run of every other machine in `results/runs/`, against this one: the \
         verdicts with the same outcome, and the bands whose winner is in the other run's tie \
         group both ways. A conclusion that holds on every machine is listed under the table; \
         the others are specific to a machine (`pqlab diff` prints the details)."
            .into(),
    ));
    blocks.push(Block::Table(
        ["run", "machine", "same verdicts", "band winners agreeing"].map(String::from).to_vec(),
        rows,
    ));
    let everywhere: Vec<String> = here
        .iter()
        .filter(|v| theirs.iter().all(|t| same_there(t, v)))
        .map(|v| format!("“{}”: {}", v.claim, v.outcome))
        .collect();
    blocks.push(Block::Paragraph(format!(
        "On every machine: {}.",
        if everywhere.is_empty() { "no verdict".into() } else { everywhere.join("; ") }
    )));
    blocks
}
