//! Drawing: a plain description of each figure (panels of points, bars or ranges, and a
//! legend), drawn with plotters twice, to SVG and to PNG, with the bundled DejaVu Sans so no
//! system font is needed.
//!
//! Made for reading at the page's width: text of 15 px and more, points with their p25–p75
//! bar, one colour and marker per named point set from a colour-blind-safe palette (Okabe and
//! Ito), everything else grey. In the SVG each point set is a group whose `<title>` names it,
//! so hovering names it.

use std::sync::OnceLock;

use anyhow::{ensure, Result};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::format;
use crate::results::Spread;

/// The bundled font (DejaVu Sans; its license is beside it in `harness/assets/`).
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// The family name every text style uses; registered to the bundled font.
const FONT: &str = "sans-serif";

/// Text sizes in pixels: figures are drawn 1,600 px wide and shown at about 1,000, so
/// 15 px labels read as 10-point text.
const TITLE: u32 = 30;
const CAPTION: u32 = 22;
const AXIS: u32 = 20;
const LABEL: u32 = 18;

/// The margin around every panel, in pixels: a layout choice, not a measurement.
const MARGIN: u32 = 14;

/// The room for the x axis' labels and description, below the plot, in pixels: a layout
/// choice, not a measurement.
const X_LABELS: u32 = 56;

/// The room for the y axis' labels and description of a points panel, left of the plot,
/// in pixels: a layout choice, not a measurement.
const Y_LABELS: u32 = 96;

/// Registers the bundled font once per process.
fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    ensure!(ok, "the bundled font (DejaVu Sans) could not be loaded");
    Ok(())
}

/// Okabe and Ito's colour-blind-safe palette, black last (kept for the baseline).
pub const COLORS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(140, 120, 20),
];

/// The baseline's colour.
pub const BLACK_INK: RGBColor = RGBColor(0, 0, 0);
/// Context: point sets drawn for comparison, not named.
pub const GREY: RGBColor = RGBColor(190, 190, 190);
/// Text that is not a point set's own.
const INK: RGBColor = RGBColor(40, 40, 40);

/// Point markers; a point set's marker and colour together tell it apart.
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

/// Markers in the order point sets get them.
pub const MARKERS: [Marker; 5] =
    [Marker::Circle, Marker::Square, Marker::Triangle, Marker::Diamond, Marker::Down];

impl Marker {
    /// The outline in pixels around the marker's centre (y grows downward), at `r`.
    fn outline(self, r: i32) -> Vec<(i32, i32)> {
        match self {
            Marker::Circle => (0..16)
                .map(|i| {
                    let angle = f64::from(i) * std::f64::consts::PI / 8.0;
                    (
                        (f64::from(r) * angle.cos()).round() as i32,
                        (f64::from(r) * angle.sin()).round() as i32,
                    )
                })
                .collect(),
            Marker::Triangle => vec![(0, -r - 1), (r + 1, r), (-r - 1, r)],
            Marker::Square => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
            Marker::Diamond => vec![(0, -r - 2), (r + 1, 0), (0, r + 2), (-r - 1, 0)],
            Marker::Down => vec![(0, r + 1), (r + 1, -r), (-r - 1, -r)],
        }
    }
}

/// A marker element at `at`, in chart coordinates or in pixels. (A macro: plotters does
/// not export the composed element's type, so a function could not name it.)
macro_rules! marker {
    ($marker:expr, $r:expr, $at:expr, $color:expr) => {
        EmptyElement::at($at) + Polygon::new($marker.outline($r), $color.filled())
    };
}

/// How a point set is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Its colour.
    pub color: RGBColor,
    /// Its marker.
    pub marker: Marker,
    /// Named and drawn strong, or context drawn small and grey.
    pub strong: bool,
}

impl Style {
    /// A context point set: small grey circles.
    pub const CONTEXT: Style = Style { color: GREY, marker: Marker::Circle, strong: false };
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
    /// Panels per row (they fill rows left to right).
    pub columns: usize,
    /// The panels.
    pub panels: Vec<Panel>,
    /// The legend column on the right (none when empty).
    pub legend: Legend,
}

/// One plotting area.
#[derive(Clone, Debug)]
pub enum Panel {
    /// Points (with bars) on log or linear axes.
    Points(Points),
    /// Horizontal bars, one per category, sorted as given.
    Bars(Bars),
}

