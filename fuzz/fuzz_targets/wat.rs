//! WAT records on arbitrary bytes: the JSON of every record of a WARC file
//! (`record_metadata`) and of every HTML page (`html_metadata`) is valid
//! JSON, and what is written is read back (`read::page` gives no error on
//! it); `read::page` never panics on arbitrary bytes.
//!
//! Input: a flags byte (bit 0: the rest is a WARC/ARC file, plain, each
//! record's JSON made; else the rest is an HTML page's text, and also the
//! bytes handed to `read::page` as they are), then the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_warc::{Content, Options, Reader};
use spinneret_wat::{Container, html_metadata, read, record_metadata};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    if flags & 1 == 1 {
        let opts = Options {
            content: Content::Block,
            max_record_size: 1 << 20,
            ..Options::default()
        };
        for record in Reader::with_options(rest, opts).flatten() {
            let container = Container {
                filename: "fuzz.warc",
                offset: record.offset,
                ..Container::default()
            };
            let mut json = String::new();
            record_metadata(&record, &container).write(&mut json);
            let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
            assert!(value["Envelope"].is_object());
            read::page(json.as_bytes()).expect("our JSON reads back");
        }
    } else {
        let text = String::from_utf8_lossy(rest);
        let mut json = String::new();
        html_metadata(&text).write(&mut json);
        let _: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        let _ = read::page(rest);
    }
});
