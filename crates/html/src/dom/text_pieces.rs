//! A large document's visible text rendered on several threads: the walk
//! cut as the dump and the HTML are (`dom/render_pieces.rs`), each piece
//! rendered on the pool from a guessed start, the pieces joined in order
//! on the calling thread with what each guess left open settled.
//!
//! Unlike a dump line or a tag, what a node gives to the visible text
//! depends on what came before it: the line breaks, space and tabs owed
//! before the next text, whether a table row has text yet, whether
//! anything has been written at all. A piece therefore begins only at the
//! entry of a block that is not in a table, a preformatted element, a
//! `select` or a closed `details` (the cut expands no such element). At
//! such an entry, once something has been written, the writer's state is
//! known but for two things: the line breaks owed (the block asks for one
//! or two, and the larger of that and what was owed wins: one of two
//! values) and whether the current table row has text (only a table cell
//! reads it, and a cell is in a row that the piece begins itself, but for
//! a fragment's odd trees). So each piece is rendered by a writer that
//! carries both values of the owed line breaks until its first text and
//! leaves that text's line breaks unwritten (`Guess`); the rest of the
//! piece is exact. The join then knows the true state after each piece,
//! writes the first separator's line breaks for the true value, and
//! renders a piece again, sequentially from its true start, where its
//! guess was not enough (`Guess::unsure`: a cell read a row begun before
//! the piece, or a separator counted line breaks written before it).
//! Until something has been written the join renders the pieces itself,
//! from the document's start, as the sequential walk does.
//!
//! The result's ends are trimmed of line breaks as
//! `NodeRef::visible_text` trims them: the join holds back the line
//! breaks at the end of what it has written until more text follows.

use std::io;
use std::ops::Range;

use rayon::prelude::*;

use super::render_pieces::{Format, ParallelRender, Unit, WINDOW_PER_THREAD};
use super::visible_text::{Guess, Writer, walk};
use super::{Document, VisibleTextOptions};

impl Document {
    /// [`Document::visible_text`] with `options`, rendered on
    /// `parallel.threads` threads of rayon's current pool as
    /// [`Document::write_visible_text_parallel`] renders it: the same
    /// text.
    pub fn visible_text_parallel(
        &self,
        options: VisibleTextOptions,
        parallel: &ParallelRender,
    ) -> String {
        let Some((units, pieces)) = self.text_cut(options, parallel) else {
            return self.root().visible_text_with(options, |_| false);
        };
        // The pieces are strings: joined into one as they are, without
        // checking again that the whole is UTF-8.
        let mut out = String::new();
        // Appending to a string does not fail.
        let _ = join_pieces(&mut out, &units, &pieces, options, parallel);
        out
    }

    /// The document's visible text ([`Document::visible_text`] with
    /// `options`) written to `writer`, rendered on `parallel.threads`
    /// threads of rayon's current pool in pieces joined in order: the
    /// same text (see `dom/text_pieces.rs`). Sequential for one thread or
    /// a document too small to cut.
    pub fn write_visible_text_parallel(
        &self,
        writer: &mut impl io::Write,
        options: VisibleTextOptions,
        parallel: &ParallelRender,
    ) -> io::Result<()> {
        let Some((units, pieces)) = self.text_cut(options, parallel) else {
            let text = self.root().visible_text_with(options, |_| false);
            return writer.write_all(text.as_bytes());
        };
        join_pieces(&mut Bytes(writer), &units, &pieces, options, parallel)
    }

    /// The units and pieces of the visible text, if it is rendered in
    /// pieces (two threads or more, a document large enough).
    fn text_cut(
        &self,
        options: VisibleTextOptions,
        parallel: &ParallelRender,
    ) -> Option<(Vec<Unit<'_>>, Vec<Range<usize>>)> {
        (parallel.threads >= 2)
            .then(|| self.cut(Format::Text(options), parallel))
            .flatten()
    }
}

