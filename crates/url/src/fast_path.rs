//! Fast paths: inputs whose parse result can be written directly, found by
//! table-driven scans; everything else goes to the state machine.
//!
//! Each path accepts an input only when it can prove the state machine would
//! produce exactly the text it writes, with no validation error:
//!
//! - **absolute**: `scheme://host[:port]path?query#fragment` with a
//!   lower-case special scheme other than `file`, no credentials, a host of
//!   lower-case ASCII domain characters whose last label does not start with
//!   a digit (so it cannot *end in a number*), a port without leading zeros
//!   that is not the default, and path, query and fragment made only of bytes
//!   their encode sets leave alone, with no dot segments. The output is the
//!   input (plus a `/` when the path is empty): one allocation and a copy.
//! - **scheme-relative** `//host…`, **path-absolute** `/a/b`, **path-relative**
//!   `a/b`, **query-only** `?q` and **fragment-only** `#f` against a base with
//!   a special, non-`file` scheme and a host: the output is a prefix of the
//!   base followed by the input, under the same byte conditions.
//!
//! - **opaque path**: `scheme:` (not special) then printable ASCII up to
//!   `?`/`#` (a space only where the opaque path state copies it), then a
//!   query and fragment as above: the output is the input.
//!
//! Anything else — upper case, percent-encoded hosts, `\`, tabs, spaces
//! (outside opaque paths), non-ASCII, dot segments, IPv4/IPv6 hosts,
//! credentials — returns `None`.
//! The conditions are deliberately conservative: a false `None` costs time,
//! a false accept would be a wrong URL. `tests/fast_path.rs` compares both
//! paths over the whole corpus.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use crate::byte_runs::Ssse3;
use crate::byte_runs::{Baseline, Run, Scanner};
use crate::components::{Components, NONE};
use crate::host::HostKind;
use crate::parser::starts_with_windows_drive_letter;
use crate::scheme::SchemeType;
use crate::url::Url;

/// A byte the scheme state accepts after the first, in lower case.
#[inline(always)]
pub(crate) fn is_lower_scheme_byte(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.')
}

/// Positions (in the scanned text) of the path end, `?` and `#`.
#[derive(Clone, Copy)]
struct Tail {
    query: u32,
    fragment: u32,
}

/// Whether the segment starting at `i` is `.`/`..` in any spelling
/// (conservatively: any segment starting `.` or `%2e` that is short enough).
#[inline]
fn is_dot_segment_at(b: &[u8], i: usize) -> bool {
    let mut j = i;
    let mut dots = 0;
    while j < b.len() && dots <= 2 {
        match b[j] {
            b'.' => j += 1,
            b'%' if b.len() >= j + 3 && b[j + 1] == b'2' && (b[j + 2] | 0x20) == b'e' => j += 3,
            b'/' | b'?' | b'#' | b'\\' => break,
            _ => return false,
        }
        dots += 1;
    }
    (j == b.len() || matches!(b[j], b'/' | b'?' | b'#' | b'\\')) && (1..=2).contains(&dots)
}

/// Scans the path from segment start `i`, then query and fragment.
/// Returns the offsets of `?` and `#` (or NONE), or `None` if a byte needs
/// the state machine.
#[inline(always)]
fn scan_tail<S: Scanner>(s: S, b: &[u8], mut i: usize, base_offset: usize) -> Option<Tail> {
    let n = b.len();
    // Path: one run of ordinary bytes, `/` included; the run stops at a `/`
    // that may start a dot segment, which is checked here.
    if i < n && matches!(b[i], b'.' | b'%') && is_dot_segment_at(b, i) {
        return None;
    }
    loop {
        i = s.end_of_run(b, i, Run::Path);
        if i == n {
            return Some(Tail {
                query: NONE,
                fragment: NONE,
            });
        }
        match b[i] {
            b'/' if !is_dot_segment_at(b, i + 1) => i += 1,
            b'?' | b'#' => break,
            _ => return None,
        }
    }
    let mut tail = Tail {
        query: NONE,
        fragment: NONE,
    };
    if b[i] == b'?' {
        tail.query = (base_offset + i) as u32;
        i = s.end_of_run(b, i + 1, Run::SpecialQuery);
        if i == n {
            return Some(tail);
        }
        if b[i] != b'#' {
            return None;
        }
    }
    tail.fragment = (base_offset + i) as u32;
    (s.end_of_run(b, i + 1, Run::Fragment) == n).then_some(tail)
}

