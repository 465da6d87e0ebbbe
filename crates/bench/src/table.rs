//! The results table every benchmark prints: columns with a header and an
//! alignment, rows of typed cells, and two renderings — a Markdown table
//! (the form pasted into the README) and a plain-text table padded to the
//! widest cell of each column (the console form).
//!
//! Cells are typed ([`Cell`]) rather than pre-formatted strings so that
//! every benchmark formats a nanosecond figure, a rate or a time ratio the
//! same way (the `fmt_*` helpers of [`crate::timing`]), and so that a row is
//! built from its measurements, not from text.
//!
//! Invariant: every row has exactly as many cells as the table has columns
//! ([`Table::push`] checks it).

use std::fmt;

use crate::timing::{fmt_ns, fmt_rate, fmt_ratio};

/// How a column's cells line up: text to the left, figures to the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Padded on the right; Markdown `---`.
    Left,
    /// Padded on the left; Markdown `---:`.
    Right,
}

/// One column: its header and its alignment.
#[derive(Clone, Debug)]
pub struct Column {
    /// The header cell's text.
    pub header: String,
    /// How the column's cells line up.
    pub align: Align,
}

impl Column {
    /// A left-aligned (text) column.
    pub fn left(header: impl Into<String>) -> Column {
        Column {
            header: header.into(),
            align: Align::Left,
        }
    }

    /// A right-aligned (figures) column.
    pub fn right(header: impl Into<String>) -> Column {
        Column {
            header: header.into(),
            align: Align::Right,
        }
    }
}

/// One cell: a value and the way it is written.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text as is.
    Text(String),
    /// A count, in plain digits.
    Count(u64),
    /// A number with this many decimals.
    Fixed(f64, usize),
    /// Nanoseconds with about three significant digits ([`fmt_ns`]).
    Ns(f64),
    /// Items per second, scaled to `k`/`M` ([`fmt_rate`]).
    Rate(f64),
    /// The time ratio `other / ours` with two decimals, above 1 when ours is
    /// faster ([`fmt_ratio`]).
    Ratio {
        /// The peer's time (any unit, the same as `ours`).
        other: f64,
        /// The reference time.
        ours: f64,
    },
    /// No value: `-`.
    Missing,
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// A count, or [`Cell::Missing`].
    pub fn count(v: Option<u64>) -> Cell {
        v.map_or(Cell::Missing, Cell::Count)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Text(s) => f.write_str(s),
            Cell::Count(n) => write!(f, "{n}"),
            Cell::Fixed(v, decimals) => write!(f, "{v:.decimals$}"),
            Cell::Ns(ns) => f.write_str(&fmt_ns(*ns)),
            Cell::Rate(per_sec) => f.write_str(&fmt_rate(*per_sec)),
            Cell::Ratio { other, ours } => f.write_str(&fmt_ratio(*other, *ours)),
            Cell::Missing => f.write_str("-"),
        }
    }
}

/// A results table: columns, and rows of as many cells.
#[derive(Clone, Debug)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(columns: impl IntoIterator<Item = Column>) -> Table {
        Table {
            columns: columns.into_iter().collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    /// If the row does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(
            row.len(),
            self.columns.len(),
            "a row needs one cell per column"
        );
        self.rows.push(row);
    }

    /// The table in Markdown: `| a | b |`, then `| --- | ---: |`, then the
    /// rows, each line ending in a newline.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let mut line = |cells: &mut dyn Iterator<Item = String>| {
            out.push('|');
            for c in cells {
                out.push(' ');
                out.push_str(&c);
                out.push_str(" |");
            }
            out.push('\n');
        };
        line(&mut self.columns.iter().map(|c| c.header.clone()));
        line(&mut self.columns.iter().map(|c| match c.align {
            Align::Left => "---".to_string(),
            Align::Right => "---:".to_string(),
        }));
        for row in &self.rows {
            line(&mut row.iter().map(Cell::to_string));
        }
        out
    }

    /// The table as plain text: each column padded to its widest cell
    /// (header included) on the side its alignment says, two spaces between
    /// columns, no trailing spaces; each line ends in a newline.
    pub fn aligned(&self) -> String {
        let header: Vec<String> = self.columns.iter().map(|c| c.header.clone()).collect();
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(Cell::to_string).collect())
            .collect();
        let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        for row in &rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let mut out = String::new();
        for cells in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for ((c, w), col) in cells.iter().zip(&widths).zip(&self.columns) {
                match col.align {
                    Align::Left => line += &format!("{c:<w$}  "),
                    Align::Right => line += &format!("{c:>w$}  "),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new([
            Column::left("kernel"),
            Column::right("ns"),
            Column::right("vs"),
            Column::left("what"),
        ]);
        t.push(vec![
            Cell::text("ours"),
            Cell::Ns(50.94),
            Cell::Ratio {
                other: 50.94,
                ours: 50.94,
            },
            Cell::text("the reference"),
        ]);
        t.push(vec![
            Cell::text("peer"),
            Cell::Ns(234.4),
            Cell::Ratio {
                other: 234.4,
                ours: 50.94,
            },
            Cell::Missing,
        ]);
        t
    }

    #[test]
    fn markdown_has_a_header_an_alignment_row_and_one_line_per_row() {
        assert_eq!(
            sample().markdown(),
            "| kernel | ns | vs | what |\n\
             | --- | ---: | ---: | --- |\n\
             | ours | 50.9 | 1.00 | the reference |\n\
             | peer | 234 | 4.60 | - |\n"
        );
    }

    #[test]
    fn aligned_pads_each_column_to_its_widest_cell() {
        assert_eq!(
            sample().aligned(),
            "kernel    ns    vs  what\n\
             ours    50.9  1.00  the reference\n\
             peer     234  4.60  -\n"
        );
    }

    #[test]
    fn cells_format_like_the_timing_helpers() {
        assert_eq!(Cell::Fixed(614.94, 1).to_string(), "614.9");
        assert_eq!(Cell::Rate(5_900.0).to_string(), "5.9 k");
        assert_eq!(Cell::count(None).to_string(), "-");
        assert_eq!(Cell::count(Some(1_004_964)).to_string(), "1004964");
        let zero = Cell::Ratio {
            other: 1.0,
            ours: 0.0,
        };
        assert_eq!(zero.to_string(), "n/a");
    }

    #[test]
    #[should_panic(expected = "one cell per column")]
    fn a_short_row_is_refused() {
        Table::new([Column::left("a"), Column::left("b")]).push(vec![Cell::Missing]);
    }
}