/// Points on two axes.
#[derive(Clone, Debug)]
pub struct Points {
    /// The panel's caption.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// The y axis description.
    pub y_label: String,
    /// How x tick labels are printed (both axes are logarithmic).
    pub x_format: fn(f64) -> String,
    /// How y tick labels are printed.
    pub y_format: fn(f64) -> String,
    /// A horizontal rule (y = 1 on ratio charts).
    pub rule: Option<f64>,
    /// The point sets; context ones first, so the named ones are drawn on top.
    pub sets: Vec<PointSet>,
    /// Queues cut off, each on its own row of crosses above the plot, named.
    pub cut_offs: Vec<CutOff>,
}

/// One named set of points, drawn in one style (a chart's "series"; the word is kept for
/// the lab's search series, [`crate::search::Series`]).
#[derive(Clone, Debug)]
pub struct PointSet {
    /// Its name (the hover title; the direct label when `label` is set).
    pub name: String,
    /// How it is drawn.
    pub style: Style,
    /// Its points.
    pub points: Vec<Point>,
    /// Whether to join its points by x (only for points of one kind of measurement, such
    /// as the held sizes of one queue).
    pub join: bool,
    /// Whether to write its name beside its last point.
    pub label: bool,
}

/// A point with its spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// x.
    pub x: f64,
    /// y: the marker at the middle, the bar from the low end to the high one (none when
    /// they meet).
    pub y: Spread,
}

impl Point {
    /// A point without a bar.
    pub fn at(x: f64, y: f64) -> Point {
        Point { x, y: Spread::exact(y) }
    }
}

/// A queue cut off at some sizes.
#[derive(Clone, Debug)]
pub struct CutOff {
    /// The queue's name.
    pub name: String,
    /// Its style.
    pub style: Style,
    /// The x of every workload where it was cut off.
    pub at: Vec<f64>,
}

/// Horizontal bars on a log axis.
#[derive(Clone, Debug)]
pub struct Bars {
    /// The panel's caption.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// How x tick labels are printed.
    pub x_format: fn(f64) -> String,
    /// A vertical rule (x = 1 on ratio charts).
    pub rule: Option<f64>,
    /// The bars, top to bottom.
    pub bars: Vec<Bar>,
}

/// One bar: from the rule (or the axis start) to `value`, with an interval.
#[derive(Clone, Debug)]
pub struct Bar {
    /// The category, on the y axis.
    pub label: String,
    /// The bar's end.
    pub value: f64,
    /// The interval, if any: a whisker from its low end to its high one (its middle is
    /// not drawn; `value` is the bar's end).
    pub interval: Option<Spread>,
    /// Its style (colour; `strong` draws it solid, else light).
    pub style: Style,
    /// Written to its right.
    pub text: String,
}

/// The legend column: entries, then notes.
#[derive(Clone, Debug, Default)]
pub struct Legend {
    /// `(label, style)`.
    pub entries: Vec<(String, Style)>,
    /// Lines printed under the entries.
    pub notes: Vec<String>,
}

/// A figure's SVG text and PNG bytes.
pub fn render(figure: &Figure) -> Result<(String, Vec<u8>)> {
    register_font()?;
    let (width, height) = figure.size;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, figure.size).into_drawing_area();
        draw(&root, figure, true)
            .map_err(|e| anyhow::anyhow!("drawing {}.svg: {e}", figure.name))?;
    }
    let svg = titles(&svg);
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, figure.size).into_drawing_area();
        draw(&root, figure, false)
            .map_err(|e| anyhow::anyhow!("drawing {}.png: {e}", figure.name))?;
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

/// The marks around a point set in the SVG: invisible texts that [`titles`] turns into a
/// `<g>` with a `<title>`.
const OPEN: &str = "\u{2063}open:";
const CLOSE: &str = "\u{2063}close";

