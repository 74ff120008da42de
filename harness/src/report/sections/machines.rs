//! The run against the latest run of every other CPU kind: which answers hold on which CPU.

use crate::analysis::diff::{diff, Diff};
use crate::analysis::verdicts::{self, Verdict};
use crate::analysis::{Findings, Run};
use crate::report::page::Block;
use crate::report::Context;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "Machines".into())];
    let here = ctx.run.platform();
    if ctx.others.is_empty() {
        blocks.push(Block::Paragraph(format!(
            "Every run under `results/runs/` was made on this run's CPU, {}: no answer here has been checked on another CPU.",
            here.kind()
        )));
        return blocks;
    }
    let others: Vec<Run<'_>> = ctx.others.iter().map(|(rows, _)| Run::new(rows)).collect();
    let findings: Vec<Findings<'_, '_>> = others.iter().map(Findings::of).collect();
    let diffs: Vec<Diff> = findings.iter().map(|f| diff(ctx.findings, f)).collect();
    let theirs: Vec<Vec<Verdict>> = findings.iter().map(verdicts::verdicts).collect();
    blocks.push(Block::Paragraph(format!(
        "This run was made on {here}. Beside it, the latest run of every other CPU kind under `results/runs/` (a CPU kind is its vendor, family, model and stepping; a run that did not record them is its model name alone), each with the revision that made it: a run of older code measures older queues, so its agreement is a floor. For each: the band winners in each other's tie group both ways, the verdicts with the same outcome, and the workload-wide shift, the median over a workload's queues of how far their time against std's heap moved (`pqlab diff` prints the details)."
    )));
    blocks.push(comparison_table(&others, &diffs));
    blocks.push(verdicts_across(ctx, &theirs));
    blocks.push(bands_across(&others, &diffs));
    blocks
}

/// One row for each other CPU's run: its revision and conditions, and how far it agrees
/// with this run (band winners, verdicts, workload-wide shift).
fn comparison_table(others: &[Run<'_>], diffs: &[Diff]) -> Block {
    let rows = others
        .iter()
        .zip(diffs)
        .map(|(run, d)| {
            let (agree, bands) = d.bands_agreeing();
            let (same, told) = d.verdicts_agreeing();
            vec![
                format!("`{}`", run.run_id()),
                run.platform().to_string(),
                format!("`{}`", run.distinct(|r| &r.git)),
                run.conditions(),
                format!("{agree} of {bands}"),
                format!("{same} of {told}"),
                d.shift.map_or("–".into(), |s| {
                    format!(
                        "{:.1}% ({:.0}% one sign)",
                        (s.median - 1.0) * 100.0,
                        s.one_sign * 100.0
                    )
                }),
            ]
        })
        .collect();
    Block::Table(
        ["run", "CPU", "revision", "conditions", "band winners", "verdicts", "shift"]
            .map(String::from)
            .to_vec(),
        rows,
    )
}

/// Each of this run's verdicts, and on how many CPUs (this one included) it has the same
/// outcome; `theirs` holds the other CPUs' verdicts.
fn verdicts_across(ctx: &Context<'_>, theirs: &[Vec<Verdict>]) -> Block {
    let cpus = ctx.others.len() + 1;
    let per_verdict: Vec<String> = ctx
        .verdicts
        .iter()
        .map(|v| {
            let held = theirs
                .iter()
                .filter(|t| verdicts::on(t, v.claim).is_some_and(|o| o.outcome == v.outcome))
                .count();
            format!("“{}”: {} on {} of {cpus} CPUs", v.claim, v.outcome, held + 1)
        })
        .collect();
    Block::Paragraph(format!(
        "Each verdict here, and on how many CPUs it came out the same: {}.",
        per_verdict.join("; ")
    ))
}

/// How many bands (counted on the first diff) have their winner in the tie group on every
/// CPU, and where the winners differ.
fn bands_across(others: &[Run<'_>], diffs: &[Diff]) -> Block {
    let bands = diffs.first().map_or(0, |d| d.bands.len());
    let everywhere = (0..bands)
        .filter(|&i| {
            diffs.iter().all(|d| d.bands.get(i).is_some_and(|b| b.crossed.0 && b.crossed.1))
        })
        .count();
    let apart: Vec<String> = diffs
        .iter()
        .zip(others)
        .flat_map(|(d, run)| {
            d.bands.iter().filter(|b| !(b.crossed.0 && b.crossed.1)).map(move |b| {
                format!(
                    "{} {}: `{}` here, `{}` on {}",
                    b.series,
                    b.band,
                    b.winners.0,
                    b.winners.1,
                    run.platform().kind()
                )
            })
        })
        .collect();
    Block::Paragraph(format!(
        "Band winners: of the {bands} bands compared with the first run above, {everywhere} have their winner in the tie group on every CPU{}.",
        if apart.is_empty() { String::new() } else { format!("; where they differ: {}", apart.join("; ")) }
    ))
}
