//! HTML tokenizer benchmarks: spinneret-html against html5ever's tokenizer
//! and lol_html on the real-web corpus.
//!
//! Why whole pages: a crawler tokenizes whole documents, and the cost of a
//! tokenizer depends on what real pages contain (long scripts and styles,
//! inline SVG, entity-heavy text, huge attribute values), which no synthetic
//! input reproduces. Every kernel makes one pass over every corpus page (the
//! 2,062 HTML pages and feeds of `corpus/pages.tsv`), gunzipped and decoded
//! with `String::from_utf8_lossy` before any timing, so that neither I/O nor
//! decoding is measured and every library reads the same UTF-8 bytes.
//! Throughput is reported in input MB/s (10^6 bytes of that UTF-8 per
//! second), which is how tokenizers are usually compared, and as time ratios
//! peer/spinneret.
//!
//! What each kernel does, and why it is the fair counterpart of the others:
//!
//! - spinneret: `spinneret_html::tokenize` with the default options (the
//!   tree-builder simulator on, scripting off, parse errors not collected),
//!   with a sink that counts tokens. Each token goes through [`black_box`] so
//!   that the compiler cannot skip building the parts no one reads.
//! - html5ever: its tokenizer alone, without the tree builder (which would add
//!   a DOM). A bare tokenizer never leaves the data state on its own: the tree
//!   builder tells it when `<script>`, `<style>`, `<title>` and the like start
//!   raw text. The sink here does that the way html5ever's tree builder does
//!   (outside `<svg>`/`<math>`, scripting off), so that html5ever tokenizes
//!   script and style contents as text, as spinneret's simulator does, rather
//!   than as markup. It counts tokens (not the parse errors that html5ever
//!   always reports). Each page is copied into a `StrTendril` inside the
//!   kernel: that is what a caller holding a `&str` must do to use html5ever.
//! - lol_html, no handlers: an `HtmlRewriter` with default settings whose
//!   output sink discards (counting bytes). Without a selector to match,
//!   lol_html only scans for tag names and does not build tokens at all, so
//!   this is a lower bound of what a streaming rewriter costs, not a full
//!   tokenization.
//! - lol_html, `a[href]`: the same with an element content handler that reads
//!   every link's `href`, the crawler's main question. lol_html still scans
//!   for tag names and lexes in full only the `<a>` start tags whose
//!   attributes the selector needs; this is the kernel closest to what a
//!   link extractor would do with it. The selector is parsed once; a rewriter
//!   is built per page, as lol_html requires.
//!
//! Timing is the `url` benchmark's (see `timing`): a warm-up pass, then the
//! best pass of at least 3 and at least 0.5 s.
//!
//! The `kernel` entry point runs one untimed pass of one kernel, so that
//! `callgrind-tokenize.sh` can count instructions per input byte by
//! subtracting a run that only loads the pages (kernel `none`).

use std::borrow::Cow;
use std::cell::Cell;
use std::hint::black_box;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::{TokenizerResult, local_name};
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};
use spinneret_html::TokenizerOptions;

use crate::pages::{MANIFEST, Pages};
use crate::table::{self, Column, Table};
use crate::timing::{Plan, Timing, fmt_bytes, fmt_ratio, measure};

/// The dataset name `kernel tokenize-<lib>` takes.
pub const PAGES: &str = "pages";

/// The peers' versions, for the output (keep in step with Cargo.toml).
const HTML5EVER: &str = "html5ever 0.40";
const LOL_HTML: &str = "lol_html 3";

/// The kernels, plus `None` for the data-loading-only baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Loads the pages and tokenizes nothing: the baseline callgrind
    /// subtracts.
    None,
    /// `spinneret_html::tokenize`, simulator on.
    Spinneret,
    /// html5ever's tokenizer, raw-text switching in the sink.
    Html5ever,
    /// lol_html's rewriter with no handlers.
    LolHtml,
    /// lol_html's rewriter reading every `a[href]`.
    LolHtmlAhref,
}

impl Kernel {
    /// The kernel named `tokenize-<lib>` (the hidden `kernel` subcommand).
    pub fn from_kernel_name(name: &str) -> Option<Kernel> {
        match name.strip_prefix("tokenize-")? {
            "none" => Some(Kernel::None),
            "spinneret" => Some(Kernel::Spinneret),
            "html5ever" => Some(Kernel::Html5ever),
            "lolhtml" => Some(Kernel::LolHtml),
            "lolhtml-ahref" => Some(Kernel::LolHtmlAhref),
            _ => None,
        }
    }