/// Whether a host cannot *end in a number*. Conservative: a host whose
/// last label (ignoring one trailing dot) starts with a digit goes to the
/// state machine, which covers decimal and `0x` forms — unless the host's
/// last byte is a letter no IPv4 number can end with (`g`–`z` but `x`:
/// every number is decimal, octal or `0x` hexadecimal digits, or `0x`
/// itself), which most hosts' last bytes are, decided without a scan.
#[inline(always)]
fn last_label_is_not_numeric(host: &[u8]) -> bool {
    if let Some(b'g'..=b'w' | b'y' | b'z') = host.last() {
        return true;
    }
    let h = host.strip_suffix(b".").unwrap_or(host);
    let last = match h.iter().rposition(|&c| c == b'.') {
        Some(p) => &h[p + 1..],
        None => h,
    };
    last.first().is_some_and(|c| !c.is_ascii_digit())
}

/// Scans `host[:port]` from `start` (just after `//`) up to the end of the
/// authority. Returns `(host_end, path_start)`: the end of the host and the
/// index of the byte that ends the authority (or the input's end).
#[inline(always)]
fn scan_authority<S: Scanner>(
    s: S,
    b: &[u8],
    start: usize,
    scheme: SchemeType,
) -> Option<(usize, usize)> {
    let n = b.len();
    let mut i = s.end_of_run(b, start, Run::Host);
    // Opaque hosts keep their bytes; domains must not end in a number.
    if i == start || (scheme.is_special() && !last_label_is_not_numeric(&b[start..i])) {
        return None;
    }
    let host_end = i;
    if i < n && b[i] == b':' {
        i += 1;
        let digits_start = i;
        let mut port: u32 = 0;
        while i < n && b[i].is_ascii_digit() && i - digits_start < 5 {
            port = port * 10 + (b[i] - b'0') as u32;
            i += 1;
        }
        let len = i - digits_start;
        let leading_zero = len > 1 && b[digits_start] == b'0';
        if len == 0 || port > 65535 || leading_zero || Some(port as u16) == scheme.default_port() {
            return None;
        }
    }
    if i < n && !matches!(b[i], b'/' | b'?' | b'#') {
        return None;
    }
    Some((host_end, i))
}

/// How the input starts, as far as schemes go.
enum SchemeStart {
    /// No scheme: the input is relative.
    None,
    /// A lower-case scheme; the index of its `:`.
    Lowercase(SchemeType, usize),
    /// A scheme the fast paths do not handle (upper case).
    Other,
}

/// Applies the scheme state's rule: an ASCII alpha, then alphanumerics,
/// `+`, `-`, `.`, then `:`.
#[inline(always)]
fn scan_scheme(b: &[u8]) -> SchemeStart {
    // Most URLs on the web: decide them with one or two comparisons.
    if b.starts_with(b"https:") {
        return SchemeStart::Lowercase(SchemeType::Https, 5);
    }
    if b.starts_with(b"http:") {
        return SchemeStart::Lowercase(SchemeType::Http, 4);
    }
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return SchemeStart::None,
    }
    let i = b
        .iter()
        .position(|&c| !is_lower_scheme_byte(c))
        .unwrap_or(b.len());
    match b.get(i) {
        Some(b':') if b[0].is_ascii_lowercase() => {
            SchemeStart::Lowercase(SchemeType::from_lowercase_bytes(&b[..i]), i)
        }
        Some(c) if c.is_ascii_uppercase() || *c == b':' => {
            // Rare: upper case somewhere. Classify only.
            let j = i + b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
                .count();
            if b.get(j) == Some(&b':') {
                SchemeStart::Other
            } else {
                SchemeStart::None
            }
        }
        _ => SchemeStart::None,
    }
}

