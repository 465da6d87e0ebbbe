//! `spinneret tree`: one HTML page (a file or standard input) parsed into
//! the document a browser builds, printed as the html5lib test-format dump,
//! as serialized HTML or as its visible text.
//!
//! The page's bytes are decoded as `spinneret links` decodes a page (the
//! crawler policy of `spinneret-encoding`: BOM, `--url`'s top-level domain
//! as a hint, the `<meta>` prescan, detection), and a late `<meta>` that
//! changes the encoding restarts the parse (`spinneret_html::parse_bytes`).
//! A fragment (`--fragment CONTEXT`, the DOM's `innerHTML` of a CONTEXT
//! element) is decoded the same way, without the restart: a fragment has no
//! encoding declaration of its own. `--threads N` reads a large file in
//! pieces on N threads, parses the document on them
//! (`spinneret_html::parse_bytes_parallel`, the same tree) and renders
//! the output on them in pieces written in order (the same bytes).

use std::io::{Read, Write};

use clap::{Args, ValueEnum};
use spinneret_encoding::{Policy, Sniffer, decode_with};
use spinneret_html::{
    Document, FragmentContext, ParallelOptions, ParallelRender, ParseOptions, SerializeOptions,
    parse_fragment, parse_owned_bytes_parallel,
};

use crate::Error;
use crate::inputs::{read_html_limited_on, read_limited};

/// Output format of `spinneret tree`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// The html5lib test-format dump (`| <html>` lines).
    Dump,
    /// The document serialized as HTML (the HTML Standard's fragment
    /// serialization of the root's children).
    Html,
    /// The visible text: what a reader sees, blocks on lines of their own.
    Text,
}

/// `spinneret tree [OPTIONS] FILE|-`
#[derive(Debug, Clone, Args)]
pub struct TreeArgs {
    /// The HTML file (`.gz` decompressed), or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub input: String,

    /// The URL the page was fetched from: its top-level domain is a hint
    /// for the encoding, as in `links`.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// What to print.
    #[arg(long, value_enum, default_value_t = TreeFormat::Dump)]
    pub format: TreeFormat,

    /// Parse with the scripting flag on (`<noscript>` content is then raw
    /// text), as a browser running scripts does.
    #[arg(long)]
    pub scripting: bool,

    /// Parse the input as the `innerHTML` of a CONTEXT element: an HTML
    /// element name (`td`), or `svg NAME` / `math NAME`.
    #[arg(long, value_name = "CONTEXT", value_parser = parse_context)]
    pub fragment: Option<spinneret_html::FragmentContext>,

    /// Threads to read, parse and render the document on (1:
    /// sequentially; default: the machine's cores). The output is the
    /// same whatever the number; pages under 128 KiB, and fragments, are
    /// parsed sequentially, and a larger page gets at most one worker per
    /// 128 KiB. The workers run on a pool
    /// of N threads (the calling one among them); by default, on one of a
    /// thread per core.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// With two threads or more, build the tree of the page's second half
    /// on another thread from a context guessed at a cut, and keep it if
    /// the guess was the true state there (else that half is parsed
    /// again); with more threads, one chunk per thread, each checked
    /// against the state the chunk before it left. The tree is the same
    /// either way.
    #[arg(long)]
    pub tree_speculation: bool,

    /// Refuse a page larger than this (decompressed; suffixes K, M, G):
    /// the document takes a few times the page's size in memory.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = crate::flags::parse_size)]
    pub max_size: u64,
}

/// Runs `spinneret tree`: reads the input (`stdin` for `-`), parses it and
/// writes the chosen format to `out`.
pub fn run(
    args: &TreeArgs,
    stdin: &mut (dyn Read + Send),
    out: &mut (dyn Write + Send),
) -> Result<(), Error> {
    let page_url = match &args.url {
        Some(url) => Some(
            spinneret_url::Url::parse(url)
                .map_err(|source| Error::Url {
                    url: url.clone(),
                    source,
                })?
                .href()
                .to_owned(),
        ),
        None => None,
    };
    // `--threads N`: a pool of exactly N threads, the calling one among
    // them (rayon's global pool, which the default uses, has one per
    // core: on a 64-core machine a parse on 4 threads would start 64). The
    // parse and the rendering run on it.
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let pool = match args.threads {
        Some(n) if n >= 2 => rayon::ThreadPoolBuilder::new().num_threads(n).build().ok(),
        _ => None,
    };
    let mut job = || -> Result<(), Error> {
        let bytes = read_input(&args.input, args.max_size, threads, stdin)?;
        let doc = parse(bytes, page_url.as_deref(), args);
        write(&doc, args, threads, out).map_err(Error::Output)
    };
    match &pool {
        Some(pool) => pool.install(job),
        None => job(),
    }
}

