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
//! encoding declaration of its own. `--threads N` parses a document on N
//! threads (`spinneret_html::parse_bytes_parallel`), with the same tree.

use std::io::{Read, Write};

use anyhow::Context;
use spinneret_encoding::{Policy, Sniffer, decode_with};
use spinneret_html::{
    Document, FragmentContext, ParallelOptions, ParseOptions, SerializeOptions,
    parse_bytes_parallel, parse_fragment,
};

use crate::args::{TreeArgs, TreeFormat};

/// Runs `spinneret tree`: reads the input (`stdin` for `-`), parses it and
/// writes the chosen format to `out`.
pub fn run(args: &TreeArgs, stdin: &mut dyn Read, out: &mut dyn Write) -> anyhow::Result<()> {
    let bytes = read_input(&args.input, args.max_size, stdin)?;
    let page_url = match &args.url {
        Some(url) => Some(
            spinneret_url::Url::parse(url)
                .map_err(|source| crate::Error::Url {
                    url: url.clone(),
                    source,
                })?
                .href()
                .to_owned(),
        ),
        None => None,
    };
    let doc = parse(&bytes, page_url.as_deref(), args);
    write(&doc, args, out).context("output")?;
    Ok(())
}

/// The input's bytes: the file (`.gz` decompressed, as `links --html`
/// reads it) or standard input for `-`; an error if they are more than
/// `max_size`, found without reading further.
fn read_input(input: &str, max_size: u64, stdin: &mut dyn Read) -> anyhow::Result<Vec<u8>> {
    let (read, what) = if input == "-" {
        (
            crate::input::read_limited(stdin, max_size),
            "standard input",
        )
    } else {
        let path = std::path::Path::new(input);
        (crate::input::read_html_limited(path, max_size), input)
    };
    match read {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Err(anyhow::anyhow!(
            "{what}: the page is larger than --max-size ({max_size} bytes, decompressed); \
             raise --max-size to parse it"
        )),
        Err(e) => Err(anyhow::Error::new(e).context(format!("{what}: cannot be read"))),
    }
}

/// Decodes and parses the page (see the module documentation).
fn parse(bytes: &[u8], url: Option<&str>, args: &TreeArgs) -> Document {
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
            let encoding = sniffer.determine(bytes).encoding;
            let text = decode_with(bytes, encoding).0;
            parse_fragment(&text, context, &options)
        }
        None => {
            let parse = |parallel: ParallelOptions| {
                let parallel = ParallelOptions {
                    tree_speculation: args.tree_speculation,
                    ..parallel
                };
                parse_bytes_parallel(bytes, &sniffer, &options, &parallel).0
            };
            match args.threads {
                // `--threads N`: a pool of exactly N threads, the calling
                // one among them (rayon's global pool, which the default
                // uses, has one per core: on a 64-core machine a parse on
                // 4 threads would start 64).
                Some(n) if n >= 2 => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                    Ok(pool) => pool.install(|| parse(ParallelOptions::threads(n))),
                    Err(_) => parse(ParallelOptions::threads(n)),
                },
                Some(n) => parse(ParallelOptions::threads(n)),
                None => parse(ParallelOptions::default()),
            }
        }
    }
}

/// Writes the document in the chosen format, ending with a newline unless
/// empty. The dump (quadratic in the tree's depth: every line is indented
/// by it) is streamed; the HTML and the text are linear in the input and
/// written whole.
fn write(doc: &Document, args: &TreeArgs, out: &mut dyn Write) -> std::io::Result<()> {
    let mut text = match args.format {
        TreeFormat::Dump => {
            // Every line of the dump ends in a newline.
            let mut out = out;
            doc.write_dump(&mut out)?;
            return out.flush();
        }
        TreeFormat::Html => doc.root().outer_html(SerializeOptions {
            scripting: args.scripting,
        }),
        TreeFormat::Text => doc.visible_text(),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    out.write_all(text.as_bytes())?;
    out.flush()
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
