//! The boundary between the tree builder and the tree it builds: the
//! [`TreeSink`] trait, and the element names and attributes it is given.
//!
//! The tree builder decides *what* to create and *where* to put it, as
//! the standard's tree construction stage says; a sink only does it. The
//! default sink builds a [`Document`](crate::Document); a user can build
//! their own tree by implementing [`TreeSink`] and calling
//! [`TreeBuilder`](crate::TreeBuilder) directly.
//!
//! Text reaches the sink as [`TokenText`]: either a span of the input
//! (`TokenText::Input`, whose `start` is the byte offset in the whole
//! input, so a sink that keeps the input can keep spans instead of copies)
//! or text the tokenizer changed, valid only during the call.

use crate::names::LocalName;
use crate::namespace::{AttrNamespace, Namespace};
use crate::token::{Attrs, Name, TokenText};
use crate::tree_builder::QuirksMode;
use crate::tree_builder::foreign::{
    adjust_foreign_attribute, adjust_mathml_attribute, adjust_svg_attribute,
};

/// An element's name as the tree builder creates it: the namespace and
/// the local name (SVG names already adjusted to their camel case, e.g.
/// `foreignObject`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementName<'t> {
    /// The namespace.
    pub ns: Namespace,
    /// The local name.
    pub local: Name<'t>,
}

/// Which attribute adjustments apply to a tag's attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrAdjust {
    /// An HTML element: none.
    Html,
    /// An SVG element: SVG attribute names and foreign attributes.
    Svg,
    /// A MathML element: `definitionURL` and foreign attributes.
    MathMl,
}

/// A tag's attributes as the tokenizer lent them, and the offset of the
/// tokenizer's buffer in the whole input (for their input spans). The
/// driver keeps it while the tree builder processes the token, so tokens
/// carry a reference to it (a small token is cheap to pass around).
#[derive(Debug)]
pub(crate) struct AttrSource<'t> {
    pub attrs: Attrs<'t>,
    pub base: usize,
}

/// No attributes.
static NO_ATTRS: AttrSource<'static> = AttrSource {
    attrs: Attrs {
        reprs: &[],
        input: "",
        scratch: "",
    },
    base: 0,
};

/// The attributes of a start tag, as the tree builder hands them to a sink
/// (duplicates already removed, adjusted for the element's namespace).
#[derive(Clone, Copy, Debug)]
pub struct TagAttrs<'t> {
    pub(crate) src: &'t AttrSource<'t>,
    pub(crate) adjust: AttrAdjust,
}

/// One attribute for a sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeAttr<'t> {
    /// The namespace (not none only for foreign attributes such as
    /// `xlink:href` on SVG and MathML elements).
    pub ns: AttrNamespace,
    /// The local name (after the adjustments of foreign content, e.g.
    /// `viewBox`, or `href` for `xlink:href`).
    pub name: Name<'t>,
    /// The value.
    pub value: TokenText<'t>,
}

impl<'t> TagAttrs<'t> {
    /// No attributes.
    pub(crate) fn empty() -> TagAttrs<'static> {
        TagAttrs {
            src: &NO_ATTRS,
            adjust: AttrAdjust::Html,
        }
    }

    /// How many attributes.
    pub fn len(&self) -> usize {
        self.src.attrs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.src.attrs.is_empty()
    }

    /// The attributes in source order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = TreeAttr<'t>> + use<'t> {
        let Attrs {
            reprs,
            input,
            scratch,
        } = self.src.attrs;
        let (base, adjust) = (self.src.base, self.adjust);
        reprs.iter().map(move |r| {
            let value = match r.value.text(input, scratch) {
                TokenText::Input { start, text } => TokenText::Input {
                    start: start + base,
                    text,
                },
                scratch => scratch,
            };
            let name = r.name(input, scratch);
            let (ns, name) = match adjust {
                AttrAdjust::Html => (AttrNamespace::None, name),
                AttrAdjust::Svg => adjust_foreign_attribute(name)
                    .unwrap_or_else(|| (AttrNamespace::None, adjust_svg_attribute(name))),
                AttrAdjust::MathMl => adjust_foreign_attribute(name)
                    .unwrap_or_else(|| (AttrNamespace::None, adjust_mathml_attribute(name))),
            };
            TreeAttr { ns, name, value }
        })
    }

    /// The attributes of an HTML element (no adjustments) as the
    /// tokenizer keeps them, with the offset of their input spans in the
    /// whole input: what [`TagAttrs::iter`] reads, for a sink in this crate
    /// that keeps spans as they are rather than as text. `None` for a
    /// foreign element, whose names are adjusted.
    #[inline]
    pub(crate) fn html_source(&self) -> Option<&'t AttrSource<'t>> {
        (self.adjust == AttrAdjust::Html).then_some(self.src)
    }

    /// The value of the attribute called `name` (in no namespace).
    pub fn value(&self, name: LocalName) -> Option<&'t str> {
        self.src
            .attrs
            .select(|n| (n == name).then_some(()))
            .next()
            .map(|(_, v)| v)
    }
}