/// A fast-path result before allocation: the output is the concatenation
/// of `parts`, with the given components.
pub(crate) struct Plan<'a> {
    parts: [&'a str; 4],
    components: Components,
}

impl Plan<'_> {
    /// Writes the URL: one allocation of the exact size.
    #[inline]
    pub(crate) fn build(&self) -> Url {
        let s: Box<str> = if self.parts[1].is_empty() {
            // The common case: the output is one slice of the input.
            Box::from(self.parts[0])
        } else {
            let len = self.parts.iter().map(|p| p.len()).sum();
            let mut s = String::with_capacity(len);
            for p in self.parts {
                s.push_str(p);
            }
            s.into_boxed_str()
        };
        Url::from_components(s, self.components)
    }

    /// Writes the URL into `out` (its previous text replaced); returns its
    /// components.
    #[inline]
    pub(crate) fn write_into(&self, out: &mut String) -> Components {
        out.clear();
        for p in self.parts {
            out.push_str(p);
        }
        self.components
    }
}

impl<'a> Plan<'a> {
    /// For a plan whose first two parts are adjacent slices of `input`
    /// (head and rest of an absolute URL), merges them so the common case
    /// builds from a single slice.
    #[inline]
    fn rejoined(mut self, input: &'a str) -> Plan<'a> {
        let joined = &input[..self.parts[0].len() + self.parts[1].len()];
        self.parts = [joined, self.parts[2], self.parts[3], ""];
        self
    }
}

/// An absolute URL `head + rest`, where `head` is `scheme:` and `rest`
/// starts with `//`: special schemes, `file`, and non-special schemes with an
/// authority.
#[inline(always)]
fn with_authority<'a, S: Scanner>(
    s: S,
    head: &'a str,
    rest: &'a str,
    scheme: SchemeType,
) -> Option<Plan<'a>> {
    let b = rest.as_bytes();
    let off = head.len();
    let (host_end, path_start, host) = if scheme == SchemeType::File {
        // file: no credentials or port; "localhost" becomes the empty host
        // and drive letters are quirks: both left to the state machine.
        let i = s.end_of_run(b, 2, Run::Host);
        if i < b.len() && !matches!(b[i], b'/' | b'?' | b'#') {
            return None;
        }
        let name = &b[2..i];
        if name.is_empty() {
            (i, i, HostKind::Empty)
        } else if name == b"localhost" || !last_label_is_not_numeric(name) {
            return None;
        } else {
            (i, i, HostKind::Domain)
        }
    } else {
        let (host_end, path_start) = scan_authority(s, b, 2, scheme)?;
        let kind = if scheme.is_special() {
            HostKind::Domain
        } else {
            HostKind::Opaque
        };
        (host_end, path_start, kind)
    };
    let has_path = b.get(path_start) == Some(&b'/');
    if scheme == SchemeType::File
        && has_path
        && starts_with_windows_drive_letter(&b[path_start + 1..])
    {
        return None;
    }
    let host_start = (off + 2) as u32;
    let mut components = Components {
        scheme_end: (off - 1) as u32,
        username_end: host_start,
        host_start,
        host_end: (off + host_end) as u32,
        path_start: (off + path_start) as u32,
        query_start: NONE,
        fragment_start: NONE,
        scheme_type: scheme,
        host_kind: host,
    };
    if has_path || !scheme.is_special() {
        // Non-special URLs keep an empty path empty.
        let tail = scan_tail(s, b, path_start + has_path as usize, off)?;
        (components.query_start, components.fragment_start) = (tail.query, tail.fragment);
        return Some(Plan {
            parts: [head, rest, "", ""],
            components,
        });
    }
    // A special URL with an empty path gets "/" before its query/fragment.
    let tail = scan_tail(s, b, path_start, off + 1)?;
    (components.query_start, components.fragment_start) = (tail.query, tail.fragment);
    let (before, after) = rest.split_at(path_start);
    Some(Plan {
        parts: [head, before, "/", after],
        components,
    })
}