/// Turns the point-set marks of an SVG into groups with titles.
fn titles(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        let Some(end) = rest[start..].find("</text>").map(|e| start + e + "</text>".len()) else {
            break;
        };
        let element = &rest[start..end];
        out.push_str(&rest[..start]);
        if let Some(name) = element.split(OPEN).nth(1).and_then(|t| t.split('<').next()) {
            out.push_str(&format!("<g><title>{name}</title>"));
        } else if element.contains(CLOSE) {
            out.push_str("</g>");
        } else {
            out.push_str(element);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
    svg: bool,
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let body = root.titled(&figure.title, (FONT, TITLE))?;
    let (width, _) = body.dim_in_pixel();
    let legend_width =
        if figure.legend.entries.is_empty() && figure.legend.notes.is_empty() { 0 } else { 360 };
    let (plots, legend) = body.split_horizontally(width.saturating_sub(legend_width));
    let columns = figure.columns.max(1);
    let rows = figure.panels.len().div_ceil(columns).max(1);
    for (area, panel) in plots.split_evenly((rows, columns)).iter().zip(&figure.panels) {
        match panel {
            Panel::Points(points) => draw_points(area, points, svg)?,
            Panel::Bars(bars) => draw_bars(area, bars, svg)?,
        }
    }
    if legend_width > 0 {
        // A figure of bars alone shows its entries as bars; else as a line and a marker.
        let bars = figure.panels.iter().all(|p| matches!(p, Panel::Bars(_)));
        draw_legend(&legend, &figure.legend, bars)?;
    }
    root.present()
}

/// A log axis range covering `values` with a little room, at least a factor of 1.5 wide.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi == 0.0 {
        return 1.0..10.0;
    }
    let widen = (1.5 / (hi / lo)).max(1.0).sqrt();
    lo / widen / 1.15..hi * widen * 1.15
}

/// Label multiples per decade, densest first: the sets a log axis chooses from.
const MULTIPLES: [&[f64]; 5] = [
    &[1.0, 1.1, 1.2, 1.3, 1.5, 1.7, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
    &[1.0, 2.0, 5.0],
    &[1.0, 3.0],
    &[1.0],
];

/// Pixels left clear between two neighbouring axis labels: set by looking at the charts,
/// where `100` and `200` with 31 px between their centres ran together.
const LABEL_AIR: f64 = 8.0;

/// Which way an axis runs, for the room its labels need.
#[derive(Clone, Copy)]
enum Along {
    /// Labels side by side: each needs its width (about 0.6 em a character), printed by
    /// this formatter.
    X(fn(f64) -> String),
    /// Labels stacked: each needs a line.
    Y,
}

/// A log axis over `range`, drawn `pixels` long, labelled at [`label_points`], with light
/// lines at every multiple of a power of ten.
fn log_axis(
    range: std::ops::Range<f64>,
    pixels: f64,
    along: Along,
) -> WithKeyPoints<LogCoord<f64>> {
    let light = multiples_within(&range, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    let labels = label_points(&range, pixels, along);
    range.log_scale().with_key_points(labels).with_light_points(light)
}

/// `multiples` times every power of ten, within `range`, ascending.
fn multiples_within(range: &std::ops::Range<f64>, multiples: &[f64]) -> Vec<f64> {
    let first = range.start.log10().floor() as i32;
    let last = range.end.log10().ceil() as i32;
    (first..=last)
        .flat_map(|k| multiples.iter().map(move |m| m * 10f64.powi(k)))
        .filter(|v| range.contains(v))
        .collect()
}

/// Where a log axis over `range`, drawn `pixels` long, is labelled: at 1, 2 and 5 times
/// powers of ten, more when the range is short, fewer (1 and 3, or powers of ten alone)
/// when it is long or when neighbouring labels would overlap.
fn label_points(range: &std::ops::Range<f64>, pixels: f64, along: Along) -> Vec<f64> {
    let decades = (range.end / range.start).log10();
    let by_range = match decades {
        d if d > 4.0 => 4,
        d if d > 1.5 => 2,
        d if d > 0.5 => 1,
        _ => 0,
    };
    let per_decade = pixels / decades.max(f64::MIN_POSITIVE);
    let room = |v: f64| match along {
        Along::X(format) => format(v).chars().count() as f64 * 0.6 * LABEL as f64,
        Along::Y => LABEL as f64,
    };
    let fits = |labels: &[f64]| {
        labels.windows(2).all(|w| {
            (w[1] / w[0]).log10() * per_decade >= (room(w[0]) + room(w[1])) / 2.0 + LABEL_AIR
        })
    };
    let by_room = (0..MULTIPLES.len())
        .find(|&i| fits(&multiples_within(range, MULTIPLES[i])))
        .unwrap_or(MULTIPLES.len() - 1);
    multiples_within(range, MULTIPLES[by_range.max(by_room)])
}

fn builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder.margin(MARGIN);
    if !title.is_empty() {
        builder.caption(title, (FONT, CAPTION));
    }
    builder
}

/// An invisible mark the SVG post-processing turns into a group (SVG only).
fn mark<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: String, svg: bool) -> Drawn<DB> {
    if svg {
        area.draw(&Text::new(text, (-1000, -1000), (FONT, 1)))?;
    }
    Ok(())
}

/// A points panel's chart: logarithmic on both axes.
type LogChart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>>;

