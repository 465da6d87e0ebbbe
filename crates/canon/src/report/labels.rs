//! Label placement for the report's scatter plot: every point named, no two
//! labels overlapping, no label over a point or outside the picture.
//!
//! Policies often share a point (every rule that changes nothing on a crawl
//! sits at the origin), so points within [`SAME_POINT`] pixels are one
//! group with one label: the names joined, or the first ones and "+N more"
//! (all of them in the point's tooltip). Each group's label is tried at a
//! few places around its point ([`CANDIDATES`]), nearest first, and takes
//! the first that overlaps nothing placed so far — the other labels, every
//! point, the axes' box. A label that fits nowhere goes to the column at
//! the plot's right, at the free height nearest its point, with a leader
//! line: the column is as tall as it needs, so every label has a place.
//!
//! Text width is estimated from the character count at [`CHAR_WIDTH`] of
//! the font size, wider than a sans-serif font's average so the estimate
//! errs on the side of room; the report's test in headless Chromium
//! (commit message) measured the real boxes.

/// Font size of a label, in pixels.
pub const FONT: f64 = 10.0;
/// Estimated width of a character, as a fraction of the font size.
pub const CHAR_WIDTH: f64 = 0.62;
/// Height of a label's box.
const LINE: f64 = FONT + 3.0;
/// Points closer than this (in pixels, on both axes) share a label.
pub const SAME_POINT: f64 = 3.0;
/// The longest label drawn beside a point, in characters.
const MAX_CHARS: usize = 44;
/// The radius of a point, and the room kept around it.
const POINT_R: f64 = 4.0;
/// Space between labels in the right-hand column.
const GAP: f64 = 2.0;

/// An axis-aligned box: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.x1 <= o.x1 && self.y0 >= o.y0 && self.y1 <= o.y1
    }
}

/// One point's label, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The point (pixels).
    pub point: (f64, f64),
    /// The names of the policies at the point, in input order.
    pub names: Vec<String>,
    /// The text drawn.
    pub text: String,
    /// The text's box; the text's baseline is `bbox.y1 - 3`.
    pub bbox: Rect,
    /// Whether the label is in the right-hand column (drawn with a leader
    /// line to its point).
    pub in_column: bool,
}

/// Where a label's box goes, from the box's width and height: the offset
/// of its left-top corner from the point.
type Offset = fn(f64, f64) -> (f64, f64);

/// Offsets of a label's box from its point, nearest first: `(dx, dy)` of
/// the box's left-top corner, `w` and `h` being the box's size. Right of
/// the point, left, above, below, then the same a line up and down.
const CANDIDATES: [Offset; 10] = [
    |_, h| (POINT_R + 3.0, -h / 2.0),
    |w, h| (-POINT_R - 3.0 - w, -h / 2.0),
    |w, h| (-w / 2.0, -POINT_R - 2.0 - h),
    |w, _| (-w / 2.0, POINT_R + 2.0),
    |_, h| (POINT_R + 3.0, -h / 2.0 - h),
    |_, h| (POINT_R + 3.0, h / 2.0),
    |w, h| (-POINT_R - 3.0 - w, -h / 2.0 - h),
    |w, h| (-POINT_R - 3.0 - w, h / 2.0),
    |_, h| (POINT_R + 3.0, -h / 2.0 - 2.0 * h),
    |_, h| (POINT_R + 3.0, h / 2.0 + h),
];

/// The text drawn for the names at one point.
fn label_text(names: &[String]) -> String {
    let all = names.join(", ");
    if all.chars().count() <= MAX_CHARS {
        return all;
    }
    let mut text = String::new();
    for (i, n) in names.iter().enumerate() {
        let rest = names.len() - i;
        let more = format!(" +{rest} more");
        let sep = if text.is_empty() { "" } else { ", " };
        if !text.is_empty()
            && text.chars().count() + sep.len() + n.chars().count() + more.len() > MAX_CHARS
        {
            text.push_str(&more);
            return text;
        }
        text.push_str(sep);
        text.push_str(n);
    }
    text
}

/// The estimated width of `text` in pixels.
pub fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * FONT * CHAR_WIDTH
}

