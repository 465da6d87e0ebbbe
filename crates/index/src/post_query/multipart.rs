//! The multipart body of a POST or PUT as query text: a port of the
//! `multipart` package's (2.0.1) `MultipartParser`, non-strict, with the
//! arguments cdxj-indexer gives it and its defaults, and of what
//! cdxj-indexer's `query_extract` makes of the parts.

use std::collections::HashMap;

use memchr::memmem;

use super::{PY_INT_MAX_DIGITS, binary, urlencode};

/// Bytes per read of the body: the parser's results depend on where its
/// input is cut, in corner cases, so it is fed as MultipartParser feeds it.
const MP_CHUNK: usize = 64 * 1024;
/// Longest part header line.
const MP_MAX_HEADER_SIZE: usize = 4096 + 128;
/// Most headers per part.
const MP_MAX_HEADERS: usize = 8;
/// Most parts.
const MP_MAX_PARTS: usize = 128;
/// Header names the parser keeps as they are.
const MP_KNOWN_HEADERS: [&str; 4] = [
    "Content-Disposition",
    "Content-Type",
    "Content-Length",
    "Content-Range",
];

/// The `multipart` package rejected the body (Python raises).
#[derive(Debug)]
struct Rejected;

/// `multipart/…`: the fields urlencoded, or the binary form.
pub(super) fn multipart_query(mime: &str, data: &[u8]) -> String {
    // `mime.split("boundary=")[1]`: up to a second "boundary=", if any.
    let Some(boundary) = mime.split("boundary=").nth(1) else {
        return binary(data);
    };
    let Ok(parts) = parse_multipart(data, boundary.as_bytes()) else {
        return binary(data);
    };
    let mut values: Vec<(&[u8], Vec<u8>)> = Vec::with_capacity(parts.len());
    for part in &parts {
        let value = if part.filename.as_deref().is_some_and(|f| !f.is_empty()) {
            part.raw.clone()
        } else {
            let charset = part
                .charset
                .as_deref()
                .filter(|c| !c.is_empty())
                .unwrap_or("utf8");
            match decode_charset(&part.raw, charset) {
                Some(text) => text.into_bytes(),
                None => return binary(data),
            }
        };
        values.push((part.name.as_bytes(), value));
    }
    urlencode(values.iter().map(|(n, v)| (*n, v.as_slice())))
}

/// A complete part.
struct Part {
    name: String,
    filename: Option<String>,
    charset: Option<String>,
    raw: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MpState {
    Preamble,
    Header,
    Body,
    Complete,
}

/// PushMultipartParser's state.
struct MpParser<'d> {
    delimiter: &'d [u8],
    state: MpState,
    parts: Vec<Part>,
    current: Option<Part>,
    headers: Vec<(String, String)>,
    length: Option<u64>,
    count: usize,
}

/// The parts of a multipart body, read in [`MP_CHUNK`]s as
/// `MultipartParser(BytesIO(data), boundary)` reads them.
fn parse_multipart(data: &[u8], boundary: &[u8]) -> Result<Vec<Part>, Rejected> {
    if boundary.is_empty() || boundary.contains(&b'\n') {
        return Err(Rejected);
    }
    let delimiter = [b"\r\n--", boundary].concat();
    let mut parser = MpParser {
        delimiter: &delimiter,
        state: MpState::Preamble,
        parts: Vec::new(),
        current: None,
        headers: Vec::new(),
        length: None,
        count: 0,
    };
    // The parser's unconsumed buffer is data[start..end].
    let (mut start, mut end) = (0, 0);
    while parser.state != MpState::Complete {
        if end == data.len() {
            return Err(Rejected); // input ended before the last boundary
        }
        end = data.len().min(end + MP_CHUNK);
        start += parser.parse(&data[start..end])?;
    }
    Ok(parser.parts)
}