/// Renders `pieces` of `units` on the pool, a window at a time, and joins
/// them in order into `out`.
fn join_pieces(
    out: &mut impl Out,
    units: &[Unit<'_>],
    pieces: &[Range<usize>],
    options: VisibleTextOptions,
    parallel: &ParallelRender,
) -> io::Result<()> {
    let mut join = Join {
        out: Trimmed {
            out,
            started: false,
            held: 0,
        },
        sequential: Some(new_writer(options)),
        state: State::default(),
        tail: Vec::new(),
        options,
    };
    let window = WINDOW_PER_THREAD * parallel.threads;
    let mut rendered: Vec<Rendered> = Vec::new();
    for group in pieces.chunks(window) {
        group
            .par_iter()
            .map(|piece| render_guessed(units, piece.clone(), options))
            .collect_into_vec(&mut rendered);
        for (piece, rendered) in group.iter().zip(&rendered) {
            join.piece(&units[piece.clone()], rendered)?;
        }
    }
    join.finish()
}

/// Where the joined text goes: a string, or a writer's bytes.
trait Out {
    fn put(&mut self, s: &str) -> io::Result<()>;
    fn flush(&mut self) -> io::Result<()>;
}

impl Out for String {
    fn put(&mut self, s: &str) -> io::Result<()> {
        self.push_str(s);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer as the join's output.
struct Bytes<'w, W: io::Write>(&'w mut W);

impl<W: io::Write> Out for Bytes<'_, W> {
    fn put(&mut self, s: &str) -> io::Result<()> {
        self.0.write_all(s.as_bytes())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// A writer at the start of the walk.
fn new_writer(options: VisibleTextOptions) -> Writer {
    Writer {
        options,
        ..Writer::default()
    }
}

/// Renders one unit into `writer`.
fn render_unit(writer: &mut Writer, unit: Unit<'_>) {
    match unit {
        Unit::Subtree { node, .. } => walk(writer, node, &|_| false),
        Unit::Open { element, .. } => {
            // The cut expands only elements the walk enters.
            let entered = writer.enter(element.node());
            debug_assert!(entered, "an expanded element is entered");
        }
        Unit::Close(element) => writer.leave(element.node()),
    }
}

/// What a writer owes and knows between pieces (all of its state but the
/// output; the preformatted depth is 0 wherever a piece begins or ends a
/// cut).
#[derive(Clone, Copy, Debug, Default)]
struct State {
    breaks: u8,
    space: bool,
    tabs: usize,
    row_empty: bool,
    cell_start: bool,
}

impl State {
    fn of(writer: &Writer) -> State {
        State {
            breaks: writer.breaks,
            space: writer.space,
            tabs: writer.tabs,
            row_empty: writer.row_empty,
            cell_start: writer.cell_start,
        }
    }
}

/// A piece rendered from the guessed start.
struct Rendered {
    /// Its output, but for its first text's line breaks.
    out: String,
    guess: Guess,
    /// The writer's state at the piece's end (`breaks` under the first
    /// hypothesis; a piece that wrote nothing has `Guess::alt_breaks` for
    /// the other).
    end: State,
}

/// Renders a piece of the walk from the guessed start (see the module
/// documentation): `breaks` 0 (or 1: the block's entry makes them one)
/// and, in the guess, 2.
fn render_guessed(
    units: &[Unit<'_>],
    piece: Range<usize>,
    options: VisibleTextOptions,
) -> Rendered {
    let mut writer = Writer {
        guess: Some(Guess {
            alt_breaks: 2,
            ..Guess::default()
        }),
        ..new_writer(options)
    };
    for &unit in &units[piece] {
        render_unit(&mut writer, unit);
    }
    Rendered {
        end: State::of(&writer),
        guess: writer.guess.unwrap_or_default(),
        out: writer.out,
    }
}

/// The join of the pieces, in order.
struct Join<'w, O: Out> {
    out: Trimmed<'w, O>,
    /// The sequential walk's writer, while it has written nothing: the
    /// pieces up to the first text are rendered by it.
    sequential: Option<Writer>,
    /// The true state after the pieces joined (once something is written).
    state: State,
    /// The last two bytes of the output (before trimming).
    tail: Vec<u8>,
    options: VisibleTextOptions,
}

impl<O: Out> Join<'_, O> {
    /// Joins the next piece: its `units`, as `rendered` from the guess.
    fn piece(&mut self, units: &[Unit<'_>], rendered: &Rendered) -> io::Result<()> {
        if let Some(writer) = &mut self.sequential {
            for &unit in units {
                render_unit(writer, unit);
            }
            if !writer.out.is_empty() {
                let out = std::mem::take(&mut writer.out);
                self.state = State::of(writer);
                self.sequential = None;
                self.write(&out)?;
            }
            return Ok(());
        }
        let guess = rendered.guess;
        // (A piece begins outside every table cell, so no cell's start
        // is pending there; were one, the guess would not hold.)
        if guess.unsure || self.state.cell_start {
            return self.again(units);
        }
        // The hypothesis that holds: 2 line breaks owed before the
        // piece's block, or fewer.
        let two = usize::from(self.state.breaks == 2);
        if !guess.started {
            let breaks = if two == 1 {
                guess.alt_breaks
            } else {
                rendered.end.breaks
            };
            let row_empty = if guess.row_known {
                rendered.end.row_empty
            } else {
                self.state.row_empty
            };
            self.state = State {
                breaks,
                row_empty,
                ..rendered.end
            };
            return Ok(());
        }
        let have = self.tail.iter().rev().take_while(|&&b| b == b'\n').count();
        let owed = usize::from(guess.first_breaks[two]).saturating_sub(have);
        self.write(&"\n".repeat(owed))?;
        self.write(&rendered.out)?;
        self.state = rendered.end;
        Ok(())
    }

    /// Renders a piece again from the true state after the pieces before
    /// it, on this thread.
    fn again(&mut self, units: &[Unit<'_>]) -> io::Result<()> {
        #[cfg(test)]
        RENDERED_AGAIN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let state = self.state;
        // The output's tail stands for all of it: the writer counts the
        // line breaks at its end and sees that it is not empty.
        let tail = String::from_utf8_lossy(&self.tail).into_owned();
        let mut writer = Writer {
            out: tail.clone(),
            breaks: state.breaks,
            space: state.space,
            tabs: state.tabs,
            row_empty: state.row_empty,
            cell_start: state.cell_start,
            ..new_writer(self.options)
        };
        for &unit in units {
            render_unit(&mut writer, unit);
        }
        self.state = State::of(&writer);
        let out = writer.out;
        self.write(&out[tail.len()..])
    }

    /// Writes `s`, keeping the output's tail.
    fn write(&mut self, s: &str) -> io::Result<()> {
        let bytes = s.as_bytes();
        if bytes.len() >= 2 {
            self.tail.clear();
        }
        self.tail.extend(bytes.iter().rev().take(2).rev());
        let excess = self.tail.len().saturating_sub(2);
        self.tail.drain(..excess);
        self.out.put(s)
    }

    /// Ends the join: what is held back is the output's trailing line
    /// breaks, which the visible text does not have.
    fn finish(self) -> io::Result<()> {
        self.out.out.flush()
    }
}

/// Pieces the join rendered again (for the unit tests).
#[cfg(test)]
pub(super) static RENDERED_AGAIN: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// A writer that leaves out the line breaks at the start and the end of
/// what it is given.
struct Trimmed<'w, O: Out> {
    out: &'w mut O,
    /// Something but line breaks has been written.
    started: bool,
    /// Line breaks held back: written only if more text follows.
    held: usize,
}

impl<O: Out> Trimmed<'_, O> {
    fn put(&mut self, mut s: &str) -> io::Result<()> {
        if !self.started {
            s = s.trim_start_matches('\n');
            if s.is_empty() {
                return Ok(());
            }
            self.started = true;
        }
        let body = s.trim_end_matches('\n');
        if !body.is_empty() {
            self.out.put(&"\n".repeat(self.held))?;
            self.held = 0;
            self.out.put(body)?;
        }
        self.held += s.len() - body.len();
        Ok(())
    }
}