    /// The kernel's name in the output.
    fn label(self) -> &'static str {
        match self {
            Kernel::None => "none",
            Kernel::Spinneret => "spinneret-html",
            Kernel::Html5ever => HTML5EVER,
            Kernel::LolHtml => LOL_HTML,
            Kernel::LolHtmlAhref => "lol_html a[href]",
        }
    }

    /// What the kernel's count counts.
    fn counted(self) -> &'static str {
        match self {
            Kernel::None => "pages",
            Kernel::Spinneret | Kernel::Html5ever => "tokens",
            Kernel::LolHtml => "bytes out",
            Kernel::LolHtmlAhref => "hrefs",
        }
    }

    /// What the kernel does, for the README's table.
    fn what(self) -> &'static str {
        match self {
            Kernel::None => "loads the pages",
            Kernel::Spinneret => "tokens, tree-builder simulator on",
            Kernel::Html5ever => "tokenizer only, raw-text switching in the sink",
            Kernel::LolHtml => "rewriter, no handlers (scans tag names only)",
            Kernel::LolHtmlAhref => "rewriter, `a[href]` handler reading `href`",
        }
    }
}

// ---------------------------------------------------------------------------
// Kernels. Each is `#[inline(never)]` so that it shows up under its own name
// in profiles; each returns a count (tokens, bytes or links) that the caller
// prints and `measure` black-boxes. Pages that lol_html refuses are counted in
// `failed` (none are expected).

#[inline(never)]
fn tokenize_spinneret(pages: &[String]) -> usize {
    let mut tokens = 0usize;
    for page in pages {
        let errors =
            spinneret_html::tokenize(black_box(page.as_str()), TokenizerOptions::default(), |t| {
                black_box(&t);
                tokens += 1;
            });
        black_box(errors);
    }
    black_box(tokens)
}

/// A token sink that counts tokens and switches the tokenizer into raw text
/// where html5ever's tree builder would (scripting off).
#[derive(Default)]
struct CountingSink {
    tokens: Cell<usize>,
    /// How many `<svg>`/`<math>` elements are open: inside them, `<style>` and
    /// `<script>` are foreign elements with ordinary content, and CDATA
    /// sections are allowed. (An approximation of the tree builder's stack:
    /// HTML elements that break out of foreign content are not tracked.)
    foreign_depth: Cell<u32>,
}

impl CountingSink {
    fn after_tag(&self, tag: &Tag) -> TokenSinkResult<()> {
        let depth = self.foreign_depth.get();
        let foreign = matches!(tag.name, local_name!("svg") | local_name!("math"));
        match tag.kind {
            TagKind::StartTag if foreign => {
                if !tag.self_closing {
                    self.foreign_depth.set(depth + 1);
                }
                TokenSinkResult::Continue
            }
            TagKind::EndTag if foreign => {
                self.foreign_depth.set(depth.saturating_sub(1));
                TokenSinkResult::Continue
            }
            TagKind::StartTag if depth == 0 => match tag.name {
                local_name!("title") | local_name!("textarea") => {
                    TokenSinkResult::RawData(RawKind::Rcdata)
                }
                local_name!("style")
                | local_name!("xmp")
                | local_name!("iframe")
                | local_name!("noembed")
                | local_name!("noframes") => TokenSinkResult::RawData(RawKind::Rawtext),
                local_name!("script") => TokenSinkResult::RawData(RawKind::ScriptData),
                local_name!("plaintext") => TokenSinkResult::Plaintext,
                _ => TokenSinkResult::Continue,
            },
            _ => TokenSinkResult::Continue,
        }
    }
}

impl TokenSink for CountingSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        let result = match &token {
            Token::ParseError(_) => return TokenSinkResult::Continue,
            Token::TagToken(tag) => self.after_tag(tag),
            _ => TokenSinkResult::Continue,
        };
        black_box(&token);
        self.tokens.set(self.tokens.get() + 1);
        result
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign_depth.get() > 0
    }
}

#[inline(never)]
fn tokenize_html5ever(pages: &[String]) -> usize {
    let mut tokens = 0usize;
    for page in pages {
        let tokenizer = Tokenizer::new(CountingSink::default(), TokenizerOpts::default());
        let queue = BufferQueue::default();
        queue.push_back(StrTendril::from_slice(black_box(page.as_str())));
        // The sink never asks to pause (no scripts run), so one feed is
        // enough; loop anyway rather than rely on it.
        while !matches!(tokenizer.feed(&queue), TokenizerResult::Done) {}
        tokenizer.end();
        tokens += tokenizer.sink.tokens.get();
    }
    black_box(tokens)
}