/// A point set's name written beside its last point, in its colour, at a pixel position.
struct DirectLabel {
    name: String,
    color: RGBColor,
    at: (i32, i32),
}

fn draw_points<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Points,
    svg: bool,
) -> Drawn<DB> {
    let points = || panel.sets.iter().flat_map(|s| s.points.iter());
    let xs = points().map(|p| p.x).chain(panel.cut_offs.iter().flat_map(|c| c.at.iter().copied()));
    let x = log_range(xs);
    let mut y = log_range(points().flat_map(|p| [p.y.mid, p.y.low, p.y.high]).chain(panel.rule));
    // Headroom above the points: one row of crosses per cut-off queue.
    let rows = panel.cut_offs.len() as f64;
    let row_factor = (y.end / y.start).powf(0.045);
    y.end *= row_factor.powf(rows + 0.5);
    let mut chart = points_chart(area, panel, &x, &y)?;
    let plot = chart.plotting_area().strip_coord_spec();
    let mut labels = Vec::new();
    for set in &panel.sets {
        labels.extend(draw_set(&mut chart, &plot, set, x.end, svg)?);
    }
    let gap = LABEL as i32 + 3;
    let bottom = chart.plotting_area().get_pixel_range().1.end - gap / 2;
    keep_apart(&mut labels, gap, bottom);
    let (left, top) = area.get_base_pixel();
    for DirectLabel { name, color, at: (px, py) } in labels {
        let style = TextStyle::from((FONT, LABEL).into_font()).color(&color);
        area.draw(&Text::new(name, (px + 10 - left, py - LABEL as i32 / 2 - top), style))?;
    }
    let top_of_points = y.end / row_factor.powf(rows + 0.5);
    draw_cut_offs(&mut chart, &plot, &panel.cut_offs, (x.end, top_of_points, row_factor), svg)
}

/// The chart of a points panel over `x` and `y`, with its mesh, axis labels and rule, and
/// room on the right for the longest direct label.
fn points_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    panel: &Points,
    x: &std::ops::Range<f64>,
    y: &std::ops::Range<f64>,
) -> Result<LogChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    // Room on the right for the longest direct label and cut-off name (about 0.6 em a
    // character).
    let longest = panel.sets.iter().filter(|s| s.label).map(|s| s.name.chars().count()).max();
    let right = longest.map_or(0, |n| 12 + (n as f64 * LABEL as f64 * 0.6) as u32);
    let cut_off = panel.cut_offs.iter().map(|c| cut_off_label(c).chars().count()).max();
    let right = right.max(cut_off.map_or(0, |n| 12 + (n as f64 * CUT_OFF as f64 * 0.6) as u32));
    // The plot's own size: the panel less its margins, caption and label areas.
    let (w, h) = area.dim_in_pixel();
    let caption = if panel.title.is_empty() { 0 } else { CAPTION + MARGIN };
    let plot_w = w.saturating_sub(2 * MARGIN + right + Y_LABELS);
    let plot_h = h.saturating_sub(2 * MARGIN + caption + X_LABELS);
    let mut chart = builder(area, &panel.title)
        .margin_right(MARGIN + right)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(
            log_axis(x.clone(), f64::from(plot_w), Along::X(panel.x_format)),
            log_axis(y.clone(), f64::from(plot_h), Along::Y),
        )?;
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .x_label_formatter(&|v| (panel.x_format)(*v))
        .y_label_formatter(&|v| (panel.y_format)(*v))
        .label_style((FONT, LABEL))
        .axis_desc_style((FONT, AXIS))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    if let Some(rule) = panel.rule {
        chart.draw_series(LineSeries::new(
            [(x.start, rule), (x.end, rule)],
            BLACK.stroke_width(2),
        ))?;
    }
    Ok(chart)
}

