//! Charts: a plain description of each figure (panels of lines, bars or strips, and a
//! legend), drawn with plotters twice, to SVG and to PNG, with the bundled DejaVu Sans so
//! no system font is needed.
//!
//! Line panels are log–log. Each series is one queue: its colour is its structure's
//! family, its marker tells structures of one family apart, and its line is solid for
//! duplicate insertion and dashed for decrease-key. Vertical bars are the p25–p75 spread;
//! a cross on the top edge marks a size where the queue was cut off (not timed).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use anyhow::{ensure, Result};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use pqlab_queues::Strategy;

use crate::analysis;
use crate::format;
use crate::results::{Kind, Row};

/// The bundled font (DejaVu Sans; its license is beside it in `harness/assets/`).
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// The family name every text style uses; registered to the bundled font.
const FONT: &str = "sans-serif";

/// Width of the legend column, in pixels.
const LEGEND_WIDTH: u32 = 300;

/// Registers the bundled font once per process.
fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    ensure!(ok, "the bundled font (DejaVu Sans) could not be loaded");
    Ok(())
}

/// One chart file (`<name>.svg` and `<name>.png`).
#[derive(Clone, Debug)]
pub struct Figure {
    /// The file stem.
    pub name: &'static str,
    /// The title drawn on top.
    pub title: String,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Panels, side by side.
    pub panels: Vec<Panel>,
    /// The legend column on the right (none when empty).
    pub legend: Legend,
}

/// One plotting area.
#[derive(Clone, Debug)]
pub enum Panel {
    /// Series of points on log–log axes.
    Lines(Lines),
    /// Horizontal bars, one per category.
    Bars(Bars),
    /// Points on a log axis, one row per category.
    Strips(Strips),
}

/// Series on log–log axes.
#[derive(Clone, Debug)]
pub struct Lines {
    /// The panel's caption.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// The y axis description.
    pub y_label: String,
    /// How y tick labels are printed.
    pub y_format: fn(f64) -> String,
    /// A horizontal rule (y = 1 on ratio charts).
    pub rule: Option<f64>,
    /// The series.
    pub series: Vec<Series>,
}

/// One line.
#[derive(Clone, Debug)]
pub struct Series {
    /// How it is drawn.
    pub style: Style,
    /// Its points; drawn in order of x.
    pub points: Vec<Point>,
    /// Sizes where it was cut off: drawn as crosses on the top edge.
    pub cut_offs: Vec<f64>,
}

/// A point with its spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The frontier size.
    pub x: f64,
    /// The median.
    pub y: f64,
    /// The bottom of the spread bar.
    pub lo: f64,
    /// The top of the spread bar.
    pub hi: f64,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The colour (the queue's family).
    pub color: RGBColor,
    /// Dashed (decrease-key) or solid.
    pub dashed: bool,
    /// The point marker.
    pub marker: Marker,
}

/// Point markers, in the order structures of one family get them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled triangle.
    Triangle,
    /// A filled square.
    Square,
    /// A filled diamond.
    Diamond,
    /// A filled triangle pointing down.
    Down,
}

const MARKERS: [Marker; 5] =
    [Marker::Circle, Marker::Triangle, Marker::Square, Marker::Diamond, Marker::Down];

impl Marker {
    /// The outline in pixels around the marker's centre (y grows downward).
    fn outline(self) -> Vec<(i32, i32)> {
        match self {
            Marker::Circle => (0..12)
                .map(|i| {
                    let angle = f64::from(i) * std::f64::consts::PI / 6.0;
                    ((4.0 * angle.cos()).round() as i32, (4.0 * angle.sin()).round() as i32)
                })
                .collect(),
            Marker::Triangle => vec![(0, -4), (4, 3), (-4, 3)],
            Marker::Square => vec![(-3, -3), (3, -3), (3, 3), (-3, 3)],
            Marker::Diamond => vec![(0, -5), (4, 0), (0, 5), (-4, 0)],
            Marker::Down => vec![(0, 4), (4, -3), (-4, -3)],
        }
    }
}

/// A marker element at `at`, in chart coordinates or in pixels. (A macro: plotters does
/// not export the composed element's type, so a function could not name it.)
macro_rules! marker {
    ($marker:expr, $at:expr, $color:expr) => {
        EmptyElement::at($at) + Polygon::new($marker.outline(), $color.filled())
    };
}

/// Horizontal bars starting at 1 (ratios).
#[derive(Clone, Debug)]
pub struct Bars {
    /// The panel's caption.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// The bars, top to bottom.
    pub bars: Vec<Bar>,
}

/// One bar.
#[derive(Clone, Debug)]
pub struct Bar {
    /// The category, on the y axis.
    pub category: String,
    /// The bar's end (it starts at 1).
    pub value: f64,
    /// Its colour.
    pub color: RGBColor,
    /// Written to its right.
    pub text: String,
}