impl MpParser<'_> {
    /// One `parse()` of the buffer: how many of its bytes were consumed.
    fn parse(&mut self, buffer: &[u8]) -> Result<usize, Rejected> {
        let delimiter = self.delimiter;
        let d_len = delimiter.len();
        let len = buffer.len();
        let mut off = 0;
        while off < len {
            match self.state {
                MpState::Preamble => {
                    if len < d_len {
                        break;
                    }
                    if let Some(index) =
                        memmem::find(&buffer[off..], &delimiter[2..]).map(|i| off + i)
                    {
                        if index > 0 && (index < 2 || &buffer[index - 2..index] != b"\r\n") {
                            return Err(Rejected); // a byte before the first boundary
                        }
                        let next = index + d_len;
                        let tail = &buffer[next - 2..next.min(len)];
                        if tail == b"\r\n" {
                            self.segment_start()?;
                            self.state = MpState::Header;
                            off = next;
                            continue;
                        } else if tail == b"--" {
                            self.state = MpState::Complete;
                            off = next;
                            break;
                        } else if tail.first() == Some(&b'\n') || next <= len {
                            return Err(Rejected);
                        }
                        off = index.saturating_sub(2);
                        break;
                    }
                    // Skip the preamble, but keep a possible partial boundary.
                    let from = len - (d_len - 1);
                    off = memchr::memrchr(b'\r', &buffer[from..]).map_or(len, |i| from + i);
                    break;
                }
                MpState::Header => match memmem::find(&buffer[off..], b"\r\n") {
                    Some(0) => {
                        self.create_segment()?;
                        self.state = MpState::Body;
                        off += 2;
                    }
                    Some(n) => {
                        self.header_line(&buffer[off..off + n])?;
                        off += n + 2;
                    }
                    None => {
                        if memchr::memchr(b'\n', &buffer[off..]).is_some()
                            || len - off > MP_MAX_HEADER_SIZE
                        {
                            return Err(Rejected);
                        }
                        break;
                    }
                },
                MpState::Body => {
                    if let Some(index) = memmem::find(&buffer[off..], delimiter).map(|i| off + i) {
                        if index > off {
                            self.payload(&buffer[off..index])?;
                            off = index;
                        }
                        let next = index + d_len + 2;
                        let tail = &buffer[index + d_len..next.min(len)];
                        if tail == b"\r\n" || tail == b"--" {
                            self.segment_complete()?;
                            off += d_len + 2;
                            if tail == b"--" {
                                self.state = MpState::Complete;
                                break;
                            }
                            self.segment_start()?;
                            self.state = MpState::Header;
                            continue;
                        } else if next > len {
                            break;
                        }
                        return Err(Rejected); // bytes after a boundary
                    }
                    // Emit all but a possible partial boundary at the end.
                    let from = off.max(len.saturating_sub(d_len - 1));
                    match memchr::memrchr(b'\r', &buffer[from..]).map(|i| from + i) {
                        Some(index) if delimiter.starts_with(&buffer[index..]) => {
                            if index > off {
                                self.payload(&buffer[off..index])?;
                                off = index;
                            }
                        }
                        _ => {
                            self.payload(&buffer[off..])?;
                            off = len;
                        }
                    }
                    break;
                }
                MpState::Complete => break,
            }
        }
        Ok(off)
    }

    fn segment_start(&mut self) -> Result<(), Rejected> {
        self.count += 1;
        if self.count > MP_MAX_PARTS {
            return Err(Rejected);
        }
        self.current = None;
        self.headers.clear();
        self.length = None;
        Ok(())
    }

    fn header_line(&mut self, line: &[u8]) -> Result<(), Rejected> {
        let joined;
        let mut line = line;
        if matches!(line.first(), Some(b' ' | b'\t')) {
            // A continuation of the previous header.
            let Some((name, value)) = self.headers.pop() else {
                return Err(Rejected);
            };
            if line.iter().all(|b| b" \t\n\r\x0b\x0c".contains(b)) {
                return Err(Rejected);
            }
            joined = [name.as_bytes(), b": ", value.as_bytes(), b" ", &line[1..]].concat();
            line = &joined;
        }
        if line.len() > MP_MAX_HEADER_SIZE || self.headers.len() >= MP_MAX_HEADERS {
            return Err(Rejected);
        }
        let text = std::str::from_utf8(line).map_err(|_| Rejected)?;
        let (name, value) = text.split_once(':').ok_or(Rejected)?;
        let name = if MP_KNOWN_HEADERS.contains(&name) {
            name.to_string()
        } else {
            let name = py_title(name.trim_matches(py_isspace)).ok_or(Rejected)?;
            let valid = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !valid && !MP_KNOWN_HEADERS.contains(&name.as_str()) {
                return Err(Rejected);
            }
            name
        };
        let value = value.trim_start_matches([' ', '\t']);
        if name == "Content-Length" {
            // int(value) >= 0 and str(int(value)) == value, or an error.
            let canonical = !value.is_empty()
                && value.len() <= PY_INT_MAX_DIGITS
                && value.bytes().all(|b| b.is_ascii_digit())
                && (value == "0" || !value.starts_with('0'));
            if self.length.is_some() || !canonical {
                return Err(Rejected);
            }
            self.length = Some(value.bytes().fold(0u64, |n, b| {
                n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
            }));
        }
        self.headers.push((name, value.to_string()));
        Ok(())
    }

    fn create_segment(&mut self) -> Result<(), Rejected> {
        let (mut disposition, mut name, mut filename, mut charset) = (None, None, None, None);
        for (header, value) in &self.headers {
            if header == "Content-Disposition" {
                let (d, n, f) = parse_content_disposition(value);
                (disposition, name, filename) = (Some(d), n, f);
            } else if header == "Content-Type" {
                charset = parse_options_header(value, header_unquote)
                    .1
                    .remove("charset");
            }
        }
        if disposition.as_deref() != Some("form-data") {
            return Err(Rejected);
        }
        self.current = Some(Part {
            name: name.unwrap_or_default(),
            filename,
            charset,
            raw: Vec::new(),
        });
        Ok(())
    }

    fn payload(&mut self, chunk: &[u8]) -> Result<(), Rejected> {
        let part = self.current.as_mut().ok_or(Rejected)?;
        part.raw.extend_from_slice(chunk);
        match self.length {
            Some(n) if (part.raw.len() as u64) > n => Err(Rejected),
            _ => Ok(()),
        }
    }

    fn segment_complete(&mut self) -> Result<(), Rejected> {
        let part = self.current.take().ok_or(Rejected)?;
        if self.length.is_some_and(|n| (part.raw.len() as u64) < n) {
            return Err(Rejected);
        }
        self.parts.push(part);
        Ok(())
    }
}

