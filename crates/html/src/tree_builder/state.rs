//! The tree builder's whole state as one value: insertion modes, the
//! stack of open elements, the list of active formatting elements, the
//! head and form element pointers and the flags.
//!
//! A [`BuilderState`] can be cloned, compared and inspected; with the
//! tokenizer's [`Snapshot`](crate::Snapshot) it is everything a parse needs
//! to resume at a token boundary (besides the tree itself and the name
//! table, which only grows).

use super::QuirksMode;
use super::formatting_list::{Formatting, FormattingList};
use super::open_elements::OpenElements;
use crate::names::LocalName;
use crate::namespace::Namespace;

/// The insertion modes of the standard (§13.2.4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InsertionMode {
    /// "initial"
    #[default]
    Initial,
    /// "before html"
    BeforeHtml,
    /// "before head"
    BeforeHead,
    /// "in head"
    InHead,
    /// "in head noscript"
    InHeadNoscript,
    /// "after head"
    AfterHead,
    /// "in body"
    InBody,
    /// "text"
    Text,
    /// "in table"
    InTable,
    /// "in table text"
    InTableText,
    /// "in caption"
    InCaption,
    /// "in column group"
    InColumnGroup,
    /// "in table body"
    InTableBody,
    /// "in row"
    InRow,
    /// "in cell"
    InCell,
    /// "in template"
    InTemplate,
    /// "after body"
    AfterBody,
    /// "in frameset"
    InFrameset,
    /// "after frameset"
    AfterFrameset,
    /// "after after body"
    AfterAfterBody,
    /// "after after frameset"
    AfterAfterFrameset,
}

/// An element name as the stack of open elements compares it: a
/// [`LocalName`], or the tree builder's number for another name (the
/// tokenizer's lower-case name; SVG's camel case is not part of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u32);

const OTHER: u32 = 1 << 16;

impl Key {
    /// The key of a hole in the stack of open elements (see
    /// [`OpenElements`]): no element has it.
    pub(crate) const HOLE: Key = Key(u32::MAX);

    pub(crate) const fn known(name: LocalName) -> Key {
        Key(name as u16 as u32)
    }

    pub(crate) fn other(id: u32) -> Key {
        Key(OTHER + id)
    }

    /// The interned name's index in [`LocalName::ALL`], if the key is one.
    #[inline]
    pub(crate) fn local_index(self) -> Option<usize> {
        (self.0 < OTHER).then_some(self.0 as usize)
    }

    /// The tree builder's number of a name that is not interned (the key
    /// is neither an interned name nor a hole's).
    #[inline]
    pub(crate) fn other_index(self) -> usize {
        (self.0 - OTHER) as usize
    }

    /// The interned name, if the key is one.
    pub fn local(self) -> Option<LocalName> {
        (self.0 < OTHER).then(|| LocalName::ALL[self.0 as usize])
    }
}

/// What the tree builder knows of an element without asking the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElemInfo {
    /// The namespace.
    pub ns: Namespace,
    /// The name.
    pub key: Key,
    /// Whether the element is an HTML integration point (SVG
    /// `foreignObject`, `desc`, `title`; MathML `annotation-xml` with an
    /// HTML `encoding`).
    pub html_integration_point: bool,
}

impl ElemInfo {
    /// An HTML element.
    pub(crate) fn html(name: LocalName) -> ElemInfo {
        ElemInfo {
            ns: Namespace::Html,
            key: Key::known(name),
            html_integration_point: false,
        }
    }

    #[inline]
    pub(crate) fn is_html(&self, name: LocalName) -> bool {
        self.ns == Namespace::Html && self.key == Key::known(name)
    }

    /// The HTML element's name, if it is an HTML element with an interned
    /// name.
    #[inline]
    pub(crate) fn html_name(&self) -> Option<LocalName> {
        if self.ns == Namespace::Html {
            self.key.local()
        } else {
            None
        }
    }

    /// MathML `mi`, `mo`, `mn`, `ms`, `mtext`.
    pub(crate) fn is_mathml_text_integration_point(&self) -> bool {
        use LocalName as L;
        self.ns == Namespace::MathMl
            && matches!(
                self.key.local(),
                Some(L::Mi | L::Mo | L::Mn | L::Ms | L::Mtext)
            )
    }
}

/// An entry of the stack of open elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Open<H> {
    /// The element.
    pub node: H,
    /// Its name and namespace.
    pub info: ElemInfo,
}

impl<H> Open<H> {
    /// A hole where the element `node` was: an entry that is no element.
    /// Its info matches no name, is in no namespace's HTML rules and
    /// bounds no scope, so walks of the stack pass over it.
    pub(crate) fn hole(node: H) -> Open<H> {
        Open {
            node,
            info: ElemInfo {
                ns: Namespace::Svg,
                key: Key::HOLE,
                html_integration_point: false,
            },
        }
    }

    /// Whether the entry is a hole.
    #[inline]
    pub(crate) fn is_hole(&self) -> bool {
        self.info.key == Key::HOLE
    }
}

/// The tree builder's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuilderState<H> {
    /// The insertion mode.
    pub mode: InsertionMode,
    /// The original insertion mode (for the text and in table text modes).
    pub original_mode: InsertionMode,
    /// The stack of template insertion modes.
    pub template_modes: Vec<InsertionMode>,
    /// The stack of open elements, bottom (`html`) first.
    pub open: OpenElements<H>,
    /// The list of active formatting elements.
    pub formatting: FormattingList<H>,
    /// The head element pointer.
    pub head: Option<H>,
    /// The form element pointer.
    pub form: Option<H>,
    /// The frameset-ok flag.
    pub frameset_ok: bool,
    /// Whether foster parenting is on (while the in table rules process a
    /// token by the in body rules).
    pub foster_parenting: bool,
    /// The scripting flag.
    pub scripting: bool,
    /// The document's quirks mode (set by the initial mode).
    pub quirks_mode: QuirksMode,
    /// The context element, when parsing a fragment.
    pub context: Option<ElemInfo>,
    /// A newline at the start of the next token is dropped (after `pre`,
    /// `listing`, `textarea` start tags).
    pub ignore_lf: bool,
    /// The pending table character tokens (in table text): their text, and
    /// each piece's offset in the input when it was a span of it.
    pub pending_text: String,
    /// The pieces of `pending_text`: (length, input offset).
    pub pending_pieces: Vec<(usize, Option<usize>)>,
}

impl<H> BuilderState<H> {
    /// How many elements (not markers) the list of active formatting
    /// elements holds.
    pub fn formatting_element_count(&self) -> usize {
        self.formatting
            .iter()
            .filter(|f| matches!(f, Formatting::Element(_)))
            .count()
    }

    pub(crate) fn new(scripting: bool) -> BuilderState<H> {
        BuilderState {
            mode: InsertionMode::Initial,
            original_mode: InsertionMode::Initial,
            template_modes: Vec::new(),
            open: OpenElements::default(),
            formatting: FormattingList::default(),
            head: None,
            form: None,
            frameset_ok: true,
            foster_parenting: false,
            scripting,
            quirks_mode: QuirksMode::NoQuirks,
            context: None,
            ignore_lf: false,
            pending_text: String::new(),
            pending_pieces: Vec::new(),
        }
    }
}
