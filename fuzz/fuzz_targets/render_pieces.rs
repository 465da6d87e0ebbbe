//! The piece renderers: a document's dump, HTML and visible text rendered
//! in pieces on two threads (`write_dump_parallel`, `write_html_parallel`,
//! `write_visible_text_parallel`) are exactly the sequential ones. The
//! fuzzer chooses the document and how small the pieces are, looking for a
//! piece boundary whose owed state (line breaks, a separator, a row begun
//! before it, an escaping context) the join gets wrong.
//!
//! Input: a flags byte (bit 0 scripting, for the parse and the HTML's
//! `noscript`; bit 1 the visible text with `noscript`'s content; bit 2 a
//! fragment in a `div` instead of a document), a piece-cost byte (pieces
//! of 1 to 256 cost units: from a node or two a piece to the default's
//! order), then the text (invalid UTF-8 replaced).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::Input;
use spinneret_html::{
    FragmentContext, ParallelRender, ParseOptions, SerializeOptions, VisibleTextOptions,
    parse_document, parse_fragment,
};

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let piece_cost = usize::from(input.byte()) + 1;
    let text = String::from_utf8_lossy(input.rest());
    let scripting = flags & 1 != 0;
    let options = ParseOptions {
        scripting,
        report_errors: false,
    };
    let doc = if flags & 4 != 0 {
        parse_fragment(&text, &FragmentContext::html("div"), &options)
    } else {
        parse_document(&text, &options)
    };
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool")
    });
    let parallel = ParallelRender {
        threads: 2,
        piece_cost,
    };
    pool.install(|| {
        let mut dump = Vec::new();
        doc.write_dump_parallel(&mut dump, &parallel)
            .expect("a vector");
        assert_eq!(String::from_utf8_lossy(&dump), doc.dump(), "dump");

        let serialize = SerializeOptions { scripting };
        let mut html = Vec::new();
        doc.write_html_parallel(&mut html, serialize, &parallel)
            .expect("a vector");
        assert_eq!(
            String::from_utf8_lossy(&html),
            doc.root().outer_html(serialize),
            "HTML"
        );

        let visible = VisibleTextOptions {
            noscript: flags & 2 != 0,
            hidden: flags & 8 != 0,
        };
        assert_eq!(
            doc.visible_text_parallel(visible, &parallel),
            doc.root().visible_text_with(visible, |_| false),
            "visible text"
        );
    });
});