/// A non-special URL with an opaque path: `scheme:` then bytes the opaque
/// path state copies unchanged (printable ASCII; a space only when neither
/// `?` nor `#` follows it, and not at the end, which preprocessing would
/// strip), then an optional query and fragment.
#[inline(always)]
fn with_opaque_path<'a, S: Scanner>(s: S, input: &'a str, colon: usize) -> Option<Plan<'a>> {
    let b = input.as_bytes();
    let i = s.end_of_run(b, colon + 1, Run::OpaquePath);
    if i > colon + 1 && b[i - 1] == b' ' {
        // "%20" before `?`/`#`; stripped at the end.
        return None;
    }
    let after = colon as u32 + 1;
    let mut components = Components {
        scheme_end: colon as u32,
        username_end: after,
        host_start: after,
        host_end: after,
        path_start: after,
        query_start: NONE,
        fragment_start: NONE,
        scheme_type: SchemeType::NotSpecial,
        host_kind: HostKind::None,
    };
    if i < b.len() {
        // scan_tail's path loop stops at once on '?' or '#'.
        let tail = scan_tail(s, b, i, 0)?;
        (components.query_start, components.fragment_start) = (tail.query, tail.fragment);
    }
    Some(Plan {
        parts: [input, "", "", ""],
        components,
    })
}

/// Whether a base URL can prefix relative fast-path results.
#[inline]
fn base_is_simple(base: &Url) -> bool {
    base.is_special()
        && base.scheme_type() != SchemeType::File
        && base.host_kind() != HostKind::None
}

/// The fast paths. `None` means "use the state machine".
#[inline]
pub(crate) fn try_parse(input: &str, base: Option<&Url>) -> Option<Url> {
    plan(input, base).map(|p| p.build())
}

/// The fast paths without allocating: what `try_parse` would build.
#[inline]
pub(crate) fn plan<'a>(input: &'a str, base: Option<&'a Url>) -> Option<Plan<'a>> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(s) = Ssse3::detect() {
        // SAFETY: `s` exists, so the CPU has SSSE3, the one target feature
        // `plan_ssse3` adds.
        return unsafe { plan_ssse3(s, input, base) };
    }
    plan_with(Baseline, input, base)
}

/// [`plan`] compiled with SSSE3 enabled, so that its scans (inlined into
/// it) use `pshufb`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "ssse3")]
fn plan_ssse3<'a>(s: Ssse3, input: &'a str, base: Option<&'a Url>) -> Option<Plan<'a>> {
    plan_with(s, input, base)
}