/// Python's `str.isspace` (Unicode White_Space and \x1c–\x1f).
fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// Python's `str.title()`, where the result is ASCII (`None` otherwise:
/// such a header name is invalid). A letter after a cased character is
/// lowered, any other title-cased; the few non-ASCII characters with an
/// ASCII mapping are listed (Unicode 14.0, as CPython 3.11).
fn py_title(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut after_cased = false;
    for c in name.chars() {
        if c.is_ascii() {
            out.push(if after_cased {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            });
            after_cased = c.is_ascii_alphabetic();
            continue;
        }
        out.push_str(match (c, after_cased) {
            ('\u{212A}', true) => "k",
            ('\u{DF}', false) => "Ss",
            ('\u{131}', false) => "I",
            ('\u{17F}', false) => "S",
            ('\u{FB00}', false) => "Ff",
            ('\u{FB01}', false) => "Fi",
            ('\u{FB02}', false) => "Fl",
            ('\u{FB03}', false) => "Ffi",
            ('\u{FB04}', false) => "Ffl",
            ('\u{FB05}' | '\u{FB06}', false) => "St",
            _ => return None,
        });
        after_cased = true;
    }
    Some(out)
}

/// `parse_content_disposition`: (disposition, name, filename).
fn parse_content_disposition(value: &str) -> (String, Option<String>, Option<String>) {
    // The fast path for the form browsers send.
    let split: Vec<&str> = value.splitn(5, '"').collect();
    if split[0] == "form-data; name=" && split.last() == Some(&"") {
        let unquote_name = |n: &str| {
            if n.contains('%') {
                cd_unquote(n, false)
            } else {
                n.to_string()
            }
        };
        if split.len() == 3 {
            return ("form-data".into(), Some(unquote_name(split[1])), None);
        }
        if split.len() == 5 && split[2] == "; filename=" {
            let f = split[3];
            let filename = if f.contains('%') || f.contains('\\') {
                cd_unquote(f, true)
            } else {
                f.to_string()
            };
            return (
                "form-data".into(),
                Some(unquote_name(split[1])),
                Some(filename),
            );
        }
    }
    let (disposition, mut options) = parse_options_header(value, cd_unquote);
    (
        disposition,
        options.remove("name"),
        options.remove("filename"),
    )
}

/// `parse_options_header`: the value before the first `;`, lowered and
/// stripped (it is only compared with ASCII text), and the `; key=value`
/// options after it, as the package's regular expression finds them.
fn parse_options_header(
    header: &str,
    unquote: fn(&str, bool) -> String,
) -> (String, HashMap<String, String>) {
    let mut options = HashMap::new();
    let Some(semicolon) = header.find(';') else {
        return (
            header.to_lowercase().trim_matches(py_isspace).to_string(),
            options,
        );
    };
    let bytes = header.as_bytes();
    let mut pos = semicolon;
    while pos < bytes.len() {
        match match_option(bytes, pos) {
            Some((key, value, end)) => {
                let key = header[key].to_ascii_lowercase();
                let value = unquote(&header[value], key == "filename");
                options.insert(key, value);
                pos = end;
            }
            None => pos += 1,
        }
    }
    (
        header[..semicolon]
            .to_lowercase()
            .trim_matches(py_isspace)
            .to_string(),
        options,
    )
}