/// One point set: its bars, its joining line when asked, its markers; returns its direct
/// label, placed at its last point (no further right than `x_end`), when it has one.
fn draw_set<DB: DrawingBackend>(
    chart: &mut LogChart<'_, DB>,
    plot: &DrawingArea<DB, Shift>,
    set: &PointSet,
    x_end: f64,
    svg: bool,
) -> Result<Option<DirectLabel>, DrawingAreaErrorKind<DB::ErrorType>> {
    mark(plot, format!("{OPEN}{}", set.name), svg)?;
    let color = set.style.color;
    let (r, width) = if set.style.strong { (6, 3) } else { (4, 1) };
    let bar = if set.style.strong { color.mix(0.8) } else { color.mix(0.6) };
    chart.draw_series(set.points.iter().filter(|p| p.y.low < p.y.high).map(|p| {
        PathElement::new(vec![(p.x, p.y.low), (p.x, p.y.high)], bar.stroke_width(width))
    }))?;
    let mut line: Vec<(f64, f64)> = set.points.iter().map(|p| (p.x, p.y.mid)).collect();
    line.sort_by(|a, b| a.0.total_cmp(&b.0));
    if set.join && line.len() > 1 {
        chart.draw_series(LineSeries::new(
            line.iter().copied(),
            color.mix(0.7).stroke_width(width),
        ))?;
    }
    chart.draw_series(line.iter().map(|&at| marker!(set.style.marker, r, at, color)))?;
    let label = line.last().filter(|_| set.label).map(|&(lx, ly)| DirectLabel {
        name: set.name.clone(),
        color,
        at: chart.backend_coord(&(lx.min(x_end), ly)),
    });
    mark(plot, CLOSE.into(), svg)?;
    Ok(label)
}

/// Pushes direct labels apart so none overlaps: down from the top, `gap` pixels a line,
/// then up from `bottom` so none falls below the plot.
fn keep_apart(labels: &mut [DirectLabel], gap: i32, bottom: i32) {
    labels.sort_by_key(|l| l.at.1);
    for i in 1..labels.len() {
        let below = labels[i - 1].at.1 + gap;
        if labels[i].at.1 < below {
            labels[i].at.1 = below;
        }
    }
    let mut floor = bottom;
    for label in labels.iter_mut().rev() {
        label.at.1 = label.at.1.min(floor);
        floor = label.at.1 - gap;
    }
}

/// The cut-offs above the points: row `k` holds queue `k`'s crosses, named at the left
/// (`x_start`); the first row sits just above `top_of_points`, each next `row_factor`
/// higher.
/// The text size of a cut-off row's name, in pixels.
const CUT_OFF: u32 = 15;

/// A cut-off row's name.
fn cut_off_label(cut: &CutOff) -> String {
    format!("× {} cut off", cut.name)
}

fn draw_cut_offs<DB: DrawingBackend>(
    chart: &mut LogChart<'_, DB>,
    plot: &DrawingArea<DB, Shift>,
    cut_offs: &[CutOff],
    (x_end, top_of_points, row_factor): (f64, f64, f64),
    svg: bool,
) -> Drawn<DB> {
    for (k, cut) in cut_offs.iter().enumerate() {
        let row_y = top_of_points * row_factor.powf(k as f64 + 0.8);
        mark(plot, format!("{OPEN}{} (cut off)", cut.name), svg)?;
        let color = cut.style.color;
        chart.draw_series(
            cut.at.iter().map(|&cx| Cross::new((cx, row_y), 7, color.stroke_width(3))),
        )?;
        // Named right of the plot, on its row: inside, the name hid the crosses at the
        // smallest sizes (the arrays in relative-speed).
        let style = TextStyle::from((FONT, CUT_OFF).into_font()).color(&color);
        chart.draw_series(std::iter::once(
            EmptyElement::at((x_end, row_y)) + Text::new(cut_off_label(cut), (10, -8), style),
        ))?;
        mark(plot, CLOSE.into(), svg)?;
    }
    Ok(())
}

/// The label of the category at height `y` (rows count from the bottom); empty between.
fn category_label(labels: &[&str], y: f64) -> String {
    let row = y.round();
    if (y - row).abs() > 1e-6 || row < 0.0 {
        return String::new();
    }
    labels.len().checked_sub(1 + row as usize).map_or(String::new(), |i| labels[i].to_owned())
}

/// The pixels between a bar's end (or its whisker's) and its text.
const TEXT_GAP: f64 = 10.0;

/// The height of one line of a bar's text, in pixels: [`LABEL`] and a little lead.
const LINE: i32 = 22;

/// `text` broken into lines no wider than `width` pixels as `measure` measures them, at
/// the places a bar's text reads on: after `, ` and `≈ `, and before `(`. A piece wider
/// than `width` stays whole, on a line of its own.
fn wrap(text: &str, width: f64, measure: &dyn Fn(&str) -> f64) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let after = |mark: &str| rest.find(mark).map(|at| at + mark.len());
        let before = rest.match_indices(" (").map(|(at, _)| at).find(|&at| at > 0);
        let cut = [after(", "), after("≈ "), before].into_iter().flatten().min();
        let cut = cut.unwrap_or(rest.len());
        pieces.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        let longer = format!("{line}{piece}");
        if line.is_empty() || measure(longer.trim_end()) <= width {
            line = longer;
        } else {
            lines.push(line.trim_end().to_owned());
            line = piece.trim_start().to_owned();
        }
    }
    lines.push(line.trim_end().to_owned());
    lines
}

