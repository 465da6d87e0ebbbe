//! Prints every item of a WARC/ARC file, optionally after flipping one bit:
//! `cargo run --release -p spinneret-warc --example dump -- FILE [FLIP_OFFSET]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: dump FILE [FLIP_OFFSET]");
        return;
    };
    let Ok(mut data) = std::fs::read(path) else {
        eprintln!("cannot read {path}");
        return;
    };
    if let Some(at) = args.get(2).and_then(|a| a.parse::<usize>().ok())
        && at < data.len()
    {
        data[at] ^= 1;
    }
    for item in spinneret_warc::Reader::new(&data) {
        match item {
            Ok(r) => println!(
                "{} {} {:?} {:?}",
                r.offset,
                r.kind.name(),
                r.target_uri,
                r.status()
            ),
            Err(e) => println!("ERR {e}"),
        }
    }
}