/// One match of `; *([a-zA-Z0-9-_]+) *= *("[^\\"]*"|TOKEN|"(?:\\.|[^\\"])*")`
/// at `pos`: the key's range, the value's range, and the end.
fn match_option(
    b: &[u8],
    pos: usize,
) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>, usize)> {
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    let is_token = |c: u8| c.is_ascii_alphanumeric() || b"-!#$%&'*+.^_`|~".contains(&c);
    let skip = |mut i: usize, f: &dyn Fn(u8) -> bool| {
        while b.get(i).is_some_and(|&c| f(c)) {
            i += 1;
        }
        i
    };
    if b.get(pos) != Some(&b';') {
        return None;
    }
    let key_start = skip(pos + 1, &|c| c == b' ');
    let key_end = skip(key_start, &is_name);
    if key_end == key_start {
        return None;
    }
    let eq = skip(key_end, &|c| c == b' ');
    if b.get(eq) != Some(&b'=') {
        return None;
    }
    let value_start = skip(eq + 1, &|c| c == b' ');
    let mut i = value_start;
    match b.get(i) {
        // A quoted string ends at its first quote not escaped by a
        // backslash; a backslash before a newline or the end fails.
        Some(b'"') => loop {
            i += 1;
            match b.get(i) {
                None => return None,
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(b'\\') if matches!(b.get(i + 1), None | Some(b'\n')) => return None,
                Some(b'\\') => i += 1,
                Some(_) => {}
            }
        },
        Some(&c) if is_token(c) => i = skip(i, &is_token),
        _ => return None,
    }
    Some((key_start..key_end, value_start..i, i))
}

/// The text inside a value that starts and ends with `"` (Python's
/// `val and val[0] == val[-1] == '"'`, so `"` alone gives "").
fn inside_quotes(value: &str) -> Option<&str> {
    if value == "\"" {
        return Some("");
    }
    value.strip_prefix('"')?.strip_suffix('"')
}

/// `header_unquote` (only the `charset` option is read through it).
fn header_unquote(value: &str, _filename: bool) -> String {
    match inside_quotes(value) {
        Some(inner) => inner.replace("\\\\", "\\").replace("\\\"", "\""),
        None => value.to_string(),
    }
}

/// `content_disposition_unquote`.
fn cd_unquote(value: &str, filename: bool) -> String {
    let percent = |v: &str| {
        v.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%22", "\"")
    };
    let mut v = match inside_quotes(value) {
        Some(inner) if inner.contains("\\\"") => inner.replace("\\\\", "\\").replace("\\\"", "\""),
        Some(inner) if inner.contains('%') => percent(inner),
        Some(inner) => inner.to_string(),
        None if value.contains('%') => percent(value),
        None => value.to_string(),
    };
    if filename {
        // Internet Explorer's full path: the name after the last backslash.
        let head: Vec<char> = v.chars().take(3).collect();
        if head.get(1..3) == Some(&[':', '\\'][..]) || head.get(..2) == Some(&['\\', '\\'][..]) {
            v = v.rsplit('\\').next().unwrap_or("").to_string();
        }
    }
    v
}

/// `bytes.decode(charset)` for the codecs supported here (UTF-8, ASCII,
/// Latin-1, under Python's names for them); `None` where Python raises.
fn decode_charset(raw: &[u8], charset: &str) -> Option<String> {
    if charset.contains('\0') {
        return None; // "embedded null character"
    }
    if raw.is_empty() {
        return Some(String::new()); // any name: the codec is not looked up
    }
    // Python's codec lookup: ASCII-lowered, runs of other characters than
    // ASCII letters, digits and '.' made one '_', then the alias table.
    let mut name = String::new();
    let mut punct = false;
    for b in charset.bytes() {
        if b.is_ascii_alphanumeric() || b == b'.' {
            if punct && !name.is_empty() {
                name.push('_');
            }
            name.push(b.to_ascii_lowercase() as char);
            punct = false;
        } else {
            punct = true;
        }
    }
    // An alias (the name, or the name with '.' as '_'), else a module name.
    let dotless = name.replace('.', "_");
    let is_alias = |a: &str| a == name || a == dotless;
    let codec = CODECS.iter().find_map(|names| {
        let mut names = names.split_whitespace();
        let module = names.next()?;
        (module == name || names.any(is_alias)).then_some(module)
    })?;
    match codec {
        "utf_8" => String::from_utf8(raw.to_vec()).ok(),
        "latin_1" => Some(raw.iter().map(|&b| char::from(b)).collect()),
        _ => raw
            .is_ascii()
            .then(|| String::from_utf8_lossy(raw).into_owned()),
    }
}

/// Python 3.11's names of the codecs supported for multipart fields: the
/// codec (its module's name), then its aliases (`encodings.aliases`).
const CODECS: [&str; 3] = [
    "utf_8 cp65001 u8 utf utf8 utf8_ucs2 utf8_ucs4",
    "latin_1 8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 \
     iso_ir_100 l1 latin latin1",
    "ascii 646 ansi_x3.4_1968 ansi_x3.4_1986 ansi_x3_4_1968 cp367 csascii ibm367 iso646_us \
     iso_646.irv_1991 iso_ir_6 us us_ascii",
];
