//! The standard's lists of elements, as predicates on an open element:
//! the *special* category, the *formatting* elements, the elements that
//! bound each kind of scope, and those closed by *generate implied end
//! tags*.

use super::state::ElemInfo;
use crate::names::LocalName as L;
use crate::namespace::Namespace;

/// The *special* category (§13.2.4.2).
pub(crate) fn is_special(e: &ElemInfo) -> bool {
    match e.ns {
        Namespace::Html => e.key.local().is_some_and(is_special_html),
        Namespace::MathMl => matches!(
            e.key.local(),
            Some(L::Mi | L::Mo | L::Mn | L::Ms | L::Mtext | L::AnnotationXml)
        ),
        Namespace::Svg => matches!(e.key.local(), Some(L::Foreignobject | L::Desc | L::Title)),
    }
}

/// The HTML elements of the *special* category.
pub(crate) const fn is_special_html(name: L) -> bool {
    matches!(
        name,
        L::Address
            | L::Applet
            | L::Area
            | L::Article
            | L::Aside
            | L::Base
            | L::Basefont
            | L::Bgsound
            | L::Blockquote
            | L::Body
            | L::Br
            | L::Button
            | L::Caption
            | L::Center
            | L::Col
            | L::Colgroup
            | L::Dd
            | L::Details
            | L::Dir
            | L::Div
            | L::Dl
            | L::Dt
            | L::Embed
            | L::Fieldset
            | L::Figcaption
            | L::Figure
            | L::Footer
            | L::Form
            | L::Frame
            | L::Frameset
            | L::H1
            | L::H2
            | L::H3
            | L::H4
            | L::H5
            | L::H6
            | L::Head
            | L::Header
            | L::Hgroup
            | L::Hr
            | L::Html
            | L::Iframe
            | L::Img
            | L::Input
            | L::Keygen
            | L::Li
            | L::Link
            | L::Listing
            | L::Main
            | L::Marquee
            | L::Menu
            | L::Meta
            | L::Nav
            | L::Noembed
            | L::Noframes
            | L::Noscript
            | L::Object
            | L::Ol
            | L::P
            | L::Param
            | L::Plaintext
            | L::Pre
            | L::Script
            | L::Search
            | L::Section
            | L::Select
            | L::Source
            | L::Style
            | L::Summary
            | L::Table
            | L::Tbody
            | L::Td
            | L::Template
            | L::Textarea
            | L::Tfoot
            | L::Th
            | L::Thead
            | L::Title
            | L::Tr
            | L::Track
            | L::Ul
            | L::Wbr
            | L::Xmp
    )
}

/// The kinds of scope of *has an element in … scope*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// "in scope"
    Default,
    /// "in list item scope"
    ListItem,
    /// "in button scope"
    Button,
    /// "in table scope"
    Table,
}

/// The HTML elements that bound the default scope, by [`LocalName`] index.
static HTML_DEFAULT_SCOPE_BOUNDS: [bool; L::ALL.len()] = {
    let mut table = [false; L::ALL.len()];
    let names = [
        L::Applet,
        L::Caption,
        L::Html,
        L::Table,
        L::Td,
        L::Th,
        L::Marquee,
        L::Object,
        L::Select,
        L::Template,
    ];
    let mut i = 0;
    while i < names.len() {
        table[names[i] as usize] = true;
        i += 1;
    }
    table
};

/// The HTML elements that bound the default scope.
pub(crate) const fn bounds_default_scope_html(name: L) -> bool {
    HTML_DEFAULT_SCOPE_BOUNDS[name as usize]
}

/// The elements *generate implied end tags* closes.
pub(crate) fn has_implied_end_tag(e: &ElemInfo) -> bool {
    matches!(
        e.html_name(),
        Some(
            L::Dd | L::Dt | L::Li | L::Optgroup | L::Option | L::P | L::Rb | L::Rp | L::Rt | L::Rtc
        )
    )
}

/// The elements *generate all implied end tags thoroughly* closes.
pub(crate) fn has_implied_end_tag_thoroughly(e: &ElemInfo) -> bool {
    has_implied_end_tag(e)
        || matches!(
            e.html_name(),
            Some(L::Caption | L::Colgroup | L::Tbody | L::Td | L::Tfoot | L::Th | L::Thead | L::Tr)
        )
}

/// `h1` to `h6`.
pub(crate) fn is_heading(name: Option<L>) -> bool {
    matches!(name, Some(L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6))
}
