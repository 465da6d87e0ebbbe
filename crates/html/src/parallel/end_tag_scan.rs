//! The end tags of a chunk that close no element the chunk opened, found
//! by a scan of its tags that is no tokenizer: what a worker guesses the
//! stack of open elements at the chunk's start from
//! (`tree_speculation.rs`).
//!
//! The guess only decides how often a speculated tree is adopted, never
//! what tree a parse builds (the calling thread compares the whole guessed
//! state with the true one), so the scan may be approximate where pages
//! are rare, and it must be cheap: it runs on the worker before the
//! chunk's tree builder does, and the worker's time is the parse's
//! critical path. It jumps from `<` to `<` (`memchr`), reads tag names,
//! steps over attribute values in quotes, comments, and the text of the
//! elements whose text is no markup (`script`, `style`, `textarea`,
//! `title`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript` when
//! scripting, `plaintext`); everything else is skipped unread. The full
//! tokenizer's guess (`probe::guess_open_elements`, for the measurements)
//! costs about the chunk's tokenizing, which is most of what the worker's
//! tree builder spares the calling thread.

use std::collections::HashMap;

use memchr::{memchr, memchr3};

use crate::names::LocalName;
use crate::simulator::is_void;

/// The end tags in `input[from..]` that close no element opened after
/// `from` (matched by name, as a stack), in order, lower-cased; `</html>`,
/// `</body>`, `</head>` and `</br>`, which close nothing in body, left out.
/// `None` if `stopped` (asked every few thousand tags) said to stop.
///
/// Linear in the input: an end tag looks for its element on the stack only
/// when an element of its name is open (a count per name), and the
/// elements it passes over there are closed with it; no allocation per
/// tag but for an unmatched end tag's name (and a name that is no
/// [`LocalName`] the first time it is seen).
pub(super) fn unmatched_end_tags(
    input: &str,
    from: usize,
    scripting: bool,
    stopped: impl Fn() -> bool,
) -> Option<Vec<String>> {
    let mut scan = TagScan::new(input, from, scripting);
    scan.run_to(input.len(), stopped)?;
    Some(scan.unmatched)
}

/// [`unmatched_end_tags`] as a scan that can stop at a place and go on,
/// or end there: a chunk's own scan, from its start to the next chunk's,
/// [composed](TagScan::compose) with what the scan of the rest after it
/// found unmatched gives what one scan from the chunk's start to the end
/// of the input would (the same stack algorithm, run in two parts), where
/// the next chunk's start is a place the one scan passes through (not
/// inside a tag, comment or raw text, as the parser's cuts are).
pub(super) struct TagScan<'a> {
    b: &'a [u8],
    scripting: bool,
    /// The elements opened since the start and not closed yet (name, and
    /// its id: see [`NameIds`]).
    opened: Vec<(&'a [u8], u32)>,
    /// How many of `opened` have each id: an end tag whose count is zero
    /// closes nothing, and is not looked for on the stack.
    open_counts: IdCounts,
    ids: NameIds,
    unmatched: Vec<String>,
    /// Where the scan goes on.
    at: usize,
    tags: u32,
    raw_ends: RawTextEnds,
}