#[inline(never)]
fn rewrite_lolhtml(pages: &[String], failed: &mut usize) -> usize {
    let mut out_bytes = 0usize;
    for page in pages {
        let mut rewriter = HtmlRewriter::new(Settings::new(), |chunk: &[u8]| {
            out_bytes += chunk.len();
        });
        // After an error the rewriter must not be used again.
        let ok = match rewriter.write(black_box(page.as_bytes())) {
            Ok(()) => rewriter.end().is_ok(),
            Err(_) => false,
        };
        *failed += usize::from(!ok);
    }
    black_box(out_bytes)
}

#[inline(never)]
fn rewrite_lolhtml_ahref(pages: &[String], selector: &Selector, failed: &mut usize) -> usize {
    let mut hrefs = 0usize;
    for page in pages {
        let handlers = ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
            if let Some(href) = el.get_attribute("href") {
                black_box(href);
                hrefs += 1;
            }
            Ok(())
        });
        let settings =
            Settings::new().append_element_content_handler((Cow::Borrowed(selector), handlers));
        let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| {
            black_box(chunk);
        });
        let ok = match rewriter.write(black_box(page.as_bytes())) {
            Ok(()) => rewriter.end().is_ok(),
            Err(_) => false,
        };
        *failed += usize::from(!ok);
    }
    black_box(hrefs)
}

fn a_href() -> Selector {
    "a[href]".parse().expect("a valid selector")
}

// ---------------------------------------------------------------------------
// Entry points.

/// One pass of `kernel` over `set`: its count, and how many pages lol_html
/// refused.
fn pass(kernel: Kernel, set: &Pages, selector: &Selector) -> (usize, usize) {
    let mut failed = 0;
    let count = match kernel {
        Kernel::None => black_box(&set.pages).len(),
        Kernel::Spinneret => tokenize_spinneret(&set.pages),
        Kernel::Html5ever => tokenize_html5ever(&set.pages),
        Kernel::LolHtml => rewrite_lolhtml(&set.pages, &mut failed),
        Kernel::LolHtmlAhref => rewrite_lolhtml_ahref(&set.pages, selector, &mut failed),
    };
    (count, failed)
}

/// One untimed pass of one kernel (for callgrind). Prints the input bytes and
/// the kernel's count; with `Kernel::None` only the pages are loaded.
pub fn run_kernel(kernel: Kernel) {
    let set = Pages::load();
    let (count, failed) = pass(kernel, &set, &a_href());
    println!(
        "items={} ok={count} pages={} failed={failed}",
        set.bytes,
        set.pages.len()
    );
}

/// The kernels `run` times, the reference first.
const TIMED: [Kernel; 4] = [
    Kernel::Spinneret,
    Kernel::Html5ever,
    Kernel::LolHtml,
    Kernel::LolHtmlAhref,
];

/// One kernel's result.
struct Row {
    kernel: Kernel,
    timing: Timing,
    /// Pages lol_html refused in the last pass.
    failed: usize,
}

/// Runs the four kernels and prints the results, then a markdown table for
/// the README.
pub fn run(plan: Plan, quick: bool) {
    let unit_note = if quick {
        "--quick: a warm-up and ONE timed pass per kernel; numbers are indicative only"
    } else {
        "best pass after a warm-up, repeating for >= 0.5 s and >= 3 passes"
    };
    println!("spinneret-bench tokenize: every corpus page, input MB/s ({unit_note})");
    println!("ratios are time ratios peer/spinneret: above 1.00 means spinneret is faster");
    println!();

    let set = Pages::load();
    let n = set.bytes;
    println!(
        "{MANIFEST}: {} pages, {} ({} bytes of UTF-8; {} pages not valid UTF-8, decoded lossily)",
        set.pages.len(),
        fmt_bytes(n),
        n,
        set.lossy
    );

    let selector = a_href();
    let rows: Vec<Row> = TIMED
        .into_iter()
        .map(|kernel| {
            let mut failed = 0;
            let timing = measure(plan, n, || {
                let (count, f) = pass(kernel, &set, &selector);
                failed = f;
                count
            });
            Row {
                kernel,
                timing,
                failed,
            }
        })
        .collect();

    let ours = spinneret_ns(&rows);
    for row in &rows {
        let t = &row.timing;
        let ratio = if row.kernel == Kernel::Spinneret {
            String::new()
        } else {
            format!("peer/spinneret {}", fmt_ratio(t.ns_per_item, ours))
        };
        let failed = if row.failed > 0 {
            format!(", {} pages FAILED", row.failed)
        } else {
            String::new()
        };
        println!(
            "  {:<17} {:>8} MB/s {:>8.3} ns/B {:>8.1} ms/pass  {:<19} {} {}  ({} passes{failed})",
            row.kernel.label(),
            fmt_mb_per_sec(t),
            t.ns_per_item,
            t.ns_per_item * n as f64 / 1e6,
            ratio,
            t.result,
            row.kernel.counted(),
            t.reps,
        );
    }
    println!(
        "  (token counts differ by design: html5ever ends a text token at every newline, '&' and '<')"
    );
    println!();

    print_markdown(&rows, &set, quick);
}