/// Points on a log axis, one row per category.
#[derive(Clone, Debug)]
pub struct Strips {
    /// The panel's caption.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// The rows, top to bottom.
    pub strips: Vec<Strip>,
}

/// One row of points.
#[derive(Clone, Debug)]
pub struct Strip {
    /// The category, on the y axis.
    pub label: String,
    /// The values.
    pub points: Vec<f64>,
    /// Their colour.
    pub color: RGBColor,
}

/// The legend column: entries grouped under headings, then notes.
#[derive(Clone, Debug, Default)]
pub struct Legend {
    /// `(group, label, style)`, grouped in order of appearance.
    pub entries: Vec<(String, String, Style)>,
    /// Lines printed under the entries (what solid, dashed, bars and crosses mean).
    pub notes: Vec<String>,
}

/// Colours for queue families, distinct in print; the palette wraps past its end.
const PALETTE: [RGBColor; 15] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
    RGBColor(0, 128, 128),
    RGBColor(255, 187, 120),
    RGBColor(152, 223, 138),
    RGBColor(174, 199, 232),
];

/// Peers' colour (other crates' A*).
const PEER: RGBColor = RGBColor(110, 110, 110);

/// The style of pqlab's fastest queue per workload (a colour no family gets).
pub const FASTEST: Style =
    Style { color: RGBColor(190, 0, 110), dashed: false, marker: Marker::Diamond };

/// The style of a series the rows never named.
const NEUTRAL: Style = Style { color: PEER, dashed: false, marker: Marker::Circle };

/// Every queue's style and legend group, fixed for one report so a queue looks the same
/// in every chart.
#[derive(Clone, Debug, Default)]
pub struct Palette {
    /// Queue id -> (group rank, group, style); legends list groups by rank.
    styles: BTreeMap<String, (usize, String, Style)>,
}

impl Palette {
    /// Styles for every queue, peer and oracle in `rows`: queue families get palette
    /// colours in alphabetical order (ignoring case), structures within a family get
    /// markers in alphabetical order, decrease-key is dashed; peers are grey and come
    /// after the queues, the oracle is black and comes last.
    pub fn new(rows: &[Row]) -> Palette {
        let mut families: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        let mut peers = BTreeSet::new();
        for row in rows {
            match row.kind {
                Kind::Peer => {
                    peers.insert(row.queue.as_str());
                }
                Kind::Oracle => {}
                _ => {
                    families
                        .entry(&row.queue_family)
                        .or_default()
                        .insert(analysis::structure(&row.queue));
                }
            }
        }
        let mut order: Vec<&str> = families.keys().copied().collect();
        order.sort_by_key(|family| family.to_lowercase());
        let mut styles = BTreeMap::new();
        for row in rows.iter().filter(|r| !matches!(r.kind, Kind::Peer | Kind::Oracle)) {
            let rank = order.iter().position(|f| *f == row.queue_family).unwrap_or(0);
            let structure = families[row.queue_family.as_str()]
                .iter()
                .position(|s| *s == analysis::structure(&row.queue))
                .unwrap_or(0);
            let style = Style {
                color: color(rank),
                dashed: analysis::strategy(row) == Some(Strategy::DecreaseKey),
                marker: MARKERS[structure % MARKERS.len()],
            };
            styles.entry(row.queue.clone()).or_insert((rank, row.queue_family.clone(), style));
        }
        for (i, peer) in peers.iter().enumerate() {
            let style = Style { color: PEER, dashed: false, marker: MARKERS[i % MARKERS.len()] };
            styles.insert((*peer).to_owned(), (order.len(), "other crates' A*".into(), style));
        }
        let oracle = Style { color: BLACK, dashed: true, marker: Marker::Square };
        styles.insert("oracle".into(), (order.len() + 1, "floor".into(), oracle));
        Palette { styles }
    }

    /// The style of `queue` (a neutral one for a queue the rows never named).
    pub fn style(&self, queue: &str) -> Style {
        self.styles.get(queue).map_or(NEUTRAL, |(_, _, style)| *style)
    }

    /// A legend of `(queue, label)` entries, drawn in the queue's style and grouped by
    /// family in palette order.
    pub fn legend<'q>(
        &self,
        queues: impl IntoIterator<Item = (&'q str, String)>,
        notes: &[&str],
    ) -> Legend {
        let mut ranked: Vec<(usize, String, String, Style)> = queues
            .into_iter()
            .map(|(queue, label)| {
                let (rank, group, style) = self.styles.get(queue).cloned().unwrap_or((
                    usize::MAX,
                    "other".into(),
                    NEUTRAL,
                ));
                (rank, group, label, style)
            })
            .collect();
        ranked.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
        ranked.dedup();
        Legend {
            entries: ranked
                .into_iter()
                .map(|(_, group, label, style)| (group, label, style))
                .collect(),
            notes: notes.iter().map(|n| (*n).to_owned()).collect(),
        }
    }
}

