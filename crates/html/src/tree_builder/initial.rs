//! The "initial" insertion mode (§13.2.6.4.1): the DOCTYPE, and the
//! quirks mode it selects from the standard's lists of public and system
//! identifiers.

use super::{
    Flow, InsertionMode, QuirksMode, Tok, TreeBuilder, TreeErrorKind, TreeSink, leading_space,
    split_text,
};
use crate::token::Doctype;

/// Public identifiers that start one of these select quirks mode.
const QUIRKY_PUBLIC_PREFIXES: &[&str] = &[
    "+//silmaril//dtd html pro v0r11 19970101//",
    "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
    "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//",
    "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//",
    "-//ietf//dtd html 2.0 strict//",
    "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//",
    "-//ietf//dtd html 3.0//",
    "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//",
    "-//ietf//dtd html 3//",
    "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//",
    "-//ietf//dtd html level 2//",
    "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//",
    "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//",
    "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//",
    "-//ietf//dtd html//",
    "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//",
    "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//",
    "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//",
    "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//",
    "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//",
    "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19970916::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//",
    "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//",
    "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//",
    "-//w3c//dtd html 3.2 final//",
    "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//",
    "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//",
    "-//w3o//dtd w3 html 3.0//",
    "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
];

/// Public identifiers equal to one of these select quirks mode.
const QUIRKY_PUBLIC_IDS: &[&str] = &[
    "-//w3o//dtd w3 html strict 3.0//en//",
    "-/w3c/dtd html 4.0 transitional/en",
    "html",
];

/// HTML 4.01 frameset and transitional: quirks without a system
/// identifier, limited quirks with one.
const HTML401_PREFIXES: &[&str] = &[
    "-//w3c//dtd html 4.01 frameset//",
    "-//w3c//dtd html 4.01 transitional//",
];

/// XHTML 1.0 frameset and transitional: limited quirks.
const XHTML10_PREFIXES: &[&str] = &[
    "-//w3c//dtd xhtml 1.0 frameset//",
    "-//w3c//dtd xhtml 1.0 transitional//",
];

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The quirks mode a DOCTYPE token selects.
pub(crate) fn doctype_quirks_mode(d: &Doctype<'_>) -> QuirksMode {
    let public = d.public_id;
    let system = d.system_id;
    let public_starts =
        |list: &[&str]| public.is_some_and(|p| list.iter().any(|x| starts_with_ignore_case(p, x)));
    if d.force_quirks
        || d.name != Some("html")
        || public_starts(QUIRKY_PUBLIC_PREFIXES)
        || public.is_some_and(|p| QUIRKY_PUBLIC_IDS.iter().any(|x| p.eq_ignore_ascii_case(x)))
        || system.is_some_and(|s| {
            s.eq_ignore_ascii_case("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd")
        })
        || (system.is_none() && public_starts(HTML401_PREFIXES))
    {
        QuirksMode::Quirks
    } else if public_starts(XHTML10_PREFIXES)
        || (system.is_some() && public_starts(HTML401_PREFIXES))
    {
        QuirksMode::LimitedQuirks
    } else {
        QuirksMode::NoQuirks
    }
}

impl<S: TreeSink> TreeBuilder<S> {
    /// The "initial" insertion mode.
    pub(crate) fn initial<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => {
                let n = leading_space(t.as_str());
                if n == t.as_str().len() {
                    return Flow::Done;
                }
                let (_, rest) = split_text(t, n);
                self.no_doctype();
                Flow::Again(Tok::Text(rest))
            }
            Tok::Comment(c) => {
                let doc = self.sink.document();
                self.append_comment_to(doc, c);
                Flow::Done
            }
            Tok::Doctype(d) => {
                let conforming = d.name == Some("html")
                    && d.public_id.is_none()
                    && d.system_id.is_none_or(|s| s == "about:legacy-compat");
                if !conforming {
                    self.error(TreeErrorKind::MissingOrBadDoctype);
                }
                self.sink.append_doctype(
                    d.name.unwrap_or(""),
                    d.public_id.unwrap_or(""),
                    d.system_id.unwrap_or(""),
                );
                self.set_quirks_mode(doctype_quirks_mode(d));
                self.state.mode = InsertionMode::BeforeHtml;
                Flow::Done
            }
            _ => {
                self.no_doctype();
                Flow::Again(token)
            }
        }
    }

    fn no_doctype(&mut self) {
        self.error(TreeErrorKind::MissingOrBadDoctype);
        self.set_quirks_mode(QuirksMode::Quirks);
        self.state.mode = InsertionMode::BeforeHtml;
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.state.quirks_mode = mode;
        self.sink.set_quirks_mode(mode);
    }
}
