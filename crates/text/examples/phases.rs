use std::io::Read;
use std::time::Instant;
fn main() {
    let dir = std::path::Path::new("/work/shared/corpus/extraction/trafilatura/pages");
    let mut pages = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let mut b = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(e.unwrap().path()).unwrap())
            .read_to_end(&mut b)
            .unwrap();
        pages.push(b);
    }
    let total: usize = pages.iter().map(|p| p.len()).sum();
    let sniffer = spinneret_encoding::Sniffer::new(spinneret_encoding::Policy::Crawler);
    let t = Instant::now();
    let docs: Vec<_> = pages
        .iter()
        .map(|p| spinneret_html::parse_bytes(p, &sniffer, &Default::default()).0)
        .collect();
    let parse = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut n = 0;
    for d in &docs {
        n += d.visible_text().len();
    }
    let vis = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for d in &docs {
        n += spinneret_text::main_content::select(d).roots.len();
    }
    let sel = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for d in &docs {
        n += spinneret_text::metadata::Metadata::of(d, None, None)
            .title
            .map_or(0, |t| t.len());
    }
    let meta = t.elapsed().as_secs_f64();
    let texts: Vec<String> = docs.iter().map(|d| d.visible_text()).collect();
    let t = Instant::now();
    for x in &texts {
        n += spinneret_text::language::detect(x).map_or(0, |l| l.code.len());
    }
    let lang = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let o = spinneret_text::Options {
        main_content: true,
        ..Default::default()
    };
    for p in &pages {
        n += spinneret_text::extract_page(&spinneret_text::Page::new(p), &o)
            .text
            .len();
    }
    let all = t.elapsed().as_secs_f64();
    println!(
        "{} pages {} MB: parse {parse:.3}s visible {vis:.3}s select {sel:.3}s meta {meta:.3}s lang {lang:.3}s; extract main total {all:.3}s = {:.0} pages/s {n}",
        pages.len(),
        total / 1000000,
        pages.len() as f64 / all
    );
}