/// A tree the tree builder builds.
///
/// Handles are cheap copies naming nodes of the sink's tree. The tree
/// builder only ever passes handles the sink gave it.
pub trait TreeSink {
    /// A node of the sink's tree.
    type Handle: Copy + Eq + std::fmt::Debug;

    /// The document node (or, when parsing a fragment, the root the
    /// fragment's nodes go under).
    fn document(&self) -> Self::Handle;

    /// Input the parser has read, in order: every `TokenText::Input` span
    /// the sink is given lies in the concatenation of these chunks.
    fn input_appended(&mut self, chunk: &str) {
        let _ = chunk;
    }

    /// Creates an element (not yet in the tree). For an HTML `template`
    /// the sink also creates its contents (see
    /// [`TreeSink::template_contents`]).
    fn create_element(&mut self, name: ElementName<'_>, attrs: TagAttrs<'_>) -> Self::Handle;

    /// Creates a comment (not yet in the tree).
    fn create_comment(&mut self, text: TokenText<'_>) -> Self::Handle;

    /// Appends a DOCTYPE to the document.
    fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str);

    /// Appends `child` (not in the tree) as the last child of `parent`.
    fn append(&mut self, parent: Self::Handle, child: Self::Handle);

    /// Appends text to `parent`: to its last child if that is a text node,
    /// else as a new text node. Text for a document node is dropped.
    fn append_text(&mut self, parent: Self::Handle, text: TokenText<'_>);

    /// Inserts `child` (not in the tree) just before `sibling`.
    fn insert_before(&mut self, sibling: Self::Handle, child: Self::Handle);

    /// Inserts text just before `sibling`: into the text node before it if
    /// there is one, else as a new text node.
    fn insert_text_before(&mut self, sibling: Self::Handle, text: TokenText<'_>);

    /// Whether `node` has a parent node.
    fn has_parent(&self, node: Self::Handle) -> bool;

    /// Removes `node` from its parent (if any).
    fn detach(&mut self, node: Self::Handle);

    /// Moves all children of `from` to the end of `to`'s children.
    fn reparent_children(&mut self, from: Self::Handle, to: Self::Handle);

    /// The contents fragment of a template element.
    fn template_contents(&mut self, template: Self::Handle) -> Self::Handle;

    /// Adds to `element` each attribute it does not have yet (on a second
    /// `<html>` or `<body>` start tag).
    fn add_attrs_if_missing(&mut self, element: Self::Handle, attrs: TagAttrs<'_>);

    /// A new element (not in the tree) with the name and attributes of
    /// `element`, as the adoption agency and the reconstruction of active
    /// formatting elements create them.
    fn clone_element(&mut self, element: Self::Handle) -> Self::Handle;

    /// Whether two elements have the same attributes (names, namespaces
    /// and values, in any order), for the Noah's Ark clause.
    fn same_attributes(&self, a: Self::Handle, b: Self::Handle) -> bool;

    /// A fingerprint of an element's attributes, for the Noah's Ark
    /// clause: elements with the same attributes (as [`same_attributes`]
    /// compares them) must have equal fingerprints, and elements with
    /// different ones should rarely share one.
    ///
    /// The default, the same fingerprint for every element, is correct,
    /// but when a page keeps many formatting elements of one name open it
    /// makes the tree builder compare attributes along the whole list of
    /// active formatting elements for each new one (quadratic time on a
    /// hostile page).
    ///
    /// [`same_attributes`]: TreeSink::same_attributes
    fn attributes_fingerprint(&self, element: Self::Handle) -> u64 {
        let _ = element;
        0
    }

    /// Sets the document's quirks mode.
    fn set_quirks_mode(&mut self, mode: QuirksMode);

    /// The tree builder popped the HTML `option` element `option` off the
    /// stack of open elements (at its end tag, an implied end, or the end
    /// of the input, where *stop parsing* pops every open element): the
    /// moment the HTML Standard runs *maybe clone an option into
    /// selectedcontent*, which copies the selected option's children into
    /// its `select`'s `<selectedcontent>` (the customizable select). It
    /// is called before the tree changes again, so the sink sees the tree
    /// as it was at the pop.
    ///
    /// The default does nothing (a tree without that behaviour); the
    /// DOM's sink runs the algorithm ([`Document`](crate::Document)'s
    /// `selectedcontent` rules are in its module doc).
    fn option_popped(&mut self, option: Self::Handle) {
        let _ = option;
    }
}
