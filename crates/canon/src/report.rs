//! Presenting evaluations: a plain-text table in the style of the paper's
//! Table 1, and a self-contained HTML report with one SVG chart per rule
//! (redundancy vs coverage loss) and an overview scatter plot.
//!
//! The HTML has no scripts and no external resources, so it can be archived
//! next to the crawl it describes.

use crate::eval::{Evaluation, Metrics};
use std::fmt::Write;

mod labels;

/// What the evaluation ran on (for headings).
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// Inputs read.
    pub inputs: Vec<String>,
    /// Distinct URLs.
    pub urls: u64,
    /// Captures of an already seen URL.
    pub repeated_captures: u64,
    /// Records that had no URL or digest (skipped).
    pub skipped: u64,
}

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// The plain-text table.
pub fn table(ctx: &Context, evals: &[Evaluation]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} distinct URLs ({} repeated captures ignored, {} records skipped)",
        ctx.urls, ctx.repeated_captures, ctx.skipped
    );
    let near = evals.iter().any(|e| e.near.is_some());
    let _ = write!(
        s,
        "{:<34} {:>7} {:>8} {:>8} {:>8} {:>11} {:>10} {:>9}",
        "policy", "groups", "Σn", "Σun", "saved", "redundancy", "cov. loss", "failures"
    );
    if near {
        let _ = write!(s, " {:>11} {:>10}", "near: red.", "near: loss");
    }
    s.push('\n');
    for e in evals {
        let m = &e.exact;
        let _ = write!(
            s,
            "{:<34} {:>7} {:>8} {:>8} {:>8} {:>11} {:>10} {:>9}",
            e.name,
            m.groups,
            m.grouped_urls,
            m.unique_pages,
            m.requests_saved,
            pct(m.redundancy_rate),
            pct(m.coverage_loss_rate),
            e.failures
        );
        if let Some(n) = &e.near {
            let _ = write!(
                s,
                " {:>11} {:>10}",
                pct(n.redundancy_rate),
                pct(n.coverage_loss_rate)
            );
        }
        s.push('\n');
    }
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Two horizontal bars (redundancy, coverage loss) for exact and, when
/// present, near-duplicate contents.
fn bars(m: &Metrics, near: Option<&Metrics>) -> String {
    let mut rows = vec![
        ("redundancy", m.redundancy_rate, "#3b7dd8"),
        ("coverage loss", m.coverage_loss_rate, "#d8503b"),
    ];
    if let Some(n) = near {
        rows.push(("redundancy (near-dup)", n.redundancy_rate, "#8fb3e8"));
        rows.push(("coverage loss (near-dup)", n.coverage_loss_rate, "#e89a8f"));
    }
    let h = 22 * rows.len() + 6;
    let mut s =
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="420" height="{h}" role="img">"#);
    for (i, (label, v, color)) in rows.iter().enumerate() {
        let y = 4 + i * 22;
        let w = (v.clamp(0.0, 1.0) * 200.0).round();
        let _ = write!(
            s,
            r##"<text x="0" y="{}" font-size="12">{}</text><rect x="160" y="{y}" width="200" height="16" fill="#eee"/><rect x="160" y="{y}" width="{w}" height="16" fill="{color}"/><text x="366" y="{}" font-size="12">{}</text>"##,
            y + 12,
            label,
            y + 12,
            pct(*v)
        );
    }
    s.push_str("</svg>");
    s
}

/// Scatter of every policy: x = coverage loss, y = redundancy.
fn scatter(evals: &[Evaluation]) -> String {
    let (w, h, pad) = (560.0, 380.0, 50.0);
    let max_x = evals
        .iter()
        .map(|e| e.exact.coverage_loss_rate)
        .fold(0.05f64, f64::max)
        * 1.1;
    let max_y = evals
        .iter()
        .map(|e| e.exact.redundancy_rate)
        .fold(0.05f64, f64::max)
        * 1.1;
    let px = |x: f64| pad + x / max_x * (w - 2.0 * pad);
    let py = |y: f64| h - pad - y / max_y * (h - 2.0 * pad);
    let points: Vec<(String, f64, f64)> = evals
        .iter()
        .map(|e| {
            let (x, y) = (e.exact.coverage_loss_rate, e.exact.redundancy_rate);
            (e.name.clone(), px(x), py(y))
        })
        .collect();
    // Labels stay inside the axes (right of the y axis, above the x axis);
    // those that find no room there go to a column at the right.
    let area = labels::Rect {
        x0: pad + 1.0,
        y0: 4.0,
        x1: w - 8.0,
        y1: h - pad - 1.0,
    };
    let column_x = w + 8.0;
    let (placed, bottom) = labels::place(&points, area, column_x);
    let column_w = placed
        .iter()
        .filter(|l| l.in_column)
        .map(|l| l.bbox.x1 - column_x)
        .fold(0.0, f64::max);
    let (svg_w, svg_h) = if column_w > 0.0 {
        (column_x + column_w + 8.0, h.max(bottom + 4.0))
    } else {
        (w, h)
    };
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{svg_w:.0}" height="{svg_h:.0}" role="img">"#
    );
    let _ = write!(
        s,
        r#"<line x1="{pad}" y1="{0}" x2="{1}" y2="{0}" stroke="black"/><line x1="{pad}" y1="{pad}" x2="{pad}" y2="{0}" stroke="black"/><text x="{2}" y="{3}" font-size="12" text-anchor="middle">coverage loss rate (max {4})</text><text x="12" y="{5}" font-size="12" transform="rotate(-90 12 {5})" text-anchor="middle">redundancy rate (max {6})</text>"#,
        h - pad,
        w - pad,
        w / 2.0,
        h - 12.0,
        pct(max_x),
        h / 2.0,
        pct(max_y)
    );
    for e in evals {
        let (x, y) = (px(e.exact.coverage_loss_rate), py(e.exact.redundancy_rate));
        let _ = write!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="#3b7dd8"><title>{0}: redundancy {1}, coverage loss {2}</title></circle>"##,
            esc(&e.name),
            pct(e.exact.redundancy_rate),
            pct(e.exact.coverage_loss_rate),
        );
    }
    for l in &placed {
        if l.in_column {
            let _ = write!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#aaa" stroke-width="0.7"/>"##,
                l.point.0 + 4.0,
                l.point.1,
                l.bbox.x0 - 2.0,
                (l.bbox.y0 + l.bbox.y1) / 2.0
            );
        }
        let _ = write!(
            s,
            r#"<text class="label" x="{:.1}" y="{:.1}" font-size="{}"><title>{}</title>{}</text>"#,
            l.bbox.x0,
            l.bbox.y1 - 3.0,
            labels::FONT,
            esc(&l.names.join(", ")),
            esc(&l.text)
        );
    }
    s.push_str("</svg>");
    s
}