impl<'a> TagScan<'a> {
    pub(super) fn new(input: &'a str, from: usize, scripting: bool) -> TagScan<'a> {
        TagScan {
            b: input.as_bytes(),
            scripting,
            opened: Vec::new(),
            open_counts: IdCounts::default(),
            ids: NameIds::default(),
            unmatched: Vec::new(),
            at: from,
            tags: 0,
            raw_ends: RawTextEnds::default(),
        }
    }

    /// Scans the tags that begin before `to`; `None` if `stopped` said to
    /// stop.
    pub(super) fn run_to(&mut self, to: usize, stopped: impl Fn() -> bool) -> Option<()> {
        let b = self.b;
        let to = to.min(b.len());
        while let Some(lt) = next_lt(b, self.at.min(to), to) {
            self.at = lt + 1;
            self.tags = self.tags.wrapping_add(1);
            if self.tags.is_multiple_of(4096) && stopped() {
                return None;
            }
            self.tag_at(lt);
        }
        self.at = self.at.max(to);
        Some(())
    }

    /// The tag (or comment, or other markup) that begins at `lt`.
    fn tag_at(&mut self, lt: usize) {
        let b = self.b;
        match b.get(lt + 1) {
            Some(b'!') if b[lt..].starts_with(b"<!--") => {
                self.at = find(b, lt + 4, b"-->").map_or(b.len(), |e| e + 3);
            }
            Some(b'!' | b'?') => {
                let at = self.at;
                self.at = memchr(b'>', &b[at..]).map_or(b.len(), |e| at + e + 1);
            }
            Some(b'/') if b.get(lt + 2).is_some_and(u8::is_ascii_alphabetic) => {
                let name = tag_name(b, lt + 2);
                self.at = tag_end(b, lt + 2 + name.len());
                self.end_tag(name);
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name = tag_name(b, lt + 1);
                let end = tag_end(b, lt + 1 + name.len());
                self.at = end;
                let self_closing = end >= 2 && b[end - 2] == b'/';
                let mut buf = [0; 16];
                let lower = lower(name, &mut buf);
                let local = LocalName::from_lowercase(lower);
                if let Some(raw) = local.and_then(RawText::of)
                    && let Some(text_end) = self.raw_ends.after(b, end, raw, self.scripting)
                {
                    self.at = text_end;
                    return;
                }
                if !is_void(local) && !self_closing {
                    let id = self.ids.id(name, local);
                    self.opened.push((name, id));
                    *self.open_counts.get_mut(id) += 1;
                }
            }
            _ => {}
        }
    }

    /// An end tag named `name`: closes the topmost element of its name
    /// opened since the start (and those above it), else is unmatched.
    fn end_tag(&mut self, name: &[u8]) {
        // Most end tags close the element opened last.
        if let Some(&(open, id)) = self.opened.last()
            && open.eq_ignore_ascii_case(name)
        {
            self.opened.pop();
            *self.open_counts.get_mut(id) -= 1;
            return;
        }
        let local = LocalName::from_lowercase(lower(name, &mut [0; 16]));
        let id = self.ids.id(name, local);
        let open = match self.open_counts.get(id) {
            0 => None,
            // Equal ids are equal names but for other names' hashes.
            _ => self.opened.iter().rposition(|&(open, open_id)| {
                open_id == id && (local.is_some() || open.eq_ignore_ascii_case(name))
            }),
        };
        if let Some(open) = open {
            for (_, closed) in self.opened.drain(open..) {
                *self.open_counts.get_mut(closed) -= 1;
            }
        } else if !matches!(
            lower(name, &mut [0; 8]),
            b"html" | b"body" | b"head" | b"br"
        ) {
            self.unmatched
                .push(String::from_utf8_lossy(name).to_ascii_lowercase());
        }
    }

    /// The end tags unmatched from the start to the end of the input, given
    /// those the scan of the rest (from where this one stopped) left
    /// unmatched.
    pub(super) fn compose(mut self, rest: &[String]) -> Vec<String> {
        for name in rest {
            self.end_tag(name.as_bytes());
        }
        self.unmatched
    }

    /// Where the scan goes on (past where it was asked to stop when a tag,
    /// comment or raw text went on past it).
    pub(super) fn position(&self) -> usize {
        self.at
    }

    /// The end tags unmatched so far (all of them, once scanned to the end).
    pub(super) fn into_unmatched(self) -> Vec<String> {
        self.unmatched
    }
}

/// The first `<` in `b[from..to]`: markup's text between tags is often a
/// few bytes, so a few are looked at one by one before `memchr` is.
fn next_lt(b: &[u8], from: usize, to: usize) -> Option<usize> {
    let near = (from + 8).min(to);
    if let Some(i) = b[from..near].iter().position(|&c| c == b'<') {
        return Some(from + i);
    }
    memchr(b'<', &b[near..to]).map(|i| near + i)
}

/// `name` lower-cased into `buf`, if it fits (else an empty name, which is
/// none of the names the scan looks for).
fn lower<'b>(name: &[u8], buf: &'b mut [u8]) -> &'b [u8] {
    let Some(out) = buf.get_mut(..name.len()) else {
        return &[];
    };
    for (o, c) in out.iter_mut().zip(name) {
        *o = c.to_ascii_lowercase();
    }
    out
}

/// A count per name id, in two dense arrays: the well-known names', and
/// the others'.
#[derive(Default)]
struct IdCounts {
    local: Vec<u32>,
    other: Vec<u32>,
}