/// [`plan`] with scanner `s`.
#[inline(always)]
fn plan_with<'a, S: Scanner>(s: S, input: &'a str, base: Option<&'a Url>) -> Option<Plan<'a>> {
    let b = input.as_bytes();
    if b.len() >= u32::MAX as usize / 2 {
        return None;
    }
    match scan_scheme(b) {
        SchemeStart::Lowercase(scheme, colon) => {
            let (head, rest) = input.split_at(colon + 1);
            if rest.starts_with("//") {
                return with_authority(s, head, rest, scheme).map(|p| p.rejoined(input));
            }
            if !scheme.is_special() && !rest.starts_with('/') {
                return with_opaque_path(s, input, colon);
            }
            return None;
        }
        SchemeStart::Other => return None,
        SchemeStart::None => {}
    }
    let base = base.filter(|b| base_is_simple(b))?;
    let href = base.href();
    if href.len() + b.len() >= u32::MAX as usize {
        return None;
    }
    let base_components = base.components();
    let Components {
        scheme_end,
        path_start,
        query_start,
        ..
    } = base_components;
    let Some(&first) = b.first() else {
        // Relative state at EOF: the base without its fragment.
        return Some(Plan {
            parts: [base.href_without_fragment(), "", "", ""],
            components: Components {
                fragment_start: NONE,
                ..base_components
            },
        });
    };
    let (keep, tail, rest) = match first {
        b'/' if b.get(1) == Some(&b'/') => {
            // Scheme-relative: "//host/…" takes the base's scheme.
            return with_authority(
                s,
                &href[..scheme_end as usize + 1],
                input,
                base.scheme_type(),
            );
        }
        b'/' => (
            path_start as usize,
            scan_tail(s, b, 1, path_start as usize)?,
            input,
        ),
        b'?' => {
            let path_end = path_start as usize + base.pathname().len();
            (path_end, scan_tail(s, b, 0, path_end)?, input)
        }
        b'#' => {
            let end = base.href_without_fragment().len();
            let mut tail = scan_tail(s, b, 0, end)?;
            tail.query = query_start; // the base's query stays
            (end, tail, input)
        }
        c if c > b' ' && c != b'\\' => {
            // Path-relative: the base's directory, less one directory per
            // leading "../" ("./" changes nothing), then the rest.
            let path = base.pathname().as_bytes();
            let mut dir = path.iter().rposition(|&c| c == b'/')? + 1;
            let mut rest = b;
            loop {
                if let Some(r) = rest.strip_prefix(b"./") {
                    rest = r;
                } else if let Some(r) = rest.strip_prefix(b"../") {
                    // Shorten the path; at the root it stays "/".
                    dir = path[..dir - 1]
                        .iter()
                        .rposition(|&c| c == b'/')
                        .map_or(1, |p| p + 1);
                    rest = r;
                } else {
                    break;
                }
            }
            let dir_end = path_start as usize + dir;
            let rest = &input[input.len() - rest.len()..];
            (dir_end, scan_tail(s, rest.as_bytes(), 0, dir_end)?, rest)
        }
        _ => return None,
    };
    Some(Plan {
        parts: [&href[..keep], rest, "", ""],
        components: Components {
            query_start: tail.query,
            fragment_start: tail.fragment,
            ..base_components
        },
    })
}

#[cfg(test)]
mod tests {
    use super::plan;

    /// Which hosts the fast path decides cannot end in a number (whether
    /// its results are right is `tests/fast_path.rs`'s question).
    #[test]
    fn hosts_ending_in_a_letter_no_number_ends_with() {
        for taken in [
            "http://a.1g/",
            "http://1.2.3.4z/",
            "http://a.0y/",
            "http://a.com",
        ] {
            assert!(plan(taken, None).is_some(), "{taken:?}");
        }
        for left in [
            "http://a.0x/",
            "http://a.0xff/",
            "http://a.1a/",
            "http://a.12/",
            "http://a.1z./",
        ] {
            assert!(plan(left, None).is_none(), "{left:?}");
        }
    }

    /// Which opaque paths the fast path takes (whether its result is right
    /// is `tests/fast_path.rs`'s question).
    #[test]
    fn opaque_paths_with_spaces() {
        for taken in [
            "data:text/plain,a b",
            "data:image/svg+xml,<svg a='1 2'>\"{}|^`</svg>",
            "node:x  y?q#f",
            "javascript:f( 'a' );",
        ] {
            assert!(plan(taken, None).is_some(), "{taken:?}");
        }
        for left in [
            "node:x ?y",
            "node:x #y",
            "node:x ",
            "node:x \ty",
            "node:x é",
            "node:x\u{7f}",
        ] {
            assert!(plan(left, None).is_none(), "{left:?}");
        }
    }
}