/// The `i`th palette colour (wrapping), for charts coloured by something else than the
/// queue family.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A figure's SVG text and PNG bytes.
pub fn render(figure: &Figure) -> Result<(String, Vec<u8>)> {
    register_font()?;
    let (width, height) = figure.size;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, figure.size).into_drawing_area();
        draw(&root, figure).map_err(|e| anyhow::anyhow!("drawing {}.svg: {e}", figure.name))?;
    }
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, figure.size).into_drawing_area();
        draw(&root, figure).map_err(|e| anyhow::anyhow!("drawing {}.png: {e}", figure.name))?;
    }
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header()?.write_image_data(&pixels)?;
    }
    Ok((svg, png))
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let body = root.titled(&figure.title, (FONT, 22))?;
    let (width, _) = body.dim_in_pixel();
    let (plots, legend) = if figure.legend.entries.is_empty() && figure.legend.notes.is_empty() {
        (body, None)
    } else {
        let (plots, legend) = body.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
        (plots, Some(legend))
    };
    for (area, panel) in
        plots.split_evenly((1, figure.panels.len().max(1))).iter().zip(&figure.panels)
    {
        match panel {
            Panel::Lines(lines) => draw_lines(area, lines)?,
            Panel::Bars(bars) => draw_bars(area, bars)?,
            Panel::Strips(strips) => draw_strips(area, strips)?,
        }
    }
    if let Some(area) = legend {
        draw_legend(&area, &figure.legend)?;
    }
    root.present()
}

/// A log axis range covering `values` with a little room on both sides, at least a
/// factor of 1.5 wide.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi == 0.0 {
        return 1.0..10.0;
    }
    let widen = (1.5 / (hi / lo)).max(1.0).sqrt();
    lo / widen / 1.1..hi * widen * 1.1
}

/// A log axis over `range` with labels at 1, 2 and 5 times powers of ten (1, 1.5, 2, 3,
/// 5 and 7 when the range is shorter than a decade and a half; powers of ten alone beyond
/// five decades), and light lines at every integer multiple.
fn log_axis(range: std::ops::Range<f64>) -> WithKeyPoints<LogCoord<f64>> {
    let decades = (range.end / range.start).log10();
    let multiples: &[f64] = match decades {
        d if d > 5.0 => &[1.0],
        d if d > 1.5 => &[1.0, 2.0, 5.0],
        _ => &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
    };
    let points = |multiples: &[f64]| -> Vec<f64> {
        let first = range.start.log10().floor() as i32;
        let last = range.end.log10().ceil() as i32;
        (first..=last)
            .flat_map(|k| multiples.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| range.contains(v))
            .collect()
    };
    let light: Vec<f64> = (1..10).map(f64::from).collect();
    range.clone().log_scale().with_key_points(points(multiples)).with_light_points(points(&light))
}

/// A chart builder on `area`, with `title` as caption unless it is empty.
fn builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder.margin(12);
    if !title.is_empty() {
        builder.caption(title, (FONT, 17));
    }
    builder
}

fn draw_lines<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Lines) -> Drawn<DB> {
    let points = || panel.series.iter().flat_map(|s| s.points.iter());
    let cut_offs = || panel.series.iter().flat_map(|s| s.cut_offs.iter().copied());
    let x = log_range(points().map(|p| p.x).chain(cut_offs()));
    let mut y = log_range(points().flat_map(|p| [p.y, p.lo, p.hi]).chain(panel.rule));
    if cut_offs().next().is_some() {
        y.end *= 1.5; // headroom for the cut-off crosses
    }
    let top = y.end / 1.2;
    let mut chart = builder(area, &panel.title)
        .x_label_area_size(46)
        .y_label_area_size(74)
        .build_cartesian_2d(log_axis(x.clone()), log_axis(y))?;
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .x_label_formatter(&|v| format::short(*v))
        .y_label_formatter(&|v| (panel.y_format)(*v))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    if let Some(rule) = panel.rule {
        chart.draw_series(LineSeries::new(
            [(x.start, rule), (x.end, rule)],
            BLACK.stroke_width(1),
        ))?;
    }
    for series in &panel.series {
        let color = series.style.color;
        let mut line: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x, p.y)).collect();
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.draw_series(series.points.iter().filter(|p| p.lo < p.hi).map(|p| {
            PathElement::new(vec![(p.x, p.lo), (p.x, p.hi)], color.mix(0.55).stroke_width(1))
        }))?;
        let stroke = color.stroke_width(2);
        if series.style.dashed {
            chart.draw_series(DashedLineSeries::new(line.clone(), 7, 5, stroke))?;
        } else {
            chart.draw_series(LineSeries::new(line.iter().copied(), stroke))?;
        }
        chart.draw_series(line.iter().map(|&at| marker!(series.style.marker, at, color)))?;
        chart.draw_series(
            series.cut_offs.iter().map(|&x| Cross::new((x, top), 6, color.stroke_width(3))),
        )?;
    }
    Ok(())
}

