//! The tree builder: never panics; `StreamParser` fed fuzzer-chosen chunks
//! builds the document `parse_document` builds from the whole input
//! (compared as html5lib-tests dumps, errors included); fragment parsing in
//! a few contexts; and serialization re-parses to the same tree where the
//! standard guarantees it.
//!
//! When serialization round-trips. The HTML Standard warns that serializing
//! a DOM and parsing the result need not give the same tree — in general
//! only for DOMs a parser could not have produced, and for some that an
//! erroneous input produces (misnested tags, foster parenting, `<plaintext>`
//! whose end tag cannot be re-read, comments or attribute names holding what
//! a serializer cannot escape). A parse that reported no parse error at all
//! (tokenizer and tree builder) produced a tree by the well-formed paths
//! only, and the serializer's output of such a tree parses back to it — with
//! one known exception: the parser drops a newline that directly follows
//! `<pre>`, `<listing>` or `<textarea>`, and the standard's serializer does
//! not add one back, so a leading newline in such an element's text is lost.
//! The check runs only on error-free parses whose serialization has none of
//! those three start tags.
//!
//! Input: a flags byte (bit 0 scripting; bits 1-3 the fragment context),
//! a count byte (low 4 bits: how many chunk sizes follow), the chunk sizes,
//! then the text (invalid UTF-8 replaced).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::{Input, chunks};
use spinneret_html::{
    Document, FragmentContext, ParseOptions, SerializeOptions, StreamParser, parse_document,
    parse_fragment,
};

/// The contexts a fragment is parsed in (one per insertion mode family).
const CONTEXTS: [&str; 8] = [
    "body", "div", "td", "table", "select", "template", "svg path", "math mi",
];

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let count = input.byte() & 15;
    let sizes = input.bytes(usize::from(count));
    let text = String::from_utf8_lossy(input.rest());
    let text = text.as_ref();
    let scripting = flags & 1 != 0;
    let options = ParseOptions {
        scripting,
        report_errors: true,
    };
    let whole = parse_document(text, &options);
    let whole_dump = whole.dump();

    let mut stream = StreamParser::new(&options);
    for chunk in chunks(text, sizes) {
        stream.feed(chunk);
    }
    let streamed = stream.finish();
    assert_eq!(streamed.dump(), whole_dump, "chunked by {sizes:?}");
    // The same errors, in the same order, at the same positions.
    let errors = |d: &Document| {
        d.errors()
            .iter()
            .map(|e| (e.kind, e.offset, e.line, e.col))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        errors(&streamed),
        errors(&whole),
        "errors, chunked by {sizes:?}"
    );

    let serialize = SerializeOptions { scripting };
    let context: FragmentContext = CONTEXTS[usize::from(flags >> 1) % CONTEXTS.len()]
        .parse()
        .expect("infallible");
    let fragment = parse_fragment(text, &context, &options);
    let _ = fragment.dump();
    let _ = fragment.root().outer_html(serialize);

    let html = whole.root().outer_html(serialize);
    if whole.errors().is_empty()
        && whole.tokenizer_errors().is_empty()
        && !["<pre", "<listing", "<textarea"]
            .iter()
            .any(|t| html.contains(t))
    {
        let again = parse_document(&html, &options);
        assert_eq!(again.dump(), whole_dump, "serialized as {html:?}");
    }
});