/// The inputs, collapsed to their count: `<details>` opens the list.
fn inputs_list(inputs: &[String]) -> String {
    let mut s = format!(
        "<details><summary>{} input file{}</summary><ul>",
        inputs.len(),
        if inputs.len() == 1 { "" } else { "s" }
    );
    for i in inputs {
        let _ = write!(s, "<li><code>{}</code></li>", esc(i));
    }
    s.push_str("</ul></details>");
    s
}

/// The self-contained HTML report.
pub fn html(
    ctx: &Context,
    evals: &[Evaluation],
    descriptions: &dyn Fn(&str) -> Option<String>,
) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>spinneret canon-eval</title>\
         <style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}\
         td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child{text-align:left}\
         section{margin:1.5em 0}</style></head><body>\n<h1>URL canonicalization: redundancy vs coverage loss</h1>\n",
    );
    let _ = writeln!(
        s,
        "<p>{} distinct URLs; {} repeated captures ignored; {} records skipped. \
         Metrics of Lee, Kim &amp; Hong (2005): redundancy rate Σ(n−un)/Σn and coverage loss rate \
         1 − D<sub>downloaded</sub>/Σun over the groups of ≥ 2 URLs sharing a key.</p>\n{}",
        ctx.urls,
        ctx.repeated_captures,
        ctx.skipped,
        inputs_list(&ctx.inputs)
    );
    s.push_str("<h2>All policies</h2>\n");
    s.push_str(&scatter(evals));
    s.push_str("\n<table><tr><th>policy</th><th>groups</th><th>Σn</th><th>Σun</th><th>requests saved</th><th>redundancy</th><th>coverage loss</th><th>failures</th></tr>\n");
    for e in evals {
        let m = &e.exact;
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&e.name),
            m.groups,
            m.grouped_urls,
            m.unique_pages,
            m.requests_saved,
            pct(m.redundancy_rate),
            pct(m.coverage_loss_rate),
            e.failures
        );
    }
    s.push_str("</table>\n<h2>Per policy</h2>\n");
    for e in evals {
        let _ = write!(s, "<section><h3>{}</h3>", esc(&e.name));
        if let Some(d) = descriptions(&e.name) {
            let _ = write!(s, "<p>{}</p>", esc(&d));
        }
        s.push_str(&bars(&e.exact, e.near.as_ref()));
        s.push_str("</section>\n");
    }
    s.push_str("</body></html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_html_mention_every_policy() {
        let m = Metrics {
            groups: 1,
            grouped_urls: 2,
            unique_pages: 2,
            downloaded: 1,
            requests_saved: 1,
            redundancy_rate: 0.0,
            coverage_loss_rate: 0.5,
        };
        let evals = vec![
            Evaluation {
                name: "safe".into(),
                failures: 0,
                exact: m,
                near: Some(Metrics::default()),
            },
            Evaluation {
                name: "a<b".into(),
                failures: 3,
                exact: Metrics::default(),
                near: None,
            },
        ];
        let ctx = Context {
            inputs: vec!["x.warc".into()],
            urls: 2,
            ..Context::default()
        };
        let t = table(&ctx, &evals);
        assert!(t.contains("safe") && t.contains("50.00%") && t.contains("near: loss"));
        let h = html(&ctx, &evals, &|n| {
            (n == "safe").then(|| "the default".to_string())
        });
        assert!(h.contains("<h3>safe</h3>") && h.contains("a&lt;b") && h.contains("the default"));
        assert!(h.contains("<details><summary>1 input file</summary><ul><li><code>x.warc</code>"));
        assert_eq!(h.matches("<svg").count(), 3);
    }
}