/// The log axis of a bars panel and each bar's text as lines: the shortest axis from
/// `data` (the bars' values) on which every text fits right of its bar, inside the plot
/// `width` pixels wide, in at most `max_lines` lines (or in as few as the whole width
/// allows). `ends` are where each bar's text starts (its bar's or whisker's end), `texts`
/// the bars' texts.
fn fit_bar_texts(
    data: std::ops::Range<f64>,
    ends: &[f64],
    texts: &[&str],
    width: f64,
    max_lines: usize,
    measure: &dyn Fn(&str) -> f64,
) -> (std::ops::Range<f64>, Vec<Vec<String>>) {
    let room = width - TEXT_GAP;
    let least: Vec<usize> =
        texts.iter().map(|t| wrap(t, room, measure).len().max(max_lines)).collect();
    let span = (data.end / data.start).ln();
    let mut wrapped = Vec::new();
    // Widen the axis by 5% at a time until every text fits, or (a text wider than the
    // plot) up to about 350 times the data's span, where the bars leave the texts the width.
    const WIDEST: i32 = 120;
    let mut end = data.end;
    for step in 0..=WIDEST {
        end = data.start * (span * 1.05f64.powi(step)).exp();
        let at = |v: f64| width * (v / data.start).ln() / (end / data.start).ln();
        wrapped = texts
            .iter()
            .zip(ends)
            .map(|(text, &e)| wrap(text, room - at(e.max(data.start)), measure))
            .collect();
        let fits = wrapped.iter().zip(ends).zip(&least).all(|((lines, &e), &most)| {
            lines.len() <= most
                && lines.iter().all(|l| at(e.max(data.start)) + TEXT_GAP + measure(l) <= width)
        });
        if fits {
            break;
        }
    }
    (data.start..end, wrapped)
}

/// A bar's fill, in the chart and in the legend: solid when strong, else light.
fn bar_fill(style: &Style) -> RGBAColor {
    if style.strong {
        style.color.mix(0.9)
    } else {
        style.color.mix(0.35)
    }
}

/// Where a bars panel's parts go, in data units or pixels.
struct BarLayout {
    /// Where every bar starts: the rule, else the smallest value drawn.
    start: f64,
    /// The width of the label column, ticks included.
    y_labels: u32,
    /// The width of the plot.
    plot_w: u32,
    /// The x axis' range.
    x: std::ops::Range<f64>,
    /// Each bar's text, wrapped in lines.
    lines: Vec<Vec<String>>,
    /// Where each bar's text starts: its bar's or whisker's end.
    ends: Vec<f64>,
}

/// The layout of `panel` (its bars labelled `labels`) in an area of `(area_w, area_h)`
/// pixels, texts measured by `measure`.
fn bar_layout(
    panel: &Bars,
    labels: &[&str],
    (area_w, area_h): (u32, u32),
    measure: &dyn Fn(&str) -> f64,
) -> BarLayout {
    let values = panel.bars.iter().flat_map(|b| {
        [b.value].into_iter().chain(b.interval.map(|i| [i.low, i.high]).into_iter().flatten())
    });
    let data = log_range(values.chain(panel.rule));
    let start = panel.rule.unwrap_or(data.start);
    let n = labels.len();
    // The labels' measured width, and room for the ticks.
    let y_labels = labels.iter().map(|l| measure(l)).fold(0.0, f64::max).ceil() as u32 + 24;
    let plot_w = area_w.saturating_sub(2 * MARGIN + y_labels);
    let caption = if panel.title.is_empty() { 0 } else { CAPTION + 10 };
    let plot_h = area_h.saturating_sub(2 * MARGIN + X_LABELS + caption);
    let row_h = f64::from(plot_h) / n.max(1) as f64;
    let max_lines = ((row_h - 8.0) / f64::from(LINE)).floor().clamp(1.0, 3.0) as usize;
    let ends: Vec<f64> = panel
        .bars
        .iter()
        .map(|b| b.interval.map_or(b.value, |i| i.high).max(b.value).max(start))
        .collect();
    let texts: Vec<&str> = panel.bars.iter().map(|b| b.text.as_str()).collect();
    let (x, lines) = fit_bar_texts(data, &ends, &texts, f64::from(plot_w), max_lines, measure);
    BarLayout { start, y_labels, plot_w, x, lines, ends }
}

