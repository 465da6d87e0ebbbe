//! The pipeline benchmark's in-process kernels: reading the WARC alone,
//! `spinneret links` through the CLI's own pipeline, and lol_html with one
//! handler per link attribute. Each returns what it counted so that the
//! caller can report it and the work cannot be optimized away.

use std::borrow::Cow;
use std::cell::RefCell;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::Path;

use clap::Parser;
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};
use spinneret_cli::commands::links::{self, LinksArgs};
use spinneret_cli::commands::{Cli, Command as CliCommand};
use spinneret_url::Url;
use spinneret_warc::Reader;

/// The link attributes the peers extract (spinneret extracts these and
/// more). `links.py` receives the same list.
pub const TARGETS: &[(&str, &str)] = &[
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("img", "src"),
    ("script", "src"),
    ("iframe", "src"),
    ("frame", "src"),
    ("embed", "src"),
    ("source", "src"),
    ("audio", "src"),
    ("video", "src"),
    ("track", "src"),
    ("object", "data"),
    ("form", "action"),
];

/// Bytes of every record's payload: the WARC reader alone.
#[inline(never)]
pub fn warc_read(data: &[u8]) -> usize {
    let mut bytes = 0usize;
    for rec in Reader::new(data).flatten() {
        bytes += black_box(&rec.body).len();
    }
    bytes
}

/// An output sink that only counts the bytes written.
#[derive(Default)]
struct Counting {
    bytes: u64,
}

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The arguments of `spinneret links WARC --threads N`, parsed by the CLI's
/// own parser so that every default is the binary's.
fn links_args(warc: &Path, threads: usize) -> LinksArgs {
    let cli = Cli::try_parse_from([
        "spinneret".as_ref(),
        "links".as_ref(),
        warc.as_os_str(),
        "--threads".as_ref(),
        threads.to_string().as_ref(),
    ])
    .expect("valid links arguments");
    match cli.command {
        CliCommand::Links(a) => a,
        other => unreachable!("parsed `links`, got {other:?}"),
    }
}

/// (pages, links) of one in-process `spinneret links` run.
pub fn spinneret_in_process(warc: &Path, threads: usize) -> (u64, u64) {
    let args = links_args(warc, threads);
    let mut out = Counting::default();
    let r = links::run(&args, &mut out, &mut io::sink(), false).expect("spinneret links run");
    black_box(out.bytes);
    (r.stats.html_pages, r.stats.links_written)
}

/// The lol_html kernel's selectors, parsed once for every pass.
pub struct LolHtmlSelectors {
    /// `tag[attr]` for each of [`TARGETS`], with the attribute to read.
    links: Vec<(Selector, &'static str)>,
    /// `base[href]`.
    base: Selector,
}

impl LolHtmlSelectors {
    /// The selectors of [`TARGETS`] and `base[href]`.
    pub fn new() -> LolHtmlSelectors {
        LolHtmlSelectors {
            links: TARGETS
                .iter()
                .map(|(t, a)| (format!("{t}[{a}]").parse().expect("a valid selector"), *a))
                .collect(),
            base: "base[href]".parse().expect("a valid selector"),
        }
    }
}

/// (pages, links) of lol_html over every HTML record: one handler per
/// link selector and one for the first `<base href>`.
#[inline(never)]
pub fn lolhtml(data: &[u8], selectors: &LolHtmlSelectors) -> (u64, u64) {
    let LolHtmlSelectors {
        links: selectors,
        base,
    } = selectors;
    let mut pages = 0u64;
    let mut links = 0u64;
    let raw: RefCell<Vec<String>> = RefCell::new(Vec::new());
    let base_href: RefCell<Option<String>> = RefCell::new(None);
    for rec in Reader::new(data).flatten() {
        if !rec.is_html() {
            continue;
        }
        let Some(page) = rec.target_uri.as_deref().and_then(|u| Url::parse(u).ok()) else {
            continue;
        };
        pages += 1;
        raw.borrow_mut().clear();
        *base_href.borrow_mut() = None;
        let mut settings = Settings::new();
        for (sel, attr) in selectors {
            let raw = &raw;
            let h = ElementContentHandlers::default().element(move |el: &mut Element<'_, '_>| {
                if let Some(v) = el.get_attribute(attr) {
                    raw.borrow_mut().push(v);
                }
                Ok(())
            });
            settings = settings.append_element_content_handler((Cow::Borrowed(sel), h));
        }
        let base_h = ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
            let mut b = base_href.borrow_mut();
            if b.is_none() {
                *b = el.get_attribute("href");
            }
            Ok(())
        });
        settings = settings.append_element_content_handler((Cow::Borrowed(base), base_h));
        let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| {
            black_box(chunk);
        });
        if rewriter.write(&rec.body).is_ok() {
            let _ = rewriter.end();
        }
        let base_url = base_href
            .borrow()
            .as_deref()
            .and_then(|b| Url::parse_with_base(b.trim(), &page).ok());
        let base_url = base_url.as_ref().unwrap_or(&page);
        for v in raw.borrow().iter() {
            let _ = black_box(Url::parse_with_base(v, base_url));
            links += 1;
        }
    }
    (pages, links)
}