/// spinneret's ns per byte: the reference of every ratio.
fn spinneret_ns(rows: &[Row]) -> f64 {
    rows.iter()
        .find(|r| r.kernel == Kernel::Spinneret)
        .map_or(f64::NAN, |r| r.timing.ns_per_item)
}

/// Input megabytes (10^6 bytes) per second.
fn fmt_mb_per_sec(t: &Timing) -> String {
    let mb = t.items_per_sec() / 1e6;
    if mb >= 100.0 {
        format!("{mb:.0}")
    } else {
        format!("{mb:.1}")
    }
}

fn print_markdown(rows: &[Row], set: &Pages, quick: bool) {
    let ours = spinneret_ns(rows);
    let mut md = Table::new([
        Column::left(format!(
            "tokenizer ({} pages, {})",
            set.pages.len(),
            fmt_bytes(set.bytes)
        )),
        Column::left("what it does"),
        Column::right("MB/s"),
        Column::right("peer/spinneret"),
    ]);
    for row in rows {
        md.push(vec![
            table::Cell::text(row.kernel.label()),
            table::Cell::text(row.kernel.what()),
            table::Cell::Text(fmt_mb_per_sec(&row.timing)),
            table::Cell::Ratio {
                other: row.timing.ns_per_item,
                ours,
            },
        ]);
    }
    println!("== markdown for README.md (ratios above 1 mean spinneret is faster) ==");
    if quick {
        println!("<!-- --quick run: single timed pass, do not publish -->");
    }
    print!("{}", md.markdown());
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// Records the tags html5ever reports, switching states as
    /// [`CountingSink`] does.
    #[derive(Default)]
    struct TagSink {
        inner: CountingSink,
        tags: RefCell<Vec<String>>,
    }

    impl TokenSink for TagSink {
        type Handle = ();

        fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<()> {
            if let Token::TagToken(tag) = &token {
                let slash = if tag.kind == TagKind::EndTag { "/" } else { "" };
                self.tags.borrow_mut().push(format!("{slash}{}", tag.name));
            }
            self.inner.process_token(token, line_number)
        }

        fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
            self.inner
                .adjusted_current_node_present_but_not_in_html_namespace()
        }
    }

    fn html5ever_tags(html: &str) -> Vec<String> {
        let tokenizer = Tokenizer::new(TagSink::default(), TokenizerOpts::default());
        let queue = BufferQueue::default();
        queue.push_back(StrTendril::from_slice(html));
        while !matches!(tokenizer.feed(&queue), TokenizerResult::Done) {}
        tokenizer.end();
        tokenizer.sink.tags.take()
    }

    #[test]
    fn html5ever_sink_switches_to_raw_text_like_a_tree_builder() {
        assert_eq!(
            html5ever_tags(
                "<title><b></title><script>if (a<b) x='</p>'</script><style><i></style>"
            ),
            ["title", "/title", "script", "/script", "style", "/style"]
        );
        // Inside SVG, <style> is a foreign element with markup content.
        assert_eq!(
            html5ever_tags("<svg><style><b/></style></svg><style><b></style>"),
            ["svg", "style", "b", "/style", "/svg", "style", "/style"]
        );
    }

    #[test]
    fn kernel_names() {
        assert_eq!(
            Kernel::from_kernel_name("tokenize-lolhtml-ahref"),
            Some(Kernel::LolHtmlAhref)
        );
        assert_eq!(Kernel::from_kernel_name("spinneret"), None);
    }
}
