//! `spinneret tree` end to end: each output format, a fragment, standard
//! input, the scripting flag, pages in legacy encodings (declared early, and
//! late enough to restart the parse), `--threads`, and the error messages
//! of bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `spinneret tree ARGS` with `stdin` as standard input.
fn tree(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .arg("tree")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run spinneret");
    // A run may stop reading early (`--max-size`): a broken pipe is its
    // answer, not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// The standard output of a successful run.
fn stdout(out: Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A file holding `bytes` in a directory of this test run.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spinneret-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

const PAGE: &str = "<!DOCTYPE html><title>T</title><p class=x>One<b>two<p>three</b>";

#[test]
fn dump_is_the_default_format() {
    let path = file("page.html", PAGE.as_bytes());
    let expected = "\
| <!DOCTYPE html>
| <html>
|   <head>
|     <title>
|       \"T\"
|   <body>
|     <p>
|       class=\"x\"
|       \"One\"
|       <b>
|         \"two\"
|     <p>
|       <b>
|         \"three\"
";
    assert_eq!(stdout(tree(&[path.to_str().unwrap()], b"")), expected);
    let explicit = tree(&["--format", "dump", path.to_str().unwrap()], b"");
    assert_eq!(stdout(explicit), expected);
}

#[test]
fn html_format_serializes_the_document() {
    let out = tree(&["--format", "html", "-"], PAGE.as_bytes());
    assert_eq!(
        stdout(out),
        "<!DOCTYPE html><html><head><title>T</title></head><body>\
         <p class=\"x\">One<b>two</b></p><p><b>three</b></p></body></html>\n"
    );
}

#[test]
fn text_format_is_the_visible_text() {
    let page = "<head><title>T</title><style>p{}</style></head>\
                <h1>Title</h1><p>One,\n  <b>two</b><script>x()</script></p>\
                <ul><li>a<li hidden>b<li>c</ul>";
    let out = tree(&["--format", "text", "-"], page.as_bytes());
    assert_eq!(stdout(out), "Title\n\nOne, two\n\na\nc\n");
    // An empty page prints nothing, not an empty line.
    assert_eq!(
        stdout(tree(&["--format", "text", "-"], b"<script>x</script>")),
        ""
    );
}

#[test]
fn fragments_parse_in_their_context() {
    // Inside a cell, cell and row tags are ignored.
    let out = tree(&["--fragment", "td", "-"], b"<td>cell</td>x<tr>");
    assert_eq!(stdout(out), "| \"cellx\"\n");
    let out = tree(&["--fragment", "svg path", "-"], b"<circle/><p>");
    assert_eq!(stdout(out), "| <svg circle>\n| <p>\n");
    let out = tree(
        &["--fragment", "tr", "--format", "html", "-"],
        b"<td>a<td>b",
    );
    assert_eq!(stdout(out), "<td>a</td><td>b</td>\n");
    let out = tree(&["--fragment", "", "-"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a context element"));
}

#[test]
fn scripting_makes_noscript_raw_text() {
    let page = b"<body><noscript><p>Enable JS</p></noscript>";
    let off = stdout(tree(&["-"], page));
    assert!(
        off.contains("|     <noscript>\n|       <p>\n|         \"Enable JS\"\n"),
        "{off}"
    );
    let on = stdout(tree(&["--scripting", "-"], page));
    assert!(
        on.contains("|     <noscript>\n|       \"<p>Enable JS</p>\"\n"),
        "{on}"
    );
    // Serialized with the same flag, the raw text is not escaped.
    let html = stdout(tree(&["--scripting", "--format", "html", "-"], page));
    assert!(
        html.contains("<noscript><p>Enable JS</p></noscript>"),
        "{html}"
    );
}

#[test]
fn legacy_encodings_are_decoded() {
    // "Привет" in windows-1251, declared in a <meta> the prescan finds.
    let mut page = b"<meta charset=windows-1251><p>".to_vec();
    page.extend_from_slice(b"\xcf\xf0\xe8\xe2\xe5\xf2");
    let path = file("cp1251.html", &page);
    let out = tree(&["--format", "text", path.to_str().unwrap()], b"");
    assert_eq!(stdout(out), "Привет\n");

    // Declared after the prescan's 1024 bytes: the parse restarts in the
    // declared encoding ("café" in windows-1252 would read otherwise).
    let mut late = format!("<!-- {} -->", "x".repeat(1100)).into_bytes();
    late.extend_from_slice(b"<meta charset=iso-8859-7><p>\xe1\xe2\xe3");
    let out = tree(
        &["--format", "text", "--url", "http://example.gr/", "-"],
        &late,
    );
    assert_eq!(stdout(out), "αβγ\n");
}

#[test]
fn bad_input_is_a_clear_error() {
    let out = tree(&["/nonexistent/page.html"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("spinneret: tree: /nonexistent/page.html: "),
        "{err}"
    );
    let out = tree(&["--url", "no url", "-"], b"<p>x");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--url \"no url\""));
    // A directory is not a page.
    let dir = std::env::temp_dir();
    let out = tree(&[dir.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn pages_over_max_size_are_refused_unread() {
    // A gzip page that inflates to 1.2 MB, and the same bytes on standard
    // input: refused at 1M (reading stops at the limit), parsed at their
    // exact size.
    let page = "<p>x".repeat(300_000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(page.as_bytes()).unwrap();
    let path = file("big.html.gz", &gz.finish().unwrap());
    let path = path.to_str().unwrap();
    for (args, stdin) in [
        (vec!["--max-size", "1M", path], &b""[..]),
        (vec!["--max-size", "1M", "-"], page.as_bytes()),
    ] {
        let out = tree(&args, stdin);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("larger than --max-size (1048576 bytes"),
            "{err}"
        );
    }
    let exact = page.len().to_string();
    let args = ["--format", "text", "--max-size", &exact];
    let from_file = stdout(tree(&[&args[..], &[path]].concat(), b""));
    assert_eq!(
        from_file,
        "x\n\n".repeat(300_000).trim_end().to_owned() + "\n"
    );
    let from_stdin = stdout(tree(&[&args[..], &["-"]].concat(), page.as_bytes()));
    assert_eq!(from_stdin, from_file);
}

#[test]
fn threads_give_the_same_tree() {
    // Large enough to be parsed in parallel, with a late `<meta>` that
    // restarts the parse in another encoding.
    let mut page = b"<!DOCTYPE html><title>caf\xe9</title>".to_vec();
    page.extend_from_slice("<!-- padding -->".repeat(100).as_bytes());
    page.extend_from_slice(b"<meta charset=windows-1252>");
    for i in 0..8000 {
        page.extend_from_slice(
            format!("<table><tr><td>{i}<b>caf\u{e9}<p>x</table><script>a<b</script>").as_bytes(),
        );
        page.push(0xe9);
    }
    let path = file("threads.html", &page);
    let path = path.to_str().unwrap();
    // Every output format of the parallel tree.
    for format in ["dump", "html", "text"] {
        let sequential = stdout(tree(&["--format", format, "--threads", "1", path], b""));
        // The title (in the dump and the HTML) is windows-1252's café.
        assert!(
            format == "text" || sequential.contains("caf\u{e9}"),
            "{format}"
        );
        assert!(sequential.len() > 100_000, "{format}");
        for threads in ["2", "3", "8"] {
            assert!(
                stdout(tree(&["--format", format, "--threads", threads, path], b"")) == sequential,
                "{format}: {threads} threads"
            );
        }
        assert!(
            stdout(tree(&["--format", format, path], b"")) == sequential,
            "{format}: default threads"
        );
        speculation_gives(path, format, &sequential);
    }
}

#[test]
fn tree_speculation_adopts_and_renders_in_every_format() {
    // A well-formed page with more tags than tree speculation's threshold
    // (2^18, estimated): its chunks' trees are built from guessed contexts
    // and adopted — debug builds compare every parse that adopted a chunk
    // with a sequential one — and the adopted tree, whose arena holds each
    // chunk's nodes after the calling thread's, is rendered in pieces.
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Archive</title></head>\
         <body><main>\n",
    );
    for i in 0..32_000 {
        page.push_str(&format!(
            "<div class=post><h2><a href=/p/{i}>Post {i}</a></h2><p>caf\u{e9} <b>bold</b> \
             <i>it</i></p><ul><li>one</li><li>two</li></ul></div>\n"
        ));
    }
    page.push_str("</main></body></html>\n");
    let path = file("speculated.html", page.as_bytes());
    let path = path.to_str().unwrap();
    for format in ["dump", "html", "text"] {
        let sequential = stdout(tree(&["--format", format, "--threads", "1", path], b""));
        assert!(sequential.contains("Post 31999"), "{format}");
        speculation_gives(path, format, &sequential);
    }
}

/// `--tree-speculation` at 2 and 4 threads writes `path`'s tree in
/// `format` as `sequential`.
fn speculation_gives(path: &str, format: &str, sequential: &str) {
    for threads in ["2", "4"] {
        let speculating = [
            "--format",
            format,
            "--threads",
            threads,
            "--tree-speculation",
            path,
        ];
        assert!(
            stdout(tree(&speculating, b"")) == sequential,
            "{format}: tree speculation, {threads} threads"
        );
    }
}