/// The y range of `n` categories, one unit each, the first at the top (row `n - 1`).
fn category_range(n: usize) -> std::ops::Range<f64> {
    -0.5..n as f64 - 0.5
}

/// The label of the category drawn at height `y` (rows count from the bottom); empty
/// between rows.
fn category_label(labels: &[&str], y: f64) -> String {
    let row = y.round();
    if (y - row).abs() > 1e-6 || row < 0.0 {
        return String::new();
    }
    labels.len().checked_sub(1 + row as usize).map_or(String::new(), |i| labels[i].to_owned())
}

/// Room for the longest category label, in pixels.
fn label_width(labels: &[&str]) -> u32 {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    24 + 8 * longest as u32
}

fn draw_bars<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Bars) -> Drawn<DB> {
    let labels: Vec<&str> = panel.bars.iter().map(|b| b.category.as_str()).collect();
    let longest = panel.bars.iter().map(|b| b.value).fold(1.0f64, f64::max);
    // The bars take at most 45% of the width: their texts need the rest.
    let x_end = 1.0 + ((longest - 1.0) / 0.45).max(0.1);
    let mut chart = builder(area, &panel.title)
        .x_label_area_size(46)
        .y_label_area_size(label_width(&labels))
        .build_cartesian_2d(1.0..x_end, category_range(labels.len()))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(panel.x_label.as_str())
        .x_label_formatter(&|v| format::axis_ratio(*v))
        .y_label_formatter(&|v| category_label(&labels, *v))
        .y_labels(labels.len())
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .light_line_style(RGBColor(238, 238, 238))
        .draw()?;
    for (i, bar) in panel.bars.iter().enumerate() {
        let row = (labels.len() - 1 - i) as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(1.0, row - 0.32), (bar.value, row + 0.32)],
            bar.color.mix(0.85).filled(),
        )))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((bar.value, row)) + Text::new(bar.text.clone(), (8, -7), (FONT, 13)),
        ))?;
    }
    Ok(())
}

fn draw_strips<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Strips) -> Drawn<DB> {
    let labels: Vec<&str> = panel.strips.iter().map(|s| s.label.as_str()).collect();
    let x = log_range(panel.strips.iter().flat_map(|s| s.points.iter().copied()));
    let mut chart = builder(area, &panel.title)
        .x_label_area_size(46)
        .y_label_area_size(label_width(&labels))
        .build_cartesian_2d(log_axis(x), category_range(labels.len()))?;
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .x_label_formatter(&|v| format::short(*v))
        .y_label_formatter(&|v| category_label(&labels, *v))
        .y_labels(labels.len())
        .y_max_light_lines(0)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .light_line_style(RGBColor(238, 238, 238))
        .draw()?;
    for (i, strip) in panel.strips.iter().enumerate() {
        let row = (labels.len() - 1 - i) as f64;
        chart.draw_series(
            strip.points.iter().map(|&v| Circle::new((v, row), 5, strip.color.mix(0.75).filled())),
        )?;
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, legend: &Legend) -> Drawn<DB> {
    let (_, height) = area.dim_in_pixel();
    let groups = legend.entries.iter().map(|e| &e.0).collect::<BTreeSet<_>>().len();
    let lines = legend.entries.len() + groups + legend.notes.len() + 1;
    let step = ((height as usize).saturating_sub(20) / lines.max(1)).clamp(11, 19) as i32;
    let font = (step - 4).clamp(9, 14);
    let text = |s: &str, at: (i32, i32), color: RGBColor| {
        area.draw(&Text::new(s.to_owned(), at, (FONT, font).into_font().color(&color)))
    };
    let mut y = 16;
    let mut group: Option<&str> = None;
    for (name, label, style) in &legend.entries {
        if group != Some(name.as_str()) {
            group = Some(name);
            text(name, (8, y), style.color)?;
            y += step;
        }
        let sample = vec![(18, y + font / 2), (50, y + font / 2)];
        if style.dashed {
            area.draw(&DashedPathElement::new(sample, 6, 4, style.color.stroke_width(2)))?;
        } else {
            area.draw(&PathElement::new(sample, style.color.stroke_width(2)))?;
        }
        area.draw(&marker!(style.marker, (34, y + font / 2), style.color))?;
        text(label, (58, y), BLACK)?;
        y += step;
    }
    y += step / 2;
    for note in &legend.notes {
        text(note, (8, y), RGBColor(60, 60, 60))?;
        y += step;
    }
    Ok(())
}