/// Draws a bars panel: a row a bar, with its whisker and its text right of it, and the
/// rule.
fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Bars,
    svg: bool,
) -> Drawn<DB> {
    let style = TextStyle::from((FONT, LABEL).into_font()).color(&INK);
    // Measured a few percent wide: a browser may draw the SVG's text in a wider font.
    let measure = |t: &str| {
        area.estimate_text_size(t, &style)
            .map_or(0.6 * LABEL as f64 * t.chars().count() as f64, |(w, _)| f64::from(w))
            * 1.04
    };
    let labels: Vec<&str> = panel.bars.iter().map(|b| b.label.as_str()).collect();
    let n = labels.len();
    let BarLayout { start, y_labels, plot_w, x, lines, ends } =
        bar_layout(panel, &labels, area.dim_in_pixel(), &measure);
    let mut chart = builder(area, &panel.title)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(
            log_axis(x.clone(), f64::from(plot_w), Along::X(panel.x_format)),
            -0.5..n as f64 - 0.5,
        )?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(panel.x_label.as_str())
        .x_label_formatter(&|v| (panel.x_format)(*v))
        .y_label_formatter(&|v| category_label(&labels, *v))
        .y_labels(n)
        .label_style((FONT, LABEL))
        .axis_desc_style((FONT, AXIS))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()?;
    let plot = chart.plotting_area().strip_coord_spec();
    for (i, (bar, lines)) in panel.bars.iter().zip(&lines).enumerate() {
        let row = (n - 1 - i) as f64;
        mark(&plot, format!("{OPEN}{}: {}", bar.label, bar.text), svg)?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(start, row - 0.3), (bar.value, row + 0.3)],
            bar_fill(&bar.style).filled(),
        )))?;
        if let Some(interval) = bar.interval {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(interval.low, row), (interval.high, row)],
                INK.stroke_width(2),
            )))?;
        }
        // The lines centred on the bar (one line's top sits 9 px above its middle).
        let top = -9 - (lines.len() as i32 - 1) * LINE / 2;
        for (k, line) in lines.iter().enumerate() {
            chart.draw_series(std::iter::once(
                EmptyElement::at((ends[i], row))
                    + Text::new(
                        line.clone(),
                        (TEXT_GAP as i32, top + k as i32 * LINE),
                        style.clone(),
                    ),
            ))?;
        }
        mark(&plot, CLOSE.into(), svg)?;
    }
    if let Some(rule) = panel.rule {
        chart.draw_series(LineSeries::new(
            [(rule, -0.5), (rule, n as f64 - 0.5)],
            BLACK.stroke_width(2),
        ))?;
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend: &Legend,
    bars: bool,
) -> Drawn<DB> {
    let (_, height) = area.dim_in_pixel();
    let lines = legend.entries.len() + legend.notes.len() + 1;
    let step = ((height as usize).saturating_sub(30) / lines.max(1)).clamp(16, 28) as i32;
    let font = (step - 6).clamp(14, 19);
    let mut y = 20;
    for (label, style) in &legend.entries {
        let (r, width) = if style.strong { (6, 3) } else { (4, 2) };
        let mid = y + font / 2;
        if bars {
            area.draw(&Rectangle::new([(12, mid - 8), (46, mid + 8)], bar_fill(style).filled()))?;
        } else {
            let line = style.color.stroke_width(width);
            area.draw(&PathElement::new(vec![(12, mid), (46, mid)], line))?;
            area.draw(&marker!(style.marker, r, (29, mid), style.color))?;
        }
        area.draw(&Text::new(label.clone(), (56, y), (FONT, font).into_font().color(&INK)))?;
        y += step;
    }
    y += step / 2;
    for note in &legend.notes {
        area.draw(&Text::new(
            note.clone(),
            (12, y),
            (FONT, font - 1).into_font().color(&RGBColor(70, 70, 70)),
        ))?;
        y += step;
    }
    Ok(())
}

