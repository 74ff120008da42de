//! Decrease-key against duplicates, and how often decrease-key happens.

use pqlab_queues::registry::BASELINE;

use crate::analysis::findings::INDEXED_BINARY_HEAP;
use crate::analysis::rank::versus;
use crate::analysis::Run;
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Kind;
use crate::search::Series;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut blocks = vec![Block::Heading(2, "Decrease-key against duplicates".into())];
    blocks.extend(charts(ctx, Section::Strategies));
    let workloads: Vec<_> = run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect();
    let rows: Vec<Vec<String>> = ctx
        .findings
        .strategy_pairs()
        .iter()
        .filter_map(|(structure, dup, dk)| {
            let v = versus(&workloads, dk, dup)?;
            Some(vec![format!("`{structure}`"), v.reads(), v.n.to_string()])
        })
        .collect();
    if !rows.is_empty() {
        blocks.push(Block::Table(
            ["structure", "decrease-key takes (duplicates = 1)", "workloads"]
                .map(String::from)
                .to_vec(),
            rows,
        ));
    }
    // The binary heap the seeds mean by "duplicates" is the library one: std's, against
    // the indexed binary heap with decrease-key, directly.
    if let Some(v) = versus(&workloads, INDEXED_BINARY_HEAP, BASELINE) {
        blocks.push(Block::Paragraph(format!(
            "The seeds' own comparison, a library binary heap with duplicates against an indexed \
             one with decrease-key: `{INDEXED_BINARY_HEAP}` takes {} the time of `{BASELINE}` \
             over {} octile workloads.",
            v.reads(),
            v.n
        )));
    }
    blocks.extend(decrease_key_share(run));
    blocks
}

/// How often decrease-key happens, by heuristic: the number that decides duplicates
/// against decrease-key. Medians over each heuristic's A* workloads (flat store, fine
/// costs) of the decrease-keys per key update (`decrease_keys / (pushes +
/// decrease_keys)`) of `INDEXED_BINARY_HEAP`, and of the stale pops per pop of std's
/// heap with duplicates.
fn decrease_key_share(run: &Run<'_>) -> Vec<Block> {
    let mut by: std::collections::BTreeMap<String, (Vec<f64>, Vec<f64>)> = Default::default();
    for w in run.of(Kind::Astar) {
        let Some(h) = w.heuristic() else { continue };
        let entry = by.entry(h.to_string()).or_default();
        if let Some(dk) = w.ok(INDEXED_BINARY_HEAP).filter(|r| r.pushes + r.decrease_keys > 0.0) {
            entry.0.push(dk.decrease_keys / (dk.pushes + dk.decrease_keys));
        }
        if let Some(dup) = w.ok(BASELINE).filter(|r| r.pops > 0.0) {
            entry.1.push(dup.stale_pops / dup.pops);
        }
    }
    let rows: Vec<Vec<String>> = by
        .into_iter()
        .filter(|(_, (dk, dup))| !dk.is_empty() || !dup.is_empty())
        .map(|(h, (dk, dup))| {
            let share = |v: &[f64]| {
                if v.is_empty() {
                    "–".to_owned()
                } else {
                    format!("{:.1}%", 100.0 * crate::results::quantile(v, 0.5))
                }
            };
            vec![h, dk.len().max(dup.len()).to_string(), share(&dk), share(&dup)]
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Paragraph(
            "How often decrease-key actually happens, by heuristic (medians over the \
             workloads): the share of key updates that lowered a key already in the frontier \
             (with the indexed binary heap), and the share of pops that were stale duplicates \
             (with std's heap)."
                .into(),
        ),
        Block::Table(
            ["heuristic", "workloads", "decrease-keys per key update", "stale pops per pop"]
                .map(String::from)
                .to_vec(),
            rows,
        ),
    ]
}