impl IdCounts {
    fn get(&self, id: u32) -> u32 {
        match id.checked_sub(OTHER_IDS) {
            Some(i) => self.other.get(i as usize),
            None => self.local.get(id as usize),
        }
        .copied()
        .unwrap_or(0)
    }

    fn get_mut(&mut self, id: u32) -> &mut u32 {
        let (counts, i) = match id.checked_sub(OTHER_IDS) {
            Some(i) => (&mut self.other, i as usize),
            None => (&mut self.local, id as usize),
        };
        if counts.len() <= i {
            counts.resize(i + 1, 0);
        }
        &mut counts[i]
    }
}

/// Small numbers for tag names, the same in any case: a well-known name's
/// is its [`LocalName`]'s; another name's is given it at first sight, by a
/// hash of the name (two such names of one hash share a number, so the
/// scan compares those by their text).
#[derive(Default)]
struct NameIds {
    others: HashMap<u64, u32, foldhash::fast::FixedState>,
}

/// The ids of names that are no [`LocalName`] start here.
const OTHER_IDS: u32 = 1 << 16;

impl NameIds {
    /// `name`'s id; `local`, its [`LocalName`] if it is one.
    fn id(&mut self, name: &[u8], local: Option<LocalName>) -> u32 {
        if let Some(local) = local {
            return u32::from(local as u16);
        }
        let hash = name.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, c| {
            (h ^ u64::from(c.to_ascii_lowercase())).wrapping_mul(0x0100_0000_01b3)
        });
        let next = OTHER_IDS + self.others.len() as u32;
        *self.others.entry(hash).or_insert(next)
    }
}

/// The tag name at `at` (up to whitespace, `/` or `>`).
fn tag_name(b: &[u8], at: usize) -> &[u8] {
    let len = b[at..]
        .iter()
        .position(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'/' | b'>'))
        .unwrap_or(b.len() - at);
    &b[at..at + len]
}

/// Just after the `>` that ends the tag whose attributes begin at `at`,
/// stepping over quoted values; the end of the input if none does.
fn tag_end(b: &[u8], mut at: usize) -> usize {
    if b.get(at) == Some(&b'>') {
        return at + 1;
    }
    while let Some(i) = memchr3(b'>', b'"', b'\'', &b[at.min(b.len())..]) {
        let p = at + i;
        match b[p] {
            b'>' => return p + 1,
            quote => at = memchr(quote, &b[p + 1..]).map_or(b.len(), |e| p + 1 + e + 1),
        }
    }
    b.len()
}

/// An element whose text is no markup (`noscript` only when scripting),
/// but for `plaintext`, which ends the input's markup; its discriminant
/// is its entry in [`RawTextEnds`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum RawText {
    Script,
    Style,
    Textarea,
    Title,
    Xmp,
    Iframe,
    Noembed,
    Noframes,
    Noscript,
    Plaintext,
}

impl RawText {
    fn of(name: LocalName) -> Option<RawText> {
        use LocalName as L;
        Some(match name {
            L::Script => RawText::Script,
            L::Style => RawText::Style,
            L::Textarea => RawText::Textarea,
            L::Title => RawText::Title,
            L::Xmp => RawText::Xmp,
            L::Iframe => RawText::Iframe,
            L::Noembed => RawText::Noembed,
            L::Noframes => RawText::Noframes,
            L::Noscript => RawText::Noscript,
            L::Plaintext => RawText::Plaintext,
            _ => return None,
        })
    }

    /// Its name, lower-cased.
    fn name(self) -> &'static [u8] {
        match self {
            RawText::Script => b"script",
            RawText::Style => b"style",
            RawText::Textarea => b"textarea",
            RawText::Title => b"title",
            RawText::Xmp => b"xmp",
            RawText::Iframe => b"iframe",
            RawText::Noembed => b"noembed",
            RawText::Noframes => b"noframes",
            RawText::Noscript => b"noscript",
            RawText::Plaintext => b"plaintext",
        }
    }
}

/// Where each raw-text element's next end tag was found, from where: a
/// scan that meets many start tags of one (`<script` in a script's
/// strings, read as markup by a chunk that starts inside the script) looks
/// for the end tag once, not once per start tag, which would be quadratic.
#[derive(Default)]
struct RawTextEnds([Option<(usize, Option<usize>)>; 9]);