/// Places the labels of `points` (`(name, x, y)` in pixels) inside `area`
/// (the plot's box, axes included), with the overflow column starting at
/// `column_x`. Returns the labels and the bottom of the lowest one (the
/// picture must be at least that tall).
pub fn place(points: &[(String, f64, f64)], area: Rect, column_x: f64) -> (Vec<Label>, f64) {
    // Groups of points that coincide, in input order of their first.
    let mut groups: Vec<((f64, f64), Vec<String>)> = Vec::new();
    for (name, x, y) in points {
        match groups
            .iter_mut()
            .find(|((gx, gy), _)| (gx - x).abs() < SAME_POINT && (gy - y).abs() < SAME_POINT)
        {
            Some((_, names)) => names.push(name.clone()),
            None => groups.push(((*x, *y), vec![name.clone()])),
        }
    }
    // Every point is in the way (not only each group's first: a group's
    // points may lie up to SAME_POINT apart).
    let mut taken: Vec<Rect> = points
        .iter()
        .map(|(_, x, y)| Rect {
            x0: x - POINT_R - 1.0,
            y0: y - POINT_R - 1.0,
            x1: x + POINT_R + 1.0,
            y1: y + POINT_R + 1.0,
        })
        .collect();
    let mut labels = Vec::with_capacity(groups.len());
    let mut left_over = Vec::new();
    for ((x, y), names) in groups {
        let text = label_text(&names);
        let (w, h) = (text_width(&text), LINE);
        let spot = CANDIDATES.iter().find_map(|offset| {
            let (dx, dy) = offset(w, h);
            let r = Rect {
                x0: x + dx,
                y0: y + dy,
                x1: x + dx + w,
                y1: y + dy + h,
            };
            (r.inside(&area) && !taken.iter().any(|t| t.overlaps(&r))).then_some(r)
        });
        match spot {
            Some(bbox) => {
                taken.push(bbox);
                labels.push(Label {
                    point: (x, y),
                    names,
                    text,
                    bbox,
                    in_column: false,
                });
            }
            None => left_over.push(((x, y), names, text)),
        }
    }
    // The column: top to bottom in the order of the points' heights, each
    // label at its point's height or just below the one above it.
    left_over.sort_by(|a, b| a.0.1.total_cmp(&b.0.1));
    let mut next_top = area.y0;
    let mut bottom = area.y1;
    for ((x, y), names, text) in left_over {
        let top = (y - LINE / 2.0).max(next_top);
        let bbox = Rect {
            x0: column_x,
            y0: top,
            x1: column_x + text_width(&text),
            y1: top + LINE,
        };
        next_top = bbox.y1 + GAP;
        bottom = bottom.max(bbox.y1);
        labels.push(Label {
            point: (x, y),
            names,
            text,
            bbox,
            in_column: true,
        });
    }
    (labels, bottom)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Rect = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: 460.0,
        y1: 330.0,
    };

    fn no_overlaps(points: &[(String, f64, f64)]) -> Vec<Label> {
        let (labels, bottom) = place(points, AREA, 480.0);
        for (i, a) in labels.iter().enumerate() {
            assert!(a.bbox.y1 <= bottom && a.bbox.x0 >= 0.0);
            if !a.in_column {
                assert!(a.bbox.inside(&AREA), "{a:?}");
            }
            for b in &labels[i + 1..] {
                assert!(!a.bbox.overlaps(&b.bbox), "{a:?}\n{b:?}");
            }
            for (_, x, y) in points {
                let dot = Rect {
                    x0: x - POINT_R,
                    y0: y - POINT_R,
                    x1: x + POINT_R,
                    y1: y + POINT_R,
                };
                assert!(!a.bbox.overlaps(&dot), "{a:?} over the point at {x},{y}");
            }
        }
        let named: usize = labels.iter().map(|l| l.names.len()).sum();
        assert_eq!(named, points.len(), "every point is named once");
        labels
    }

    #[test]
    fn coinciding_points_share_one_label() {
        let points: Vec<_> = (0..20)
            .map(|i| (format!("rule-{i}"), 50.0, 280.0))
            .collect();
        let labels = no_overlaps(&points);
        assert_eq!(labels.len(), 1);
        assert!(labels[0].text.ends_with("more"), "{}", labels[0].text);
        assert!(labels[0].text.chars().count() <= MAX_CHARS + 8);
    }

    #[test]
    fn crowded_points_never_overlap() {
        // Clusters, lines and a grid of points with long and short names,
        // from a fixed pseudo-random sequence.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let n = 1 + (next() % 40) as usize;
            let spread = [8.0, 40.0, 200.0, 400.0][round % 4];
            let points: Vec<_> = (0..n)
                .map(|i| {
                    let name = "x".repeat(1 + (next() % 24) as usize) + &i.to_string();
                    let x = 50.0 + (next() % 1000) as f64 / 1000.0 * spread;
                    let y = 280.0 - (next() % 1000) as f64 / 1000.0 * spread.min(230.0);
                    (name, x, y)
                })
                .collect();
            no_overlaps(&points);
        }
    }

    #[test]
    fn a_lone_point_is_labelled_beside_it() {
        let labels = no_overlaps(&[("safe".to_owned(), 100.0, 100.0)]);
        assert!(!labels[0].in_column);
        assert!(labels[0].bbox.x0 > 100.0);
    }
}
