//! How the generated maps stand for real ones: frontier sizes beside the Moving AI maps'.

use pqlab_queues::registry::BASELINE;

use crate::format::count;
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Row;
use crate::search::Series;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut blocks = vec![Block::Heading(2, "How the generated maps stand for real ones".into())];
    blocks.extend(charts(ctx, Section::Calibration));
    let mut rows = Vec::new();
    for real in [false, true] {
        let sizes: Vec<&Row> = run
            .workloads
            .iter()
            .filter(|w| Series::OCTILE.admits(w) && w.real() == real)
            .filter_map(|w| w.ok(BASELINE))
            .filter(|r| r.open_max > 0.0)
            .collect();
        if sizes.is_empty() {
            continue;
        }
        let q = |f: fn(&Row) -> f64| {
            let v: Vec<f64> = sizes.iter().map(|r| f(r)).collect();
            (crate::results::quantile(&v, 0.5), v.iter().copied().fold(0.0, f64::max))
        };
        let (p50, _) = q(|r| r.open_p50);
        let (p90, _) = q(|r| r.open_p90);
        let (p99, _) = q(|r| r.open_p99);
        let (_, max) = q(|r| r.open_max);
        rows.push(vec![
            if real { "Moving AI maps".into() } else { "generated workloads".into() },
            sizes.len().to_string(),
            count(p50),
            count(p90),
            count(p99),
            count(max),
        ]);
    }
    blocks.push(Block::Paragraph(
        "Octile A* frontier sizes (most open cells per search): per workload the median, p90, \
         p99 and largest over its searches; here the median of those over the workloads, and \
         the largest. Obstacle maps give octile frontiers below about 7,000 open cells even at \
         2048² (the Moving AI maps' largest is about 6,000); the generated specs reach the \
         bands above 10,000 open cells with octile A* on weighted terrain only (`rugged`: \
         scattered rough cells; `marsh`: lakes of costly ground), where the octile estimate \
         (scaled by the cheapest cell) is far below the true cost and the search floods. No \
         obstacle map, generated or real, reaches those bands with octile A*."
            .into(),
    ));
    if !rows.is_empty() {
        blocks.push(Block::Table(
            ["maps", "workloads", "median", "p90", "p99", "largest"].map(String::from).to_vec(),
            rows,
        ));
    }
    if !run.rows.iter().any(|r| r.real) {
        blocks.push(Block::Paragraph(
            "This run has no Moving AI maps: `PQLAB_MAPS=../shared/movingai cargo bench` adds them; \
             the committed runs include one such run."
                .into(),
        ));
    }
    blocks
}