impl RawTextEnds {
    /// Just after the end tag that ends the text of an element whose text
    /// is no markup, when the start tag that ends at `at` opens one.
    fn after(&mut self, b: &[u8], at: usize, raw: RawText, scripting: bool) -> Option<usize> {
        match raw {
            RawText::Plaintext => return Some(b.len()),
            RawText::Noscript if !scripting => return None,
            _ => {}
        }
        let (i, name) = (raw as usize, raw.name());
        let end_tag = match self.0[i] {
            // Searched from at or before `at`, and found nothing or
            // something at or after it: the same answer.
            Some((from, found)) if from <= at && found.is_none_or(|p| p >= at) => found,
            _ => {
                let found = end_tag_at(b, at, name);
                self.0[i] = Some((at, found));
                found
            }
        };
        Some(end_tag.map_or(b.len(), |p| tag_end(b, p + 2 + name.len())))
    }
}

/// The first `</name` (any case) at or after `from`.
fn end_tag_at(b: &[u8], mut from: usize, name: &[u8]) -> Option<usize> {
    while let Some(p) = find(b, from, b"</") {
        let after = &b[p + 2..];
        if after.len() >= name.len() && after[..name.len()].eq_ignore_ascii_case(name) {
            return Some(p);
        }
        from = p + 2;
    }
    None
}

/// The first occurrence of `needle` in `b` at or after `from`.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(b.get(from..)?, needle).map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::unmatched_end_tags;

    #[test]
    fn end_tags_that_close_what_the_chunk_did_not_open() {
        let chunk =
            "<div><p>a</p><br><img src='a>b'></div></section><!-- </x> --></main></body></html>";
        assert_eq!(
            unmatched_end_tags(chunk, 0, true, || false).unwrap(),
            ["section", "main"]
        );
        // Raw text is skipped; a stray end tag counts; case does not matter.
        let chunk =
            "<script>if (a</b) {}</script><style>x</style></TD></Tr><textarea></li></textarea>";
        assert_eq!(
            unmatched_end_tags(chunk, 0, true, || false).unwrap(),
            ["td", "tr"]
        );
        // From an offset; self-closing tags open nothing; plaintext ends all.
        let chunk = "</ul><svg><rect/></svg></g><plaintext></div>";
        assert_eq!(unmatched_end_tags(chunk, 5, true, || false).unwrap(), ["g"]);
        assert!(
            unmatched_end_tags("<div><a href=\"x", 0, true, || false)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            unmatched_end_tags(&"<p>".repeat(5000), 0, true, || true),
            None
        );
    }

    #[test]
    fn names_that_are_not_well_known_match_in_any_case() {
        // Custom elements: matched by name whatever their case, through
        // elements opened since (closed with them); unmatched ones kept.
        let chunk = "<x-card><My-Widget><p><b>a</X-CARD></my-widget></x-card><i></I>\
                     <a-very-long-custom-element-name></A-VERY-LONG-CUSTOM-ELEMENT-NAME>\
                     </a-very-long-custom-element-name></div>";
        assert_eq!(
            unmatched_end_tags(chunk, 0, true, || false).unwrap(),
            [
                "my-widget",
                "x-card",
                "a-very-long-custom-element-name",
                "div"
            ]
        );
        // An end tag that is not the last opened element's closes those
        // above its own.
        let chunk = "<div><section><ul><li></section></li></ul></div></div>";
        assert_eq!(
            unmatched_end_tags(chunk, 0, true, || false).unwrap(),
            ["li", "ul", "div"]
        );
    }

    #[test]
    fn a_scan_in_two_parts_composes_into_one() {
        use super::TagScan;
        let input = "<main><div><p>a</div><section><b>x</section></i></main></td><ul><li>\
                     <script>if (a</b) {}</script></li></ul></div></tr>";
        let whole = unmatched_end_tags(input, 0, true, || false).unwrap();
        assert_eq!(whole, ["i", "td", "div", "tr"]);
        for (cut, _) in input.match_indices('<') {
            let mut head = TagScan::new(input, 0, true);
            head.run_to(cut, || false).unwrap();
            let rest = unmatched_end_tags(input, cut, true, || false).unwrap();
            let composed = head.compose(&rest);
            if !input[..cut].contains("<script") || input[..cut].contains("</script") {
                assert_eq!(composed, whole, "cut at {cut}");
            }
        }
    }
}