/// The input's bytes: the file (`.gz` decompressed, as `links --html`
/// reads it) or standard input for `-`; an error if they are more than
/// `max_size`, found without reading further.
fn read_input(
    input: &str,
    max_size: u64,
    threads: usize,
    stdin: &mut (dyn Read + Send),
) -> Result<Vec<u8>, Error> {
    let (read, what) = if input == "-" {
        (read_limited(stdin, max_size), "standard input")
    } else {
        let path = std::path::Path::new(input);
        (read_html_limited_on(path, max_size, threads), input)
    };
    read.map_err(|source| match source.kind() {
        std::io::ErrorKind::FileTooLarge => Error::PageTooLarge {
            what: what.to_owned(),
            max_size,
        },
        _ => Error::Page {
            what: what.to_owned(),
            source,
        },
    })
}

/// Decodes and parses the page (see the module documentation).
fn parse(bytes: Vec<u8>, url: Option<&str>, args: &TreeArgs) -> Document {
    let mut sniffer = Sniffer::new(Policy::Crawler);
    if let Some(url) = url {
        sniffer = sniffer.url(url);
    }
    let options = ParseOptions {
        scripting: args.scripting,
        ..ParseOptions::default()
    };
    match &args.fragment {
        Some(context) => {
            let encoding = sniffer.determine(&bytes).encoding;
            let text = decode_with(&bytes, encoding).0;
            parse_fragment(&text, context, &options)
        }
        None => {
            let parallel = ParallelOptions {
                tree_speculation: args.tree_speculation,
                ..match args.threads {
                    Some(n) => ParallelOptions::threads(n),
                    None => ParallelOptions::default(),
                }
            };
            // The bytes are given away: a UTF-8 page becomes the
            // document's source as it is, not a copy.
            parse_owned_bytes_parallel(bytes, &sniffer, &options, &parallel).0
        }
    }
}

/// Writes the document in the chosen format, ending with a newline unless
/// empty. The dump (quadratic in the tree's depth: every line is indented
/// by it), the HTML and the text are written as they are made, on
/// `threads` threads in pieces of tens to hundreds of kilobytes
/// (`Document::write_dump_parallel`, `write_html_parallel`,
/// `write_visible_text_parallel`: the same bytes).
fn write(
    doc: &Document,
    args: &TreeArgs,
    threads: usize,
    out: &mut (dyn Write + Send),
) -> std::io::Result<()> {
    let parallel = ParallelRender::threads(threads);
    let mut out = Ends::new(out);
    match args.format {
        TreeFormat::Dump => doc.write_dump_parallel(&mut out, &parallel)?,
        TreeFormat::Html => {
            let options = SerializeOptions {
                scripting: args.scripting,
            };
            doc.write_html_parallel(&mut out, options, &parallel)?
        }
        TreeFormat::Text => {
            doc.write_visible_text_parallel(&mut out, Default::default(), &parallel)?
        }
    }
    out.finish()
}

/// A writer that remembers whether what it was given is empty or ends in
/// a newline, so that the output can end with one.
struct Ends<'w> {
    out: &'w mut (dyn Write + Send),
    last: Option<u8>,
}

impl<'w> Ends<'w> {
    fn new(out: &'w mut (dyn Write + Send)) -> Self {
        Ends { out, last: None }
    }

    /// Ends the output with a newline unless it is empty or has one, and
    /// flushes it.
    fn finish(self) -> std::io::Result<()> {
        if self.last.is_some_and(|b| b != b'\n') {
            self.out.write_all(b"\n")?;
        }
        self.out.flush()
    }
}

impl Write for Ends<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// `spinneret tree` as the binary runs it: the page from a file or
/// standard input, the output to standard output; the exit code.
pub fn exec(args: &TreeArgs) -> Result<u8, Error> {
    // Unlocked (a `Send` writer: with `--threads N` the output is
    // written from the pool); the buffer takes the lock once per
    // 64 KiB.
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout());
    run(args, &mut std::io::stdin(), &mut stdout)?;
    Ok(0)
}

/// Parses `--fragment`'s value: an HTML element name, or `svg NAME` /
/// `math NAME` for a foreign context.
pub fn parse_context(s: &str) -> Result<FragmentContext, String> {
    let name = match s.split_once(' ') {
        Some(("svg" | "math", name)) => name,
        _ => s,
    };
    if name.is_empty() || name.contains(|c: char| c.is_ascii_whitespace()) {
        return Err(format!(
            "not a context element: {s:?} (give an element name: `td`, `svg path`, `math mi`)"
        ));
    }
    s.parse().map_err(|e: std::convert::Infallible| match e {})
}
