//! The tokenizer's streaming guarantee: the whole input in one run, the same
//! input fed to `StreamTokenizer` in fuzzer-chosen chunks, and a run resumed
//! from a `Snapshot` at every token boundary all give identical tokens, and
//! the chunked run reports the same errors. With errors reported and not
//! (the fast paths off and on) the tokens are the same. A run that leaves
//! out the data state's text (`Tokenizer::skip_data_text`, switched by the
//! chunk sizes' bits) gives the same other tokens at the same offsets.
//!
//! Input: a flags byte (bits 0-2 the initial text mode, 3 report errors,
//! 4 no tree-builder simulation, 5 scripting, 6 a last start tag `title`),
//! a count byte (low 4 bits: how many chunk sizes follow), the chunk sizes,
//! then the text (invalid UTF-8 replaced).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::{Input, chunks};
use spinneret_html::{OwnedToken, StreamTokenizer, TextMode, Tokenizer, TokenizerOptions};

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let count = input.byte() & 15;
    let sizes = input.bytes(usize::from(count));
    let text = String::from_utf8_lossy(input.rest());
    let text = text.as_ref();
    let initial_state = match flags & 7 {
        0 | 6 | 7 => TextMode::Data,
        1 => TextMode::Rcdata,
        2 => TextMode::Rawtext,
        3 => TextMode::ScriptData,
        4 => TextMode::Plaintext,
        _ => TextMode::CdataSection,
    };
    let options = TokenizerOptions {
        initial_state,
        last_start_tag: (flags & 64 != 0).then(|| "title".to_owned()),
        report_errors: flags & 8 != 0,
        simulate_tree_builder: flags & 16 == 0,
        scripting: flags & 32 != 0,
    };

    // The whole input, recording a snapshot before every token.
    let mut tokenizer = Tokenizer::new(text, options.clone());
    let mut whole: Vec<OwnedToken> = Vec::new();
    let mut cuts = Vec::new();
    let mut last_offset = 0;
    loop {
        let offset = tokenizer.offset();
        assert!(
            offset >= last_offset && text.is_char_boundary(offset),
            "offset {offset} after {last_offset}"
        );
        last_offset = offset;
        cuts.push((whole.len(), offset, tokenizer.snapshot()));
        match tokenizer.next_token() {
            Some(t) => whole.push(t.to_owned()),
            None => break,
        }
    }
    let whole_errors = tokenizer.errors().to_vec();

    // The fast paths (taken only when errors are not reported) give exactly
    // the tokens of the standard's states (taken when they are).
    let flipped = TokenizerOptions {
        report_errors: !options.report_errors,
        ..options.clone()
    };
    let mut other_way = Tokenizer::new(text, flipped);
    let mut other: Vec<OwnedToken> = Vec::new();
    while let Some(t) = other_way.next_token() {
        other.push(t.to_owned());
    }
    assert_eq!(other, whole, "errors reported and not");

    // Data-state text left out, switched on and off by the chunk sizes.
    let markup = |tokens: &[OwnedToken], offsets: &[usize]| -> Vec<(OwnedToken, usize)> {
        tokens
            .iter()
            .zip(offsets)
            .filter(|(t, _)| !matches!(t, OwnedToken::Text(_)))
            .map(|(t, &o)| (t.clone(), o))
            .collect()
    };
    let offsets_after: Vec<usize> = cuts.iter().skip(1).map(|&(_, o, _)| o).collect();
    let mut skipping = Tokenizer::new(text, options.clone());
    let (mut skipped, mut skipped_offsets) = (Vec::new(), Vec::new());
    for i in 0.. {
        let bit = sizes
            .get(i / 8)
            .map_or(i % 2 == 0, |b| b >> (i % 8) & 1 == 1);
        skipping.skip_data_text(bit);
        let Some(t) = skipping.next_token() else {
            break;
        };
        skipped.push(t.to_owned());
        skipped_offsets.push(skipping.offset());
    }
    assert_eq!(
        markup(&skipped, &skipped_offsets),
        markup(&whole, &offsets_after),
        "skipping data text"
    );

    // Fuzzer-chosen chunks.
    let mut stream = StreamTokenizer::new(options.clone());
    let mut streamed = Vec::new();
    for chunk in chunks(text, sizes) {
        stream.feed(chunk, |t| streamed.push(t.to_owned()));
    }
    stream.finish(|t| streamed.push(t.to_owned()));
    assert_eq!(streamed, whole, "chunked by {sizes:?}");
    assert_eq!(
        stream.errors(),
        whole_errors.as_slice(),
        "errors, chunked by {sizes:?}"
    );

    // Resumed at every token boundary.
    for (i, offset, snapshot) in &cuts {
        let mut resumed = Tokenizer::from_snapshot(&text[*offset..], snapshot, options.clone());
        let mut rest = Vec::new();
        while let Some(t) = resumed.next_token() {
            rest.push(t.to_owned());
        }
        assert_eq!(
            rest,
            whole[*i..],
            "resumed before token {i} (byte {offset})"
        );
    }
});