/// A number for an axis tick: `500`, `2k`, `1.5M`.
pub fn axis_count(n: f64) -> String {
    format::short(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_set_marks_become_titled_groups() {
        let svg = format!(
            "<svg><text x=\"-1000\">{OPEN}dary4-dup</text><circle/><text>{CLOSE}</text><text>axis</text></svg>"
        );
        assert_eq!(
            titles(&svg),
            "<svg><g><title>dary4-dup</title><circle/></g><text>axis</text></svg>"
        );
    }

    #[test]
    fn direct_labels_are_kept_apart_and_above_the_bottom() {
        let label = |y: i32| DirectLabel { name: y.to_string(), color: INK, at: (0, y) };
        // Three labels crowd near the top, two run past the bottom (300).
        let mut labels: Vec<DirectLabel> = [40, 30, 35, 310, 298].map(label).into();
        keep_apart(&mut labels, 20, 300);
        let ys: Vec<i32> = labels.iter().map(|l| l.at.1).collect();
        assert_eq!(ys, [30, 50, 70, 280, 300]);
        let names: Vec<&str> = labels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["30", "35", "40", "298", "310"], "top to bottom, as they were");
    }

    #[test]
    fn bar_texts_wrap_where_they_read_on() {
        let measure = |t: &str| 10.0 * t.chars().count() as f64;
        let text = "radix-heap-crate-dup ≈ packed-radix-heap-dup, radix-heap-dk  (std: 1.05×)";
        assert_eq!(wrap(text, 1000.0, &measure), [text]);
        assert_eq!(
            wrap(text, 500.0, &measure),
            ["radix-heap-crate-dup ≈ packed-radix-heap-dup,", "radix-heap-dk  (std: 1.05×)"]
        );
        assert_eq!(
            wrap(text, 300.0, &measure),
            ["radix-heap-crate-dup ≈", "packed-radix-heap-dup,", "radix-heap-dk  (std: 1.05×)"]
        );
        // A piece wider than the width stays whole.
        assert_eq!(wrap("dary4-dk", 30.0, &measure), ["dary4-dk"]);
        assert_eq!(wrap("dary4-dk  (std: 1.05×)", 130.0, &measure), ["dary4-dk", "(std: 1.05×)"]);
    }

    #[test]
    fn bar_texts_fit_right_of_their_bars() {
        let measure = |t: &str| 10.0 * t.chars().count() as f64;
        let short = "x".repeat(30);
        // 300 px of text after a bar ending at 2 on a 500 px plot: 2 must sit at most
        // 190 px in, so the axis reaches past 2^(500/190) ≈ 6.2.
        let (x, lines) = fit_bar_texts(1.0..2.0, &[2.0], &[&short], 500.0, 1, &measure);
        assert!(x.start == 1.0 && (6.2..6.9).contains(&x.end), "{x:?}");
        assert_eq!(lines, [[short.clone()]]);
        // A text that would push the bars into a corner on one line takes the two lines
        // the row allows: 210 px each after 2 at most 280 px in, past 2^(500/280) ≈ 3.45.
        let two = format!("{}, {}", "x".repeat(20), "x".repeat(20));
        let (x, lines) = fit_bar_texts(1.0..2.0, &[2.0], &[&two], 500.0, 2, &measure);
        assert_eq!(lines[0].len(), 2, "{lines:?}");
        assert!((3.45..3.8).contains(&x.end), "{x:?}");
        // On one line, every text fits right of its own bar.
        let (x, lines) = fit_bar_texts(1.0..2.0, &[2.0, 1.5], &[&two, &short], 500.0, 1, &measure);
        assert!(lines.iter().all(|l| l.len() == 1), "{lines:?}");
        let at = |v: f64| 500.0 * v.ln() / x.end.ln();
        assert!(at(2.0) + TEXT_GAP + 420.0 <= 500.0 && at(1.5) + TEXT_GAP + 300.0 <= 500.0);
    }

    #[test]
    fn axis_labels_thin_out_where_they_would_overlap() {
        let counts = Along::X(format::short);
        let range = 35.0..25_000.0; // 2.85 decades
                                    // Wide: 1, 2 and 5 per decade, as the range alone allows.
        assert_eq!(
            label_points(&range, 600.0, counts),
            [50.0, 100.0, 200.0, 500.0, 1e3, 2e3, 5e3, 1e4, 2e4]
        );
        // The left panel of the peers chart (about 300 px): `100` and `200` would touch.
        assert_eq!(label_points(&range, 300.0, counts), [100.0, 300.0, 1e3, 3e3, 1e4]);
        assert_eq!(label_points(&range, 120.0, counts), [100.0, 1e3, 1e4]);
        // Stacked labels need a line each, not their width.
        assert_eq!(label_points(&range, 300.0, Along::Y).len(), 9);
        // A short range gets more labels, and a long one fewer, however wide.
        assert_eq!(label_points(&(9.0..16.0), 600.0, counts), [9.0, 10.0, 11.0, 12.0, 13.0, 15.0]);
        assert_eq!(label_points(&(1.0..1e6), 5000.0, counts), [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
    }
}
