//! The parallel parser: `parse_document_parallel` with fuzzer-chosen cuts
//! builds exactly `parse_document`'s tree (the html5lib dump), and covers
//! every byte once (reused from a worker, tokenized by the calling thread
//! or in an adopted tree). The cuts are where workers start speculating, so the fuzzer
//! looks for a chunk start, a state and a resynchronization that fool the
//! validation.
//!
//! Input: a flags byte (bit 0 scripting; bit 1 the parser's own chunk
//! starts instead of the cuts, the first a little way in, just after a
//! `</script>` or at a smart cut; bit 2 the parse runs on the only thread
//! of a rayon pool, where no worker can start before it ends: with the
//! parser's own starts it then parses sequentially, with the cuts the
//! calling thread passes every chunk itself; bit 3 tree speculation, the
//! tree after each cut built from a guess, chained over several cuts:
//! each chunk checked against the adopted one before it, or taken over
//! from it by the calling thread), a count byte (low 3 bits:
//! how many cuts follow), each cut as a little-endian `u16` byte offset,
//! then the text (invalid UTF-8 replaced; cuts off a character boundary or
//! out of order are ignored by the parser).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::Input;
use spinneret_html::{
    ParallelOptions, ParseOptions, parse_document, parse_document_parallel_with_stats,
};

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let count = usize::from(input.byte() & 7);
    let cuts: Vec<usize> = input
        .bytes(2 * count)
        .chunks_exact(2)
        .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let text = String::from_utf8_lossy(input.rest());
    let options = ParseOptions {
        scripting: flags & 1 != 0,
        report_errors: false,
    };
    let parallel = ParallelOptions {
        threads: 2,
        sequential_below: 0,
        cuts: (flags & 2 == 0).then(|| cuts.clone()),
        tree_speculation: flags & 8 != 0,
        tree_speculation_from: 0,
    };
    let parse = || parse_document_parallel_with_stats(&text, &options, &parallel);
    let (doc, stats) = if flags & 4 != 0 {
        static ONE_THREAD: OnceLock<rayon::ThreadPool> = OnceLock::new();
        ONE_THREAD
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("a one-thread pool")
            })
            .install(parse)
    } else {
        parse()
    };
    assert_eq!(
        stats.bytes_reused + stats.bytes_tokenized + stats.bytes_adopted(),
        text.len() as u64,
        "{stats:?}"
    );
    if flags & 4 != 0 {
        assert_eq!(stats.bytes_reused, 0, "{stats:?}");
        if flags & 2 != 0 {
            assert_eq!(stats.chunks, 0, "{stats:?}");
        }
    }
    assert!(
        doc.dump() == parse_document(&text, &options).dump(),
        "cuts {cuts:?}"
    );
});
