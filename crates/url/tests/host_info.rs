//! Public suffix and registrable domain: the URL Standard's own table
//! (§3.2, "Host miscellaneous"), through URL parsing.

use spinneret_url::Url;

fn info(host: &str) -> (Option<String>, Option<String>) {
    let url = Url::parse(&format!("https://{host}/")).expect("host parses");
    (
        url.public_suffix().map(str::to_owned),
        url.registrable_domain().map(str::to_owned),
    )
}

#[test]
fn the_standards_table() {
    let table: [(&str, Option<&str>, Option<&str>); 12] = [
        ("com", Some("com"), None),
        ("example.com", Some("com"), Some("example.com")),
        ("www.example.com", Some("com"), Some("example.com")),
        ("sub.www.example.com", Some("com"), Some("example.com")),
        ("EXAMPLE.COM", Some("com"), Some("example.com")),
        ("example.com.", Some("com."), Some("example.com.")),
        ("github.io", Some("github.io"), None),
        (
            "whatwg.github.io",
            Some("github.io"),
            Some("whatwg.github.io"),
        ),
        ("إختبار", Some("xn--kgbechtv"), None),
        (
            "example.إختبار",
            Some("xn--kgbechtv"),
            Some("example.xn--kgbechtv"),
        ),
        (
            "sub.example.إختبار",
            Some("xn--kgbechtv"),
            Some("example.xn--kgbechtv"),
        ),
        ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", None, None),
    ];
    for (host, suffix, registrable) in table {
        assert_eq!(
            info(host),
            (suffix.map(str::to_owned), registrable.map(str::to_owned)),
            "{host}"
        );
    }
}

#[test]
fn non_domains_have_no_public_suffix() {
    for url in [
        "https://127.0.0.1/",
        "file:///x",
        "sc://opaque/",
        "mailto:a@b",
    ] {
        let u = Url::parse(url).unwrap();
        assert_eq!(
            (u.public_suffix(), u.registrable_domain()),
            (None, None),
            "{url}"
        );
    }
}
